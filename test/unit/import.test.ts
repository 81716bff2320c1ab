import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { SquadError } from '../../src/core/base/errors.js';
import { importSquad, withSkillName } from '../../src/core/portable/import.js';
import { SQUAD_LIMITS } from '../../src/core/portable/squad-format.js';
import { SKILL_STAGING_PREFIX, agentSkillDir, squadPaths } from '../../src/core/base/paths.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import { parseSkill } from '../../src/core/skills/skill.js';
import { cleanupTempDirs, hashTree, listFiles, tempDir, validSkill } from '../helpers/cli.js';

afterAll(cleanupTempDirs);
afterEach(() => vi.restoreAllMocks());

function squadFile(document: unknown): string {
  const file = path.join(tempDir(), 'in.squad');
  fs.writeFileSync(file, JSON.stringify(document));
  return file;
}

async function rejection(promise: Promise<unknown>): Promise<SquadError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SquadError) return error;
    throw error;
  }
  throw new Error('expected a SquadError');
}

describe('withSkillName', () => {
  it('replaces the name line and keeps every other byte', () => {
    expect(withSkillName('---\nname: a\ndescription: d\n---\nbody\n', 'b')).toBe('---\nname: b\ndescription: d\n---\nbody\n');
    expect(withSkillName('\uFEFF---\r\nname:   "a"  # comment\r\ndescription: d\r\n---\r\n', 'b')).toBe('\uFEFF---\r\nname: b\r\ndescription: d\r\n---\r\n');
    expect(withSkillName('---\nname: >-\n  long\n  name\ndescription: d\n---\n', 'b')).toBe('---\nname: b\ndescription: d\n---\n');
  });

  it('recognises a quoted name key', () => {
    expect(withSkillName('---\n"name": a\ndescription: d\n---\n', 'b')).toBe('---\nname: b\ndescription: d\n---\n');
    expect(withSkillName("---\n'name' : a\r\ndescription: d\n---\n", 'b')).toBe('---\nname: b\r\ndescription: d\n---\n');
  });

  it('adds a name when the frontmatter has none, and gives up without frontmatter', () => {
    expect(withSkillName('---\ndescription: d\n---\n', 'b')).toBe('---\nname: b\ndescription: d\n---\n');
    expect(withSkillName('# no frontmatter\nname: x\n', 'b')).toBeUndefined();
    expect(withSkillName('---\nmetadata:\n  name: inner\n---\n', 'b')).toBe('---\nname: b\nmetadata:\n  name: inner\n---\n');
  });
});

describe('importSquad', () => {
  it('refuses a squad over the total size limit before writing anything', async () => {
    const target = tempDir();
    const before = hashTree(target);
    const file = squadFile({ squad_format_version: '1.1', agents: { a: { charter: 'x'.repeat(600) }, b: { charter: 'y'.repeat(600) } } });
    const error = await rejection(importSquad(target, file, { limits: { ...SQUAD_LIMITS, totalBytes: 1000 } }));
    expect(error.message).toBe('invalid .squad file: agents.b.charter: the files add up to more than 1000 bytes, the limit for a whole squad');
    expect(error.hint).toMatch(/^nothing was written/);
    expect(hashTree(target)).toBe(before);
  });

  it('refuses a missing file, a folder, and a file over the document limit', async () => {
    const target = tempDir();
    expect((await rejection(importSquad(target, path.join(target, 'nope.squad'), { shownFile: 'nope.squad' }))).message).toBe('nope.squad does not exist');
    expect((await rejection(importSquad(target, target, { shownFile: 'dir' }))).message).toBe('dir is a folder, not a .squad file');
    const file = squadFile({ squad_format_version: '1.1', agents: {} });
    expect((await rejection(importSquad(target, file, { limits: { ...SQUAD_LIMITS, documentBytes: 10 } }))).message).toMatch(/the file is \d+ bytes; the limit is 10 bytes/);
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('writes nothing in a dry run', async () => {
    const target = tempDir();
    const file = squadFile({ squad_format_version: '1.1', agents: { fenster: { charter: '# Fenster — Core Dev\n' } } });
    const report = await importSquad(target, file, { dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.agents).toEqual([{ name: 'fenster', displayName: 'Fenster', role: 'Core Dev', skills: 0 }]);
    expect(report.created).toContain('.github/agents/squad.agent.md');
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('builds a roster from the charters when the file has neither roster nor registry', async () => {
    const target = tempDir();
    const file = squadFile({
      squad_format_version: '1.1',
      agents: { 'kaylee-frye': {}, mal: { charter: '# Malcolm Reynolds — Lead\n' } },
    });
    const report = await importSquad(target, file);
    expect(report.agents.map((a) => `${a.displayName}|${a.role}`)).toEqual(['Kaylee Frye|Member', 'Malcolm Reynolds|Lead']);
    expect(parseRoster(fs.readFileSync(path.join(target, squadPaths.team), 'utf8')).map((m) => `${m.name}|${m.displayName}`)).toEqual([
      'kaylee-frye|Kaylee Frye',
      'mal|Malcolm Reynolds',
      'scribe|Scribe',
    ]);
  });

  it('names members from an original Squad registry: persistent_name and role, else the charter', async () => {
    const target = tempDir();
    const file = squadFile({
      version: '1.0',
      casting: { registry: { agents: { kane: { persistent_name: 'Kane', role: 'Navigator', universe: 'Alien' }, lambert: { universe: 'Alien' } } } },
      agents: { kane: { charter: '# Kane\n' }, lambert: { charter: '# Joan Lambert — Pilot\n' } },
    });
    const report = await importSquad(target, file);
    expect(report.agents.map((a) => `${a.displayName}|${a.role}`)).toEqual(['Kane|Navigator', 'Joan Lambert|Pilot']);
    const registry = JSON.parse(fs.readFileSync(path.join(target, squadPaths.castingRegistry), 'utf8'));
    expect(registry.members.map((m: { folder: string; universe: string }) => `${m.folder}:${m.universe}`)).toEqual(['kane:Alien', 'lambert:Alien']);
  });

  it('keeps a SKILL.md as it is, with a note, when the rewritten one would not read back with the new name', async () => {
    const target = tempDir();
    const flow = '---\n{name: squad-scribe, description: "Mine. Use when logging."}\n---\n\nBody.\n';
    const quoted = '---\n"name": squad-upgrade\ndescription: "Mine. Use when upgrading."\n---\n\nBody.\n';
    const file = squadFile({ squad_format_version: '1.1', agents: { a: { skills: { 'squad-scribe': { skill_md: flow }, 'squad-upgrade': { skill_md: quoted } } } } });
    const report = await importSquad(target, file);
    // The flow-style frontmatter is valid YAML: the note says the rewrite, not the file, is the problem.
    expect(report.notes).toEqual([
      'squad-scribe: its frontmatter is written in a form create-squad cannot rewrite, so its name could not be rewritten to "squad-scribe-imported"; it was imported as it is (set "name: squad-scribe-imported" in its SKILL.md by hand)',
    ]);
    expect(fs.readFileSync(path.join(target, agentSkillDir('a', 'squad-scribe-imported'), 'SKILL.md'), 'utf8')).toBe(flow);
    const upgraded = fs.readFileSync(path.join(target, agentSkillDir('a', 'squad-upgrade-imported'), 'SKILL.md'), 'utf8');
    expect(parseSkill(upgraded).frontmatter.name).toBe('squad-upgrade-imported');
  });

  it('reports the same facts in a dry run as in the real run, all planned before writing', async () => {
    const roster = '# Team\n\n| Name | Role | Charter | Status |\n|---|---|---|---|\n| Fenster |  | `.ai-team/agents/fenster/charter.md` | ✅ Active |\n';
    const document = {
      squad_format_version: '1.1',
      source: { project: 'Shop' },
      team: { team_md: roster },
      agents: {
        fenster: { charter: '# Fenster — Core Dev\n', skills: { react: { skill_md: validSkill('react'), references: { 'a.md': 'A' } } } },
        keaton: { charter: '# Keaton — Lead\n' },
      },
    };
    const now = new Date('2025-06-01T09:30:00.000Z');
    const scratch = tempDir('squad-tmp-');
    vi.spyOn(os, 'tmpdir').mockReturnValue(scratch);
    const dry = await importSquad(tempDir(), squadFile(document), { dryRun: true, now, shownFile: 'in.squad' });
    const target = tempDir();
    const real = await importSquad(target, squadFile(document), { now, shownFile: 'in.squad' });
    // The members' Copilot agents are planned on the squad as the swap leaves it: the dry run reports them too.
    // Keaton is left out of the roster (a note asks for the row): no agent until then.
    expect(real.agentProfiles.map((a) => a.path)).toEqual(['.github/agents/fenster.agent.md', '.github/agents/scribe.agent.md']);
    expect({ ...dry, dryRun: false }).toEqual(real);
    expect(real.files).toBe(listFiles(target).filter((rel) => rel.startsWith('.ai-team/')).length);
    expect(real.agents.map((a) => `${a.displayName}|${a.role}`)).toEqual(['Fenster|', 'Keaton|Lead']);
    // The scratch copy planning used is gone.
    expect(fs.readdirSync(scratch).filter((name) => name.startsWith('create-squad-import-plan-'))).toEqual([]);
  });

  it('renames an agent skill named like a built-in and rewrites its frontmatter name', async () => {
    const target = tempDir();
    const file = squadFile({ squad_format_version: '1.1', agents: { a: { skills: { 'squad-git-workflow': { skill_md: validSkill('squad-git-workflow') } } } } });
    const report = await importSquad(target, file);
    expect(report.renamed).toEqual([{ scope: 'agent', agent: 'a', from: 'squad-git-workflow', to: 'squad-git-workflow-imported', reason: 'a built-in skill has this name' }]);
    const text = fs.readFileSync(path.join(target, agentSkillDir('a', 'squad-git-workflow-imported'), 'SKILL.md'), 'utf8');
    expect(parseSkill(text).frontmatter.name).toBe('squad-git-workflow-imported');
  });
});

describe('importSquad: what it reports exists afterwards', () => {
  const roster = '# Team\n\n| Name | Role | Charter | Status |\n|---|---|---|---|\n| Fenster | Core Dev | `.ai-team/agents/fenster/charter.md` | ✅ Active |\n';

  it('gives an agent the roster leaves out its folder, charter and history, with a note', async () => {
    const target = tempDir();
    const file = squadFile({
      squad_format_version: '1.1',
      team: { team_md: roster },
      agents: { fenster: { charter: '# Fenster — Core Dev\n' }, 'scribe-x': {}, ada: { charter: '# Ada — Lead\n' } },
    });
    const report = await importSquad(target, file);
    expect(report.agents.map((a) => a.name)).toEqual(['fenster', 'ada', 'scribe-x']);
    for (const agent of report.agents) {
      for (const rel of [`.ai-team/agents/${agent.name}/charter.md`, `.ai-team/agents/${agent.name}/history.md`]) expect(fs.existsSync(path.join(target, rel)), rel).toBe(true);
    }
    expect(fs.readFileSync(path.join(target, '.ai-team/agents/scribe-x/charter.md'), 'utf8')).toMatch(/^# Scribe X — Member\n/);
    expect(fs.readFileSync(path.join(target, '.ai-team/agents/ada/charter.md'), 'utf8')).toBe('# Ada — Lead\n');
    expect(report.notes).toEqual([
      'ada is not in the roster of .ai-team/team.md: add a row for Ada there, or the coordinator will not know the member',
      'scribe-x is not in the roster of .ai-team/team.md: add a row for Scribe X there, or the coordinator will not know the member',
    ]);
    expect(report.files).toBe(listFiles(target).filter((rel) => rel.startsWith('.ai-team/')).length);
  });

  it('imports a squad-* skill this package does not ship, even one whose author is "squad"; skips only shipped built-ins', async () => {
    const target = tempDir();
    const builtin = (name: string) => ({ skill_md: validSkill(name, `Mine. Use when ${name}.`, 'metadata:\n  author: squad') });
    const file = squadFile({ squad_format_version: '1.1', agents: {}, team_skills: { 'squad-mine': builtin('squad-mine'), 'squad-scribe': builtin('squad-scribe') } });
    const report = await importSquad(target, file);
    expect(report.skills.map((s) => s.name)).toEqual(['squad-mine']);
    expect(report.skipped).toEqual([{ scope: 'team', name: 'squad-scribe', reason: 'built-in skill: this repository gets its own version' }]);
    expect(parseSkill(fs.readFileSync(path.join(target, '.github/skills/squad-mine/SKILL.md'), 'utf8')).frontmatter.name).toBe('squad-mine');
  });

  it('notes every imported skill that skills validate would call invalid, and imports it all the same', async () => {
    const target = tempDir();
    const file = squadFile({
      squad_format_version: '1.1',
      agents: { fenster: { skills: { plain: { skill_md: '# No frontmatter\n' } } } },
      team_skills: { rich: { skill_md: validSkill('other'), references: { 'a.md': 'A' } }, fine: { skill_md: validSkill('fine') } },
    });
    const report = await importSquad(target, file);
    expect(report.skills.map((s) => s.name)).toEqual(['plain', 'fine', 'rich']);
    expect(report.notes).toEqual([
      expect.stringMatching(
        /^skill plain \(fenster\) is not valid: no YAML frontmatter.*; it was imported as it is \(fix its SKILL\.md; "create-squad skills validate" checks it\)$/,
      ),
      'skill rich (team) is not valid: name "other" does not match its folder "rich"; it was imported as it is (fix its SKILL.md; "create-squad skills validate" checks it)',
    ]);
    expect(fs.readFileSync(path.join(target, '.github/skills/rich/references/a.md'), 'utf8')).toBe('A');
  });

  it('imports a Squad 1.0 skill under its normalised name, and reports what it renamed and left out', async () => {
    const target = tempDir();
    const file = squadFile({ version: '1.0', agents: {}, skills: [validSkill('api-errors'), validSkill('Api Errors Two'), validSkill('Api Errors')] });
    const report = await importSquad(target, file);
    expect(report.skills.map((s) => s.name)).toEqual(['api-errors', 'api-errors-two']);
    expect(report.renamed).toEqual([
      { scope: 'team', from: 'Api Errors Two', to: 'api-errors-two', reason: 'skill name "Api Errors Two" must be lowercase (the original Squad did not check skill names)' },
    ]);
    expect(report.skipped).toEqual([
      {
        scope: 'team',
        name: 'Api Errors',
        reason: 'skill name "Api Errors" must be lowercase and cannot be normalised: "api-errors" is the name of another skill in the file (skills[0])',
      },
    ]);
    expect(parseSkill(fs.readFileSync(path.join(target, '.github/skills/api-errors-two/SKILL.md'), 'utf8')).frontmatter.name).toBe('api-errors-two');
    expect(report.notes.filter((note) => note.includes('not valid'))).toEqual([]);
  });
});

describe('importSquad failing halfway', () => {
  const document = {
    squad_format_version: '1.1',
    agents: { fenster: { charter: '# Fenster — Core Dev\n', skills: { react: { skill_md: validSkill('react'), assets: { 'a.bin': { content: 'AAE=', encoding: 'base64' } } } } } },
  };

  async function squadTarget(): Promise<string> {
    const target = tempDir();
    await importSquad(target, squadFile({ squad_format_version: '1.1', agents: { keaton: { charter: '# Keaton — Lead\n' } } }));
    return target;
  }

  it('a write that fails while staging leaves the target as it was', async () => {
    const target = await squadTarget();
    const before = hashTree(target);
    const open = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation((file, flags, mode) => {
      // The staged a.bin, or the temporary file it is written through, created on a full disk.
      if (/(^|\/)\.?a\.bin(\.\d+\.[0-9a-f]{8}\.tmp)?$/.test(String(file))) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      return open(file, flags, mode);
    });
    const error = await rejection(importSquad(target, squadFile(document), { force: true }));
    expect(error.message).toMatch(/^cannot write \.staging-\.ai-team-[0-9]+-[0-9a-f]{8}\/agents\/fenster\/skills\/react\/assets\/a\.bin: the disk is full$/);
    expect(hashTree(target)).toBe(before);
  });

  it('a swap that fails puts the archived squad back', async () => {
    const target = await squadTarget();
    const before = hashTree(target);
    const rename = fs.renameSync;
    vi.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
      if (String(from).includes(`${SKILL_STAGING_PREFIX}.ai-team-`) && path.basename(String(to)) === '.ai-team') throw Object.assign(new Error('busy'), { code: 'EBUSY' });
      return rename(from, to);
    });
    const error = await rejection(importSquad(target, squadFile(document), { force: true }));
    expect(error.code).toBe('not-writable');
    expect(hashTree(target)).toBe(before);
  });
});
