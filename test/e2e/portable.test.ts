import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportData } from '../../src/commands/export.js';
import type { ImportData } from '../../src/commands/import.js';
import { shippedBuiltinSkills, shippedOwnedFiles } from '../../src/core/squad/owned.js';
import {
  COORDINATOR_PATH,
  SKILL_FILE,
  TEMPLATES_COPY_DIR,
  agentSkillDir,
  charterPath,
  historyPath,
  squadPaths,
  TEAM_SKILLS_DIR,
  nativeTeamSkillDir,
  aiTeamSkillDir,
} from '../../src/core/base/paths.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import { parseSkill } from '../../src/core/skills/skill.js';
import { SQUAD_LIMITS } from '../../src/core/portable/squad-format.js';
import { validateSkill } from '../../src/core/skills/validate.js';
import { cleanupTempDirs, hashTree, initSquad, listFiles, runCli, tempDir, tempRepo, validSkill, writeFiles, type CliResult } from '../helpers/cli.js';
import { debrisLeft } from '../helpers/debris.js';
import { cleanRun, compareWithClean, killAndRerun, matrixWrites, type MatrixCase } from '../helpers/kill-matrix.js';
import { IMPORT_MARKER_PATH } from '../../src/core/base/paths.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { BINARY_ASSET, REACT_SKILL, TEAM_SKILL, debris, skillTreeHash, sourceExport, sourceSquad } from '../helpers/portable.js';

afterAll(cleanupTempDirs);

const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).error === undefined;
if (!HAS_MKFIFO) console.warn('mkfifo is not installed: the FIFO tests are skipped');

type ExportJson = ExportData;
type ImportJson = ImportData;

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

async function exportTo(root: string, out: string, ...flags: string[]): Promise<ExportJson> {
  const result = await runCli(['export', '--out', out, '--json', ...flags], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  return result.data<ExportJson>();
}

async function importInto(root: string, file: string, ...flags: string[]): Promise<ImportJson> {
  const result = await runCli(['import', file, '--json', ...flags], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  return result.data<ImportJson>();
}

/** Write `document` to a .squad file and import it, as text, into a fresh repository; expects success. */
async function importDocument(document: unknown): Promise<{ target: string; result: CliResult }> {
  const file = path.join(tempDir(), 'in.squad');
  fs.writeFileSync(file, JSON.stringify(document));
  const target = tempRepo();
  const result = await runCli(['import', file], { cwd: target });
  expect(result.code, result.stderr).toBe(0);
  return { target, result };
}

describe('export → import round trip', () => {
  it('carries every learned skill byte for byte, binary assets, nested references and executable bits included', async () => {
    const source = await sourceSquad();
    const file = path.join(tempDir(), 'team.squad');
    const exported = await exportTo(source, file);
    expect(exported.skills.map((s) => `${s.agent ?? 'team'}:${s.name}:${s.files}`)).toEqual([`fenster:${REACT_SKILL}:7`, `team:${TEAM_SKILL}:2`]);
    expect(exported.builtinSkills).toEqual(shippedBuiltinSkills());

    const target = tempRepo();
    const imported = await importInto(target, file);
    for (const dir of [agentSkillDir('fenster', REACT_SKILL), nativeTeamSkillDir(TEAM_SKILL)]) {
      expect(skillTreeHash(target, dir), dir).toBe(skillTreeHash(source, dir));
    }
    const react = agentSkillDir('fenster', REACT_SKILL);
    expect(fs.readFileSync(path.join(target, react, 'assets/logo.png')).equals(BINARY_ASSET)).toBe(true);
    expect(fs.statSync(path.join(target, react, 'scripts/generate.sh')).mode & 0o777).toBe(0o755);
    expect(fs.readFileSync(path.join(target, react, 'notes/crlf.txt'), 'utf8')).toBe('\uFEFFline one\r\nline two\r\n');

    // The roster, routing, ceremonies, casting and charters are restored, not blanked.
    for (const rel of [
      squadPaths.team,
      squadPaths.routing,
      squadPaths.ceremonies,
      squadPaths.castingPolicy,
      squadPaths.castingRegistry,
      squadPaths.castingHistory,
      charterPath('fenster'),
      charterPath('scribe'),
    ]) {
      expect(read(target, rel), rel).toBe(read(source, rel));
    }
    expect(parseRoster(read(target, squadPaths.team)).map((m) => m.displayName)).toEqual(['Keaton', 'Fenster', 'Hockney', 'Scribe']);
    expect(imported.agents.map((a) => `${a.displayName} (${a.role})`)).toEqual(['Keaton (Lead)', 'Fenster (Core Dev)', 'Hockney (Tester)']);
    expect(imported.universe).toBe('The Usual Suspects');
    expect(imported.skills.map((s) => s.name)).toEqual([REACT_SKILL, TEAM_SKILL]);

    // Everything else init would create is there: the target is a complete squad.
    const owned = (await shippedOwnedFiles()).map((f) => f.path);
    const files = listFiles(target);
    for (const rel of owned) expect(files, rel).toContain(rel);
    for (const rel of [squadPaths.decisions, `${squadPaths.decisionsInbox}/.gitkeep`, squadPaths.manifest]) expect(files).toContain(rel);
    expect(read(target, COORDINATOR_PATH)).toBe(read(source, COORDINATOR_PATH));
    expect(read(target, squadPaths.manifest)).toBe(read(source, squadPaths.manifest));
    expect(debris(target)).toEqual([]);

    // A second trip (import → export → import) gives the same skills again.
    const again = path.join(tempDir(), 'again.squad');
    await exportTo(target, again);
    const third = tempRepo();
    await importInto(third, again);
    for (const dir of [react, nativeTeamSkillDir(TEAM_SKILL)]) expect(skillTreeHash(third, dir)).toBe(skillTreeHash(source, dir));
  });

  it('splits histories, redacts e-mail addresses and tokens, and starts them with an import note', async () => {
    const source = await sourceSquad();
    const file = path.join(tempDir(), 'team.squad');
    const exported = await exportTo(source, file);
    expect(exported.redaction).toEqual({ enabled: true, email: 1, secret: 1, agents: ['fenster'] });
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(document.agents.fenster.history.portable).toBe('- Ada likes small pull requests.\n- Ask [REDACTED:email] before a release.');
    expect(document.agents.fenster.history.project).toMatch(/^## Project Context\n/);
    expect(document.agents.fenster.history.project).toContain('deploy token: [REDACTED:secret]');
    expect(fs.readFileSync(file, 'utf8')).not.toMatch(/ada@example\.com|ghp_/);

    const target = tempRepo();
    await importInto(target, file);
    const history = read(target, historyPath('fenster'));
    const [first] = history.split('\n');
    expect(first).toMatch(/^📌 Imported from "Dashboard" on \d{4}-\d{2}-\d{2}/);
    expect(history).toContain('## Portable Knowledge\n\n- Ada likes small pull requests.\n');
    expect(history).toContain('## Project Learnings (from Dashboard)\n\n### Project Context\n');
    expect(history.trimEnd()).toMatch(/## Project Learnings\n\n<!--.*-->$/);

    const kept = await exportTo(source, path.join(tempDir(), 'kept.squad'), '--keep-private');
    expect(kept.redaction).toEqual({ enabled: false, email: 1, secret: 1, agents: ['fenster'] });
    const keptText = await runCli(['export', '--out', path.join(tempDir(), 'kept2.squad'), '--keep-private'], { cwd: source });
    expect(keptText.stderr).toContain("⚠ Kept 1 e-mail address and 1 credential-looking string in fenster's history (--keep-private)");
  });

  it('is deterministic: two exports differ only in exported_at', async () => {
    const source = await sourceSquad();
    const dir = tempDir();
    await exportTo(source, path.join(dir, 'a.squad'));
    await exportTo(source, path.join(dir, 'b.squad'));
    const a = fs.readFileSync(path.join(dir, 'a.squad'), 'utf8');
    const b = fs.readFileSync(path.join(dir, 'b.squad'), 'utf8');
    const strip = (text: string) => text.replace(/"exported_at": "[^"]*"/, '"exported_at": "…"');
    expect(strip(a)).toBe(strip(b));
    const keys = (text: string) => [...text.matchAll(/^ {2}"([^"]+)":/gm)].map((m) => m[1]);
    expect(keys(a)).toEqual(['agents', 'casting', 'exported_at', 'exported_by', 'source', 'squad_format_version', 'team', 'team_skills']);
    const skill = JSON.parse(a).agents.fenster.skills[REACT_SKILL];
    expect(Object.keys(skill)).toEqual(['assets', 'files', 'references', 'scripts', 'skill_md']);
    expect(skill.assets['logo.png']).toEqual({ content: BINARY_ASSET.toString('base64'), encoding: 'base64', mode: '644' });
    expect(skill.scripts['generate.sh']).toEqual({ content: '#!/bin/sh\necho generate\n', encoding: 'utf8', mode: '755' });
    expect(skill.references['deep/nested/state.md']).toBe('# State\n\nLift state up.\n');
    expect(skill.files['notes/crlf.txt']).toBe('\uFEFFline one\r\nline two\r\n');
  });
});

describe('export', () => {
  it('writes squad-export.squad by default and refuses to overwrite it without --force', async () => {
    const source = await sourceSquad();
    const first = await runCli(['export'], { cwd: source });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^✓ Exported the squad to squad-export\.squad \(\d+(\.\d)? KB\)/);
    expect(first.stdout).toContain('Members: Keaton (Lead), Fenster (Core Dev), Hockney (Tester), Scribe (Session Logger)');
    const before = fs.readFileSync(path.join(source, 'squad-export.squad'));
    const again = await runCli(['export'], { cwd: source });
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('✗ squad-export.squad already exists — pass --force to replace it, or choose another file with --out');
    expect(fs.readFileSync(path.join(source, 'squad-export.squad')).equals(before)).toBe(true);
    expect((await runCli(['export', '--force'], { cwd: source })).code).toBe(0);
    const dry = await runCli(['export', '--out', 'other.squad', '--dry-run', '--json'], { cwd: source });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.data<ExportJson>()).toMatchObject({ dryRun: true, file: 'other.squad' });
    expect(fs.existsSync(path.join(source, 'other.squad'))).toBe(false);
  });

  it('says how to import a file written outside the current folder by its absolute path', async () => {
    const source = await sourceSquad();
    const inside = await runCli(['export', '--out', 'team.squad'], { cwd: source });
    expect(inside.stdout).toContain(`Import it in another repository with: npx create-squad@${packageVersion()} import team.squad\n`);
    // Run from a subfolder: ../x.squad is outside the current folder (and still in this test's repository).
    fs.mkdirSync(path.join(source, 'docs'));
    const up = await runCli(['export', '--cwd', '..', '--out', '../x.squad'], { cwd: path.join(source, 'docs') });
    expect(up.code, up.stderr).toBe(0);
    expect(fs.existsSync(path.join(source, 'x.squad'))).toBe(true);
    expect(up.stdout).toContain(`Import it in another repository with: npx create-squad@${packageVersion()} import ${path.join(source, 'x.squad').split(path.sep).join('/')}\n`);
    const elsewhere = path.join(tempDir(), 'team.squad');
    const absolute = await runCli(['export', '--out', elsewhere], { cwd: source });
    expect(absolute.code, absolute.stderr).toBe(0);
    expect(absolute.stdout).toContain(`Import it in another repository with: npx create-squad@${packageVersion()} import ${elsewhere.split(path.sep).join('/')}\n`);
  });

  it.skipIf(!HAS_MKFIFO)('never replaces a FIFO at --out, even with --force, and says so before any work', async () => {
    const source = await sourceSquad();
    const dir = tempDir();
    const fifo = path.join(dir, 'team.squad');
    execFileSync('mkfifo', [fifo]);
    for (const flags of [['--force'], [], ['--force', '--dry-run']]) {
      const result = await runCli(['export', '--out', fifo, ...flags], { cwd: source });
      expect(result.code, flags.join(' ')).toBe(1);
      expect(result.stderr).toBe(
        `✗ refusing to replace ${fifo}: it is a FIFO (named pipe), not a regular file — create-squad only ever replaces regular files, with or without --force: move ${fifo} aside, or write somewhere else\n`,
      );
    }
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['team.squad']);
  });

  it('leaves out histories with --no-history, and refuses to run without a squad', async () => {
    const source = await sourceSquad();
    const file = path.join(tempDir(), 'bare.squad');
    expect((await exportTo(source, file, '--no-history')).history).toBe(false);
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.values(document.agents).every((agent) => !('history' in (agent as object)))).toBe(true);
    const empty = tempDir();
    const result = await runCli(['export'], { cwd: empty });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^✗ no squad found/);
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  it('skips symlinks inside skills and never follows them', async () => {
    const source = await sourceSquad();
    const outside = tempDir();
    writeFiles(outside, { 'secret.txt': 'do not export' });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(source, agentSkillDir('fenster', REACT_SKILL), 'references/link.md'));
    const file = path.join(tempDir(), 'x.squad');
    const data = await exportTo(source, file);
    expect(data.skipped).toContainEqual({ path: `${agentSkillDir('fenster', REACT_SKILL)}/references/link.md`, reason: 'a symlink or special file; not exported' });
    expect(fs.readFileSync(file, 'utf8')).not.toContain('do not export');
  });

  it('never follows a symlinked squad folder out of the repository: skips and reports it, or refuses for .ai-team itself', async () => {
    const elsewhere = await sourceSquad();
    const source = await sourceSquad();
    writeFiles(elsewhere, { [charterPath('keaton')]: '# Keaton — from elsewhere\n', [squadPaths.castingPolicy]: '{"universe": "Elsewhere"}\n' });
    for (const rel of [squadPaths.agents, squadPaths.casting, squadPaths.aiTeamSkills, TEAM_SKILLS_DIR]) {
      fs.rmSync(path.join(source, rel), { recursive: true });
      fs.symlinkSync(path.join(elsewhere, rel), path.join(source, rel));
    }
    const file = path.join(tempDir(), 'x.squad');
    const data = await exportTo(source, file);
    for (const rel of [squadPaths.agents, squadPaths.casting, squadPaths.aiTeamSkills, TEAM_SKILLS_DIR])
      expect(data.skipped).toContainEqual({ path: rel, reason: 'a symlink; not followed' });
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(document.agents).toEqual({});
    expect(document.casting).toEqual({});
    expect(document.team_skills).toEqual({});
    expect(fs.readFileSync(file, 'utf8')).not.toContain('from elsewhere');

    const linked = tempRepo();
    fs.symlinkSync(path.join(elsewhere, '.ai-team'), path.join(linked, '.ai-team'));
    const refused = await runCli(['export', '--out', path.join(tempDir(), 'y.squad')], { cwd: linked });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^✗ cannot export: \.ai-team is a symlink; export never follows symlinks — /);
  });

  it('reports what it leaves out instead of dropping it silently: symlinked skill folders, .git in a skill, files that are not UTF-8', async () => {
    const source = await sourceSquad();
    const outside = tempDir();
    writeFiles(outside, { 'linked/SKILL.md': validSkill('linked') });
    fs.symlinkSync(path.join(outside, 'linked'), path.join(source, agentSkillDir('fenster', 'linked')));
    const react = agentSkillDir('fenster', REACT_SKILL);
    writeFiles(source, {
      [`${nativeTeamSkillDir(TEAM_SKILL)}/.git/HEAD`]: 'ref: refs/heads/main\n',
      [`${react}/vendor/lib/.git`]: 'gitdir: ../../.git/modules/lib\n',
      [`${react}/vendor/lib/index.js`]: 'export {};\n',
      [charterPath('hockney')]: Buffer.from([0x23, 0x20, 0x48, 0xe9, 0x0a]), // "# H\xe9": Latin-1, not UTF-8
    });
    const file = path.join(tempDir(), 'x.squad');
    const data = await exportTo(source, file);
    expect(data.skipped).toEqual(
      expect.arrayContaining([
        { path: agentSkillDir('fenster', 'linked'), reason: 'a symlink; not followed' },
        { path: `${nativeTeamSkillDir(TEAM_SKILL)}/.git`, reason: 'a .git folder or file; not exported' },
        { path: `${react}/vendor/lib/.git`, reason: 'a .git folder or file; not exported' },
        { path: charterPath('hockney'), reason: 'not UTF-8 text; not exported (a .squad file would garble it)' },
      ]),
    );
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(document.agents.fenster.skills.linked).toBeUndefined();
    expect(document.agents.fenster.skills[REACT_SKILL].files['vendor/lib/index.js']).toBe('export {};\n');
    expect(document.agents.hockney.charter).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).not.toContain('\uFFFD');
  });

  it('lists the changed and added files of built-in skills, which stay behind with them', async () => {
    const source = await sourceSquad();
    // A member-facing built-in (in .github/skills/) and a coordinator-only one (in .ai-team/skills/).
    const builtin = nativeTeamSkillDir('squad-code-review');
    const procedure = aiTeamSkillDir('squad-scribe');
    fs.appendFileSync(path.join(source, builtin, SKILL_FILE), '\n- Our own rule: review migrations twice.\n');
    fs.appendFileSync(path.join(source, procedure, SKILL_FILE), '\n- Log in English.\n');
    writeFiles(source, { [`${builtin}/references/our-checklist.md`]: '# Checklist\n' });
    const file = path.join(tempDir(), 'x.squad');
    const data = await exportTo(source, file);
    const left = data.skipped.filter((skip) => skip.path.includes('/squad-'));
    const changed = 'changed in a built-in skill; built-in skills do not travel (the target installs its own): copy the change into a skill of your own to take it along';
    expect(left).toEqual([
      { path: `${procedure}/${SKILL_FILE}`, reason: changed },
      { path: `${builtin}/${SKILL_FILE}`, reason: changed },
      {
        path: `${builtin}/references/our-checklist.md`,
        reason: 'added to a built-in skill; built-in skills do not travel (the target installs its own): copy the change into a skill of your own to take it along',
      },
    ]);
    // No built-in travels, wherever it lives.
    const document = JSON.parse(fs.readFileSync(file, 'utf8')) as { team_skills: Record<string, unknown> };
    expect(Object.keys(document.team_skills).filter((name) => name.startsWith('squad-'))).toEqual([]);
    expect(data.builtinSkills).toEqual(shippedBuiltinSkills());
    const text = await runCli(['export', '--out', path.join(tempDir(), 'y.squad')], { cwd: source });
    expect(text.stderr).toContain(`⚠ ${builtin}/${SKILL_FILE}: changed in a built-in skill; built-in skills do not travel`);
  });
});

describe('import into a repository that has a squad', () => {
  it('refuses without --force and writes nothing; with --force archives the old squad', async () => {
    const source = await sourceSquad();
    const file = await sourceExport();
    const target = await initSquad(['--yes', '--roles', 'Designer']);
    writeFiles(target, { [`${agentSkillDir('keaton', 'figma')}/SKILL.md`]: validSkill('figma') });
    const before = hashTree(target);
    const oldSquad = hashTree(path.join(target, '.ai-team'));

    const refused = await runCli(['import', file], { cwd: target });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^✗ this repository already has a squad \(1 member, 1 learned skill\) — pass --force/);
    expect(hashTree(target)).toBe(before);

    const dry = await runCli(['import', file, '--force', '--dry-run'], { cwd: target });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Would archive the previous squad (1 member, 1 learned skill)');
    expect(dry.stdout).toContain('Dry run: nothing was written.');
    expect(hashTree(target)).toBe(before);

    const forced = await importInto(target, file, '--force');
    expect(forced.replaced?.archive).toMatch(/^\.ai-team-archive-\d{4}-\d{2}-\d{2}T/);
    expect(hashTree(path.join(target, forced.replaced!.archive))).toBe(oldSquad);
    expect(skillTreeHash(target, agentSkillDir('fenster', REACT_SKILL))).toBe(skillTreeHash(source, agentSkillDir('fenster', REACT_SKILL)));
    expect(fs.existsSync(path.join(target, agentSkillDir('keaton', 'figma')))).toBe(false);
    expect(debris(target)).toEqual([forced.replaced!.archive]);
  });

  it('replaces an infrastructure-only squad without --force, archiving it', async () => {
    const file = await sourceExport();
    const target = tempRepo();
    expect((await runCli(['init', '--yes', '--no-team'], { cwd: target })).code).toBe(0);
    const data = await importInto(target, file);
    expect(data.replaced).toMatchObject({ members: 0, learnedSkills: 0 });
    expect(data.created).toEqual([]);
    expect(parseRoster(read(target, squadPaths.team)).map((m) => m.name)).toEqual(['keaton', 'fenster', 'hockney', 'scribe']);
  });
});

describe('import of an original Squad export (format 1.0)', () => {
  it('restores the roster from the casting registry and charters, splits histories, imports skills', async () => {
    const legacy = {
      version: '1.0',
      exported_at: '2025-01-01T00:00:00.000Z',
      squad_version: '0.4.1',
      casting: {
        registry: {
          agents: {
            ripley: { persistent_name: 'Ripley', universe: 'Alien', status: 'active' },
            dallas: { persistent_name: 'Dallas', universe: 'Alien', status: 'active' },
          },
        },
        history: { universe_usage_history: [{ universe: 'Alien' }] },
      },
      agents: {
        ripley: {
          charter: '# Ripley — Lead\n\n## Identity\n\n- **Name:** Ripley\n- **Role:** Lead\n',
          history: '# Project Context\n\n## Learnings\n\n- The build uses pnpm.\n\n## Portable Knowledge\n\n- The owner wants tests first.\n',
        },
        dallas: { charter: '# Dallas — Frontend Dev\n\nBuilds the UI.\n', history: 'Joined the team.\n' },
        scribe: { charter: '# Scribe\n' },
      },
      skills: [validSkill('testing-patterns', 'Testing patterns. Use when writing tests.'), validSkill('tailwind', 'Tailwind rules. Use when styling.')],
    };
    const file = path.join(tempDir(), 'squad-export.json');
    fs.writeFileSync(file, JSON.stringify(legacy, null, 2));
    const target = tempRepo();
    const data = await importInto(target, file);
    expect(data.format).toBe('1.0');
    expect(data.universe).toBe('Alien');
    expect(data.agents.map((a) => `${a.displayName} (${a.role})`)).toEqual(['Ripley (Lead)', 'Dallas (Frontend Dev)']);
    const roster = parseRoster(read(target, squadPaths.team));
    expect(roster.map((m) => `${m.displayName}|${m.role}`)).toEqual(['Ripley|Lead', 'Dallas|Frontend Dev', 'Scribe|Session Logger']);
    expect(read(target, squadPaths.routing)).toContain('Ripley');
    expect(read(target, charterPath('ripley'))).toBe(legacy.agents.ripley.charter);
    const history = read(target, historyPath('ripley'));
    expect(history).toMatch(/^📌 Imported from "squad-export"/);
    expect(history).toContain('## Portable Knowledge\n\n- The owner wants tests first.\n');
    expect(history).toContain('## Project Learnings (from squad-export)\n\n### Learnings\n\n- The build uses pnpm.');
    expect(data.skills.map((s) => `${s.scope}:${s.name}`)).toEqual(['team:tailwind', 'team:testing-patterns']);
    expect(read(target, `${nativeTeamSkillDir('tailwind')}/${SKILL_FILE}`)).toBe(legacy.skills[1]);
    const registry = JSON.parse(read(target, squadPaths.castingRegistry));
    expect(registry.members.map((m: { folder: string; universe: string }) => `${m.folder}:${m.universe}`)).toEqual(['ripley:Alien', 'dallas:Alien']);
    expect(registry.agents.ripley.persistent_name).toBe('Ripley');
    expect(JSON.parse(read(target, squadPaths.castingPolicy)).universe).toBe('Alien');
    // hire keeps working on the imported squad.
    const hired = await runCli(['hire', 'Tester', '--json'], { cwd: target });
    expect(hired.code, hired.stderr).toBe(0);
    expect(hired.data<{ universe: string }>().universe).toBe('Alien');
  });
});

describe('import of a Squad 1.0 export whose skill names break the name rules', () => {
  it('normalises such a name, leaves out one it cannot normalise, and imports the rest', async () => {
    const { target, result } = await importDocument({ version: '1.0', agents: {}, skills: [validSkill('api-errors'), validSkill('Api Errors Two'), validSkill('CON')] });
    expect(result.stdout).toContain('✓ Imported 2 learned skills (api-errors, api-errors-two)');
    expect(result.stderr).toContain(
      '⚠ Renamed Api Errors Two → api-errors-two (team): skill name "Api Errors Two" must be lowercase (the original Squad did not check skill names)',
    );
    expect(result.stdout).toContain('Skipped CON (team): skill name "CON" must be lowercase and cannot be normalised: its normalised name "con" is a device name Windows reserves');
    expect(parseSkill(read(target, `${nativeTeamSkillDir('api-errors-two')}/${SKILL_FILE}`)).frontmatter.name).toBe('api-errors-two');
    expect((await runCli(['skills', 'validate'], { cwd: target })).code).toBe(0);
  });
});

describe('skills named like built-ins', () => {
  it('a learned squad-* skill this package does not ship travels and is imported, even with author "squad"', async () => {
    const source = await sourceSquad();
    writeFiles(source, { [`${aiTeamSkillDir('squad-mine')}/SKILL.md`]: validSkill('squad-mine', 'Mine. Use when needed.', 'metadata:\n  author: squad') });
    const file = path.join(tempDir(), 'team.squad');
    expect((await exportTo(source, file)).skills.map((s) => s.name)).toContain('squad-mine');
    const target = tempRepo();
    const imported = await importInto(target, file);
    expect(imported.skills.map((s) => s.name)).toContain('squad-mine');
    expect(imported.skipped).toEqual([]);
    expect(read(target, `${nativeTeamSkillDir('squad-mine')}/${SKILL_FILE}`)).toBe(read(source, `${aiTeamSkillDir('squad-mine')}/${SKILL_FILE}`));
  });

  it('renames learned skills to {name}-imported with their frontmatter name, and skips built-ins in the file', async () => {
    const file = await sourceExport();
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    const learned = (name: string, extra = '') => ({
      skill_md: `\uFEFF${validSkill(name, `My own ${name}. Use when needed.`, extra).replace(/\n/g, '\r\n')}`,
      references: { 'a.md': 'A' },
    });
    document.agents.fenster.skills['squad-git-workflow'] = learned('squad-git-workflow');
    document.team_skills['squad-code-review'] = learned('squad-code-review', 'metadata:\n  author: hockney');
    document.team_skills['squad-code-review-imported'] = learned('squad-code-review-imported');
    document.team_skills['squad-scribe'] = { skill_md: validSkill('squad-scribe', 'Built-in.', 'metadata:\n  author: squad\n  version: "0.9"') };
    const { target, result } = await importDocument(document);
    expect(result.stderr).toContain('⚠ Renamed squad-git-workflow → squad-git-workflow-imported (fenster): a built-in skill has this name');
    expect(result.stderr).toContain('⚠ Renamed squad-code-review → squad-code-review-imported-2 (team): a built-in skill has this name');
    expect(result.stdout).toContain('Skipped squad-scribe (team): built-in skill: this repository gets its own version');

    const renamed = agentSkillDir('fenster', 'squad-git-workflow-imported');
    const text = read(target, `${renamed}/${SKILL_FILE}`);
    expect(text.startsWith('\uFEFF---\r\nname: squad-git-workflow-imported\r\n')).toBe(true);
    const parsed = parseSkill(text);
    expect(validateSkill({ ...parsed, dirName: 'squad-git-workflow-imported' }).errors).toEqual([]);
    expect(read(target, `${renamed}/references/a.md`)).toBe('A');
    const second = nativeTeamSkillDir('squad-code-review-imported-2');
    expect(parseSkill(read(target, `${second}/${SKILL_FILE}`)).frontmatter.name).toBe('squad-code-review-imported-2');
    // The built-ins themselves are this package's, untouched.
    const shipped = fs.readFileSync(path.resolve('templates/skills/squad-scribe/SKILL.md'), 'utf8');
    expect(read(target, `${aiTeamSkillDir('squad-scribe')}/${SKILL_FILE}`)).toBe(shipped);
    expect(read(target, `${nativeTeamSkillDir('squad-git-workflow')}/${SKILL_FILE}`)).toBe(fs.readFileSync(path.resolve('templates/skills/squad-git-workflow/SKILL.md'), 'utf8'));
    const validate = await runCli(['skills', 'validate'], { cwd: target });
    expect(validate.code, validate.stdout).toBe(0);
  });
});

/** Run a failing import and check: exit 1, one ✗ line naming the problem, nothing written. */
async function expectRejected(document: unknown, pattern: RegExp, options: { raw?: string | Buffer; setup?: (root: string) => void } = {}): Promise<void> {
  const dir = tempDir();
  const file = path.join(dir, 'bad.squad');
  fs.writeFileSync(file, options.raw ?? JSON.stringify(document));
  const target = tempRepo();
  options.setup?.(target);
  const before = hashTree(target);
  const result = await runCli(['import', file], { cwd: target });
  expect(result.code, result.stdout).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^✗ /);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(hashTree(target)).toBe(before);
}

function minimal(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    squad_format_version: '1.1',
    exported_at: '2025-01-01T00:00:00.000Z',
    agents: { fenster: { charter: '# Fenster\n', skills: { react: { skill_md: validSkill('react'), references: {} } } } },
    ...extra,
  };
}

function withReference(relPath: string): Record<string, unknown> {
  return minimal({ agents: { fenster: { skills: { react: { skill_md: validSkill('react'), references: { [relPath]: 'x' } } } } } });
}

describe('import refuses bad input with one line naming the entry, and writes nothing', () => {
  it('not JSON, truncated JSON, not UTF-8', async () => {
    await expectRejected(undefined, /^✗ invalid \.squad file: not valid JSON \(/, { raw: 'hello, this is not json' });
    const whole = JSON.stringify(minimal());
    await expectRejected(undefined, /^✗ invalid \.squad file: not valid JSON, or cut short \(/, { raw: whole.slice(0, whole.length / 2) });
    await expectRejected(undefined, /not UTF-8 text/, { raw: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    await expectRejected(undefined, /the document must be a JSON object, not a list/, { raw: '[1, 2]' });
  });

  it('a crafted key cannot repaint the terminal or fake a second line', async () => {
    const key = 'x\u001b[32m\n✓ imported, all good\u009b';
    const document = minimal({ agents: { fenster: { skills: { react: { skill_md: validSkill('react'), references: { 'a.md': { content: 'x', [key]: 1 } } } } } } });
    await expectRejected(document, /unexpected field "x\\u001b\[32m ✓ imported, all good\\u009b"/);
  });

  it('unknown or missing format version', async () => {
    await expectRejected(minimal({ squad_format_version: '2.0' }), /squad_format_version: unknown format version "2\.0"/);
    await expectRejected(minimal({ squad_format_version: 1.1 }), /squad_format_version: unknown format version 1\.1/);
    const { squad_format_version: _, ...none } = minimal();
    await expectRejected(none, /no format version \(expected "squad_format_version": "1\.1"\)/);
    await expectRejected({ version: '0.9', agents: {} }, /^✗ invalid \.squad file: version: unknown format version "0\.9"/);
  });

  it('wrong types', async () => {
    await expectRejected(minimal({ agents: [] }), /invalid \.squad file: agents: must be an object, not a list/);
    await expectRejected(minimal({ agents: { fenster: { charter: 42 } } }), /agents\.fenster\.charter: must be a string, not a number/);
    await expectRejected(minimal({ agents: { fenster: { skills: { react: { skill_md: null } } } } }), /agents\.fenster\.skills\.react\.skill_md: must be a string, not null/);
    await expectRejected(withReferenceValue({ content: 'x', encoding: 'hex' }), /references\["a\.md"\]\.encoding: must be "utf8" or "base64"/);
    await expectRejected(withReferenceValue({ content: 'x', mode: '777' }), /references\["a\.md"\]\.mode: must be "644" or "755"/);
    await expectRejected(withReferenceValue({ content: '!!!', encoding: 'base64' }), /references\["a\.md"\]\.content: is not valid base64/);
    await expectRejected(withReferenceValue(12), /references\["a\.md"\]: must be a text string or an object/);
    await expectRejected(minimal({ team: { team_md: ['x'] } }), /team\.team_md: must be a string, not a list/);
  });

  it('agent and skill names that break the rules, duplicate keys, and files that are the same after normalisation', async () => {
    await expectRejected(minimal({ agents: { 'Bad Name': {} } }), /agents\["Bad Name"\]: agent name "Bad Name" must be lowercase/);
    await expectRejected(
      minimal({ agents: { fenster: { skills: { '-react': { skill_md: 'x' } } } } }),
      /agents\.fenster\.skills\["-react"\]: skill name "-react" must not start or end with a hyphen/,
    );
    await expectRejected(minimal({ team_skills: { 'a--b': { skill_md: 'x' } } }), /team_skills\.a--b: skill name "a--b" must not contain consecutive hyphens/);
    await expectRejected(minimal({ agents: { fenster: {}, Fenster: {} } }), /agents\.Fenster: agent name "Fenster" must be lowercase/);
    await expectRejected(minimal({ team_skills: { 'caf\u00e9': { skill_md: 'x' } } }), /team_skills\["caf\u00e9"\]: skill name "caf\u00e9" may only contain lowercase letters/);
    await expectRejected(minimal({ agents: { aux: {} } }), /agents\.aux: agent name "aux" is a device name Windows reserves/);
    const twice = JSON.stringify(minimal()).replace('"fenster":{', '"fenster":{"charter":"# First\\n",');
    await expectRejected(undefined, /^✗ invalid \.squad file: agents\.fenster: the key "charter" appears twice/, { raw: twice });
    await expectRejected(
      minimal({ team_skills: { api: { skill_md: 'x', references: { 'Guide.md': 'a' }, files: { 'references/guide.md': 'b' } } } }),
      /team_skills\.api\.files\["references\/guide\.md"\]: the same file as team_skills\.api\.references\["Guide\.md"\]/,
    );
    await expectRejected(
      minimal({ team_skills: { api: { skill_md: 'x', references: { a: 'file', 'a/b.md': 'nested' } } } }),
      /team_skills\.api\.references\["a\/b\.md"\]: its folder "references\/a" is also a file/,
    );
    await expectRejected({ version: '1.0', agents: {}, skills: [validSkill('same'), validSkill('same')] }, /skills\[1\]: duplicate skill name "same"/);
  });

  it('file paths that are absolute, contain .., backslashes, NUL or a drive letter', async () => {
    await expectRejected(withReference('/etc/passwd'), /references\["\/etc\/passwd"\]: the path is absolute/);
    await expectRejected(withReference('../x'), /^✗ invalid \.squad file: agents\.fenster\.skills\.react\.references\["\.\.\/x"\]: the path contains "\.\."/);
    await expectRejected(withReference('a/../../x'), /the path contains "\.\."/);
    await expectRejected(withReference('a\\b'), /references\["a\\\\b"\]: the path contains a backslash/);
    await expectRejected(withReference('a\u0000b'), /references\["a\\u0000b"\]: the path contains a NUL byte/);
    await expectRejected(withReference('C:/Windows/x'), /the path is absolute/);
    await expectRejected(withReference('docs/C:/x'), /references\["docs\/C:\/x"\]: the path contains a drive letter/);
    await expectRejected(withReference('a:b'), /references\["a:b"\]: the path is not portable: ":" is a character Windows does not allow in file names/);
    await expectRejected(withReference('.git/config'), /the path contains a \.git folder/);
  });

  it('file paths Windows cannot hold: a stream name, reserved characters, device names, a trailing dot or space', async () => {
    await expectRejected(withReference('notes.md:evil'), /references\["notes\.md:evil"\]: the path is not portable: ":" is a character Windows does not allow/);
    await expectRejected(withReference('what?.md'), /"\?" is a character Windows does not allow/);
    await expectRejected(withReference('a|b'), /"\|" is a character Windows does not allow/);
    await expectRejected(withReference('CON'), /references\["CON"\]: the path is not portable: "CON" is a device name Windows reserves/);
    await expectRejected(withReference('deep/aux.txt'), /"aux\.txt" is a device name Windows reserves/);
    await expectRejected(withReference('a.md.'), /"a\.md\." ends with a dot or a space/);
    await expectRejected(withReference('dir /x.md'), /"dir " ends with a dot or a space/);
  });

  it('control characters in a one-line field (a terminal escape, a forged line), naming the entry', async () => {
    const injected = 'X\u001b[31mRED\u001b[0m\nFAKE: \u2713 all good';
    await expectRejected(minimal({ source: { project: injected } }), /^✗ invalid \.squad file: source\.project: contains a control character \(U\+001B\)/);
    await expectRejected(minimal({ casting: { policy: { universe: `The Usual Suspects\u009b2J` } } }), /casting\.policy\.universe: contains a control character \(U\+009B\)/);
    const roster = '# Team\n\n| Name | Role | Charter | Status |\n|---|---|---|---|\n| Fen\u001b[2Jster | Dev | `.ai-team/agents/fenster/charter.md` | ✅ Active |\n';
    await expectRejected(minimal({ team: { team_md: roster } }), /team\.team_md: the roster name of fenster contains a control character \(U\+001B\)/);
    await expectRejected(
      minimal({ agents: { fenster: { charter: '# Fen\u0007ster — Lead\n' } } }),
      /agents\.fenster\.charter: the name of fenster contains a control character \(U\+0007\)/,
    );
  });

  it('casting files create-squad could not use', async () => {
    await expectRejected(minimal({ casting: { policy: { universe: 42 } } }), /^✗ invalid \.squad file: casting\.policy: not a valid casting policy: "universe" is not a string/);
    await expectRejected(minimal({ casting: { registry: { members: 'keaton' } } }), /casting\.registry: not a valid casting registry: "members" is not a list/);
  });

  it('something that is not a regular file, without reading it', async () => {
    expect(fs.existsSync('/dev/zero')).toBe(true);
    const target = tempRepo();
    const result = await runCli(['import', '/dev/zero'], { cwd: target });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('✗ /dev/zero is not a regular file — give the path of a .squad file ("create-squad export" writes one)');
    expect(listFiles(target)).toEqual([]);
  });

  it('a file over the size limit, deeply nested JSON', async () => {
    const big = 'x'.repeat(SQUAD_LIMITS.fileBytes + 1);
    await expectRejected(withReferenceValue(big), /references\["a\.md"\]: the file is 8 MB; the limit is 8 MB per file/);
    await expectRejected(undefined, /the JSON nests deeper than 64 levels/, {
      raw: `{"squad_format_version":"1.1","agents":{},"casting":{"policy":${'['.repeat(100000)}${']'.repeat(100000)}}}`,
    });
  });

  it('a target whose squad folders are symlinks, or lead outside the repository', async () => {
    const outside = tempDir();
    const document = minimal();
    await expectRejected(document, /^✗ \.ai-team is a symlink; import never writes through symlinks/, { setup: (root) => fs.symlinkSync(outside, path.join(root, '.ai-team')) });
    await expectRejected(document, /^✗ \.ai-team-templates is a symlink/, { setup: (root) => fs.symlinkSync(outside, path.join(root, '.ai-team-templates')) });
    await expectRejected(document, /^✗ refusing to write \.github\/agents\/squad\.agent\.md: \.github\/agents is a symlink that leads outside the repository/, {
      setup: (root) => {
        fs.mkdirSync(path.join(root, '.github'));
        fs.symlinkSync(outside, path.join(root, '.github/agents'));
      },
    });
    expect(fs.readdirSync(outside)).toEqual([]);
    await expectRejected(document, /^✗ cannot create .*\.github\/agents: .*\.github is a file, not a folder/, {
      setup: (root) => fs.writeFileSync(path.join(root, '.github'), 'not a folder'),
    });
  });
});

function withReferenceValue(value: unknown): Record<string, unknown> {
  return minimal({ agents: { fenster: { skills: { react: { skill_md: validSkill('react'), references: { 'a.md': value } } } } } });
}

/**
 * The write that swaps the new squad in: the staged files come first (`files` of them and the
 * marker), then, with a squad in place, its move to the archive, then the rename.
 */
async function swapWrite(run: MatrixCase): Promise<number> {
  const dry = await runCli([...run.args, '--dry-run', '--json'], { cwd: await run.prepare() });
  expect(dry.code, dry.stderr).toBe(0);
  const data = dry.data<ImportJson>();
  return data.files + 1 + (data.replaced ? 1 : 0) + 1;
}

/**
 * Which writes of an import to kill after: every one with CREATE_SQUAD_MATRIX=full (.ci/run); else
 * around the swap (the archive, the rename), every other one of the last 14 and the last two (the
 * files outside .ai-team/, the team skills' moves, the members' agents, the marker) and, before the
 * swap, where the writes are all alike (staged files), the first and the one in the middle.
 */
function importKills(total: number, swap: number): number[] {
  const tail = (t: number) => Array.from({ length: 14 }, (_, i) => t - 13 + i).filter((k) => (t - k) % 2 === 0 || k >= t - 1);
  return matrixWrites(total, (t) => [1, Math.ceil(swap / 2), swap - 2, swap - 1, swap, swap + 1, ...tail(t)]);
}

describe('import interrupted', () => {
  /** Kill after the k-th write. */
  const crashAfter = (k: number) => ({ CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) });

  type ImportMatrix = { run: MatrixCase; clean: Awaited<ReturnType<typeof cleanRun>>; swap: number };
  type ForcedImport = ImportMatrix & { template: string };
  let forced: Promise<ForcedImport> | undefined;
  let fresh: Promise<ImportMatrix> | undefined;

  /** A matrix case with its clean run (its number of writes, the state it leaves) and its swap write. */
  async function importMatrix(run: MatrixCase): Promise<ImportMatrix> {
    return { run, clean: await cleanRun(run), swap: await swapWrite(run) };
  }

  /**
   * `import <file> --force` over a repository with its own squad (a Designer, a learned skill, a
   * README), and the clean run of it: made once for the tests below, each of which starts from
   * fresh copies.
   */
  function forcedImport(): Promise<ForcedImport> {
    forced ??= (async () => {
      const file = await sourceExport();
      const template = await initSquad(['--yes', '--roles', 'Designer']);
      writeFiles(template, { [`${agentSkillDir('keaton', 'figma')}/SKILL.md`]: validSkill('figma'), 'README.md': '# app\n' });
      const run: MatrixCase = {
        name: 'import --force',
        prepare: async () => {
          const root = tempRepo();
          fs.cpSync(template, root, { recursive: true });
          return root;
        },
        args: ['import', file, '--force'],
      };
      return { template, ...(await importMatrix(run)) };
    })();
    return forced;
  }

  /** `import <file>` into a fresh repository holding only a README, and its clean run: made once for the tests below. */
  function freshImport(): Promise<ImportMatrix> {
    fresh ??= (async () => {
      const file = await sourceExport();
      return importMatrix({
        name: 'import',
        prepare: async () => {
          const root = tempRepo();
          writeFiles(root, { 'README.md': '# app\n' });
          return root;
        },
        args: ['import', file],
      });
    })();
    return fresh;
  }

  /** What a forced import killed after write k left, and the repository after the same command (with --json) ran again. */
  type ForcedKill = { killed: CliResult; oldSquadWhole: boolean; readme: string; again: CliResult; root: string };
  const forcedKills = new Map<number, Promise<ForcedKill>>();

  /**
   * The forced import killed after write k, then run again: once per k for both tests below that
   * kill it (each asserts its own on the same runs).
   */
  function forcedKill(k: number): Promise<ForcedKill> {
    let outcome = forcedKills.get(k);
    if (outcome === undefined) {
      outcome = (async () => {
        const { template, run } = await forcedImport();
        const oldSquad = hashTree(path.join(template, '.ai-team'));
        const root = await run.prepare();
        const killed = await runCli(run.args, { cwd: root, env: crashAfter(k) });
        // The old squad is whole: still in place, or in its archive.
        const archives = debris(root).filter((name) => name.startsWith('.ai-team-archive-'));
        const oldSquadWhole = [path.join(root, '.ai-team'), ...archives.map((a) => path.join(root, a))].some((dir) => fs.existsSync(dir) && hashTree(dir) === oldSquad);
        const readme = read(root, 'README.md');
        const again = await runCli([...run.args, '--json'], { cwd: root });
        return { killed, oldSquadWhole, readme, again, root };
      })();
      forcedKills.set(k, outcome);
    }
    return outcome;
  }

  it('never loses the old squad, and a rerun (with --force) completes the job', async () => {
    const source = await sourceSquad();
    const reactDir = agentSkillDir('fenster', REACT_SKILL);
    const expectedSkill = skillTreeHash(source, reactDir);

    // A repository with its own squad, replaced with --force.
    const { template, clean, swap } = await forcedImport();
    const oldSquad = hashTree(path.join(template, '.ai-team'));
    const total = clean.writes;
    expect(total).toBeGreaterThan(20);
    // The old squad moved to its archive (swap - 1), the new one renamed into place (swap).
    const ks = [...new Set([1, Math.floor(total / 2), swap - 1, swap, total - 2, total - 1, total])].filter((k) => k >= 1);
    for (const k of ks) {
      const { killed, oldSquadWhole, readme, again, root } = await forcedKill(k);
      expect(killed.code, `k=${k}`).not.toBe(0);
      expect(oldSquadWhole, `k=${k}`).toBe(true);
      expect(readme).toBe('# app\n');
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(skillTreeHash(root, reactDir), `k=${k}`).toBe(expectedSkill);
      expect(parseRoster(read(root, squadPaths.team)).map((m) => m.name)).toEqual(['keaton', 'fenster', 'hockney', 'scribe']);
      const archived = debris(root).filter((name) => name.startsWith('.ai-team-archive-'));
      expect(
        archived.some((a) => hashTree(path.join(root, a)) === oldSquad),
        `k=${k}`,
      ).toBe(true);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  });

  it('into a fresh repository: killed after any write, the same command run again ends in the squad a clean run leaves', async () => {
    const { run, clean, swap } = await freshImport();
    expect(clean.writes).toBeGreaterThan(20);
    for (const k of importKills(clean.writes, swap)) {
      expect(await killAndRerun(run, k, clean.writes, clean.state), `k=${k} of ${clean.writes}`).toEqual({ lost: [], debris: [], different: [] });
    }
  });

  it('with --force, killed after its swap: the same command run again finishes it, never archiving the new squad or leaving a skill in two places', async () => {
    const { clean, swap } = await forcedImport();
    // After its last write the import is whole: run again with --force, it would replace it, as --force says.
    for (const k of importKills(clean.writes, swap).filter((k) => k < clean.writes)) {
      const { killed, again, root } = await forcedKill(k);
      expect(killed.code, `k=${k}`).toBe(-1);
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(compareWithClean(root, clean.state), `k=${k} of ${clean.writes}`).toEqual({ lost: [], debris: [], different: [] });
      // One archive (the clean run's state has it, holding the old squad); the team skill in one place.
      expect(
        debris(root).filter((name) => name.startsWith('.ai-team-archive-')),
        `k=${k}`,
      ).toHaveLength(1);
      expect(fs.existsSync(path.join(root, aiTeamSkillDir(TEAM_SKILL))), `k=${k}`).toBe(false);
      expect(fs.existsSync(path.join(root, nativeTeamSkillDir(TEAM_SKILL))), `k=${k}`).toBe(true);
    }
  });

  it('a rerun after its swap says it finished the interrupted import; a dry run says it would, writing nothing', async () => {
    const { run, clean } = await freshImport();
    const file = run.args[1]!;
    const root = await run.prepare();
    expect((await runCli(run.args, { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(clean.writes - 3) } })).code).toBe(-1);
    expect(fs.existsSync(path.join(root, IMPORT_MARKER_PATH))).toBe(true);
    const unfinished = async () =>
      (await runCli(['doctor', '--json'], { cwd: root })).data<{ findings: { code: string; fix: string }[] }>().findings.filter((f) => f.code === 'import-unfinished');
    expect(await unfinished()).toEqual([expect.objectContaining({ fix: expect.stringMatching(/^run the same "create-squad import <file>" again/) })]);
    const before = hashTree(root);
    const dry = await runCli([...run.args, '--dry-run', '--json'], { cwd: root });
    expect(dry.data<ImportJson>().notes).toContain('would finish the import of this file that was interrupted after its new .ai-team/ was in place');
    expect(hashTree(root)).toBe(before);
    // Another .squad file is another import: the squad in place is refused as any squad is.
    const other = path.join(tempDir(), 'other.squad');
    fs.writeFileSync(other, `${fs.readFileSync(file, 'utf8').trimEnd()}\n\n`);
    expect((await runCli(['import', other], { cwd: root })).stderr).toMatch(/^✗ this repository already has a squad/);
    const again = await runCli([...run.args, '--json'], { cwd: root });
    expect(again.data<ImportJson>().notes).toContain('finished the import of this file that was interrupted after its new .ai-team/ was in place');
    expect(fs.existsSync(path.join(root, IMPORT_MARKER_PATH))).toBe(false);
    expect(await unfinished()).toEqual([]);
  });
});

describe('import output', () => {
  it('every agent it reports exists afterwards: one the roster leaves out gets a folder, a charter and a history', async () => {
    const file = await sourceExport();
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    document.agents['scribe-x'] = {};
    const { target, result } = await importDocument(document);
    expect(result.stdout).toContain('Hockney (Tester), Scribe X');
    expect(result.stderr).toContain('⚠ scribe-x is not in the roster of .ai-team/team.md: add a row for Scribe X there');
    expect(fs.existsSync(path.join(target, charterPath('scribe-x')))).toBe(true);
    expect(fs.existsSync(path.join(target, historyPath('scribe-x')))).toBe(true);
    const prompt = await runCli(['prompt', 'scribe-x', '--task', 'write the notes'], { cwd: target });
    expect(prompt.code, prompt.stderr).toBe(0);
  });

  it('warns about squad-owned files that are dangling symlinks, which it leaves as they are', async () => {
    const file = await sourceExport();
    const target = tempRepo();
    const template = (await shippedOwnedFiles()).map((f) => f.path).find((rel) => rel.startsWith(`${TEMPLATES_COPY_DIR}/`))!;
    for (const rel of [COORDINATOR_PATH, template]) {
      fs.mkdirSync(path.dirname(path.join(target, rel)), { recursive: true });
      fs.symlinkSync('nowhere.md', path.join(target, rel));
    }
    const result = await runCli(['import', file], { cwd: target });
    expect(result.code, result.stderr).toBe(0);
    for (const rel of [COORDINATOR_PATH, template]) {
      expect(result.stderr).toContain(`⚠ ${rel} is a symlink`);
      expect(fs.lstatSync(path.join(target, rel)).isSymbolicLink()).toBe(true);
    }
  });

  it('reports agents, learned skills, built-ins and the next steps', async () => {
    const file = await sourceExport();
    const target = tempRepo();
    const result = await runCli(['import', file], { cwd: target });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('✓ Imported squad: 3 agents from The Usual Suspects: Keaton (Lead), Fenster (Core Dev), Hockney (Tester)');
    expect(lines[1]).toBe(`✓ Imported 2 learned skills (${REACT_SKILL}, ${TEAM_SKILL})`);
    expect(lines[2]).toMatch(/^✓ Built-in skills applied: squad-casting, /);
    expect(result.stdout).toContain(
      'Created outside .ai-team/: .github/agents/squad.agent.md, .github/hooks/squad.json, .github/skills/ (5 built-in skills), .ai-team-templates/ (10 files), .gitattributes (+5 lines)',
    );
    expect(result.stdout).toContain('.ai-team/team.md still describes "Dashboard"');
  });
});
