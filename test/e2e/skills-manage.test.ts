/**
 * skills add from a folder of several skills and from git repositories (local ones, through
 * file:// URLs: no network), skills update from the recorded source, skills remove into the backups.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { SkillsAddData } from '../../src/commands/skills-add.js';
import type { SkillsRemoveData } from '../../src/commands/skills-remove.js';
import type { SkillsUpdateData } from '../../src/commands/skills-update.js';
import type { ChangeSummary } from '../../src/core/base/plan.js';
import { findRecord, readSources, type SourceRecord } from '../../src/core/skills/skill-sources.js';
import { SKILL_LOCK_PATH, parseLockKey } from '../../src/core/skills/skill-lock.js';
import { observeWrites } from '../../src/core/fs/fs-safe.js';
import { cleanupTempDirs, hashTree, listFiles, runCli, runOk, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { sharedInitSquad as initSquad } from '../helpers/shared-init.js';
import { quickCommitAndPush, quickGitSource as gitSource } from '../helpers/git-fixture.js';
import { git } from '../helpers/git-source.js';
import { debrisLeft } from '../helpers/debris.js';
import { sampledWrites } from '../helpers/kill-matrix.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

const run = runOk;

async function squad(): Promise<string> {
  return initSquad(['--yes']);
}

/** A folder holding the skills api-style, sql-style and testing, each with a reference file. */
function collection(): string {
  const dir = path.join(tempDir('squad-collection-'), 'shared-skills');
  for (const name of ['api-style', 'sql-style', 'testing']) {
    writeFiles(dir, { [`${name}/SKILL.md`]: validSkill(name), [`${name}/references/notes.md`]: `# ${name}\n` });
  }
  writeFiles(dir, { 'README.md': '# Our skills\n' });
  return dir;
}

/** The lock's records, by the folder of each skill, without the hash of its files. */
function sources(root: string): Record<string, Omit<SourceRecord, 'hash'>> {
  const lock = readSources(root);
  return Object.fromEntries(
    Object.keys(lock.entries).map((key) => {
      const { name, agent } = parseLockKey(key);
      const folder = agent === undefined ? `.github/skills/${name}` : `.ai-team/agents/${agent}/skills/${name}`;
      const { hash: _hash, ...record } = findRecord(lock, folder)!;
      return [folder, record];
    }),
  );
}

describe('skills add from a folder of several skills', () => {
  it('asks which ones, then adds those named or all, recording where each came from', async () => {
    const root = await squad();
    const dir = collection();
    const before = hashTree(root);
    const ask = await runCli(['skills', 'add', dir], { cwd: root });
    expect(ask.code).toBe(2);
    expect(ask.stderr.trim()).toBe(`✗ ${dir} holds 3 skills: api-style, sql-style, testing — pick with --skill <name…>, or add them all with --all`);
    const unknown = await runCli(['skills', 'add', dir, '--skill', 'nope'], { cwd: root });
    expect(unknown.stderr.trim()).toBe(`✗ ${dir} has no skill named "nope" — it holds: api-style, sql-style, testing`);
    expect(hashTree(root)).toBe(before);

    const two = (await run(root, ['skills', 'add', dir, '--skill', 'sql-style', 'testing', '--json'])).data<SkillsAddData>();
    expect(two.skills.map((s) => [s.name, s.destination, s.unchanged])).toEqual([
      ['sql-style', '.github/skills/sql-style', false],
      ['testing', '.github/skills/testing', false],
    ]);
    expect(two.recorded).toBe(SKILL_LOCK_PATH);
    expect(hashTree(path.join(root, '.github/skills/testing'))).toBe(hashTree(path.join(dir, 'testing')));
    // A folder outside the repository is recorded as the absolute path it was added from.
    expect(sources(root)['.github/skills/sql-style']).toEqual({ source: path.join(dir, 'sql-style'), type: 'folder', path: path.join(dir, 'sql-style') });

    // All of them: the two already there, file for file, are left as they are.
    const all = await run(root, ['skills', 'add', dir, '--all', '--agent', 'fenster']);
    expect(all.stdout).toContain('Added skill "api-style" to Fenster\'s skills: .ai-team/agents/fenster/skills/api-style/');
    const team = (await run(root, ['skills', 'add', dir, '--all', '--force', '--json'])).data<SkillsAddData>();
    expect(team.skills.map((s) => [s.name, s.unchanged, s.backup])).toEqual([
      ['api-style', false, undefined],
      ['sql-style', true, undefined],
      ['testing', true, undefined],
    ]);
    expect(listFiles(root).filter((rel) => rel.startsWith('.ai-team/backups/'))).toEqual([]);
  });

  it('finds the skills in a repository-like folder: skills/ or .github/skills/', async () => {
    const root = await squad();
    const dir = tempDir('squad-repo-like-');
    writeFiles(dir, { 'README.md': '# x\n', 'skills/pdf/SKILL.md': validSkill('pdf'), '.github/skills/docx/SKILL.md': validSkill('docx') });
    const added = (await run(root, ['skills', 'add', dir, '--all', '--json'])).data<SkillsAddData>();
    expect(added.skills.map((s) => s.name)).toEqual(['pdf', 'docx']);
    const one = (await run(root, ['skills', 'add', dir, '--path', 'skills', '--agent', 'keaton', '--json'])).data<SkillsAddData>();
    expect(one.skills.map((s) => s.destination)).toEqual(['.ai-team/agents/keaton/skills/pdf']);
  });

  it('validates every skill before writing any', async () => {
    const root = await squad();
    const dir = collection();
    writeFiles(dir, { 'Broken/SKILL.md': validSkill('Broken') });
    const before = hashTree(root);
    const result = await runCli(['skills', 'add', dir, '--all'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(new RegExp(`^✗ ${dir}/Broken is not a valid skill: name "Broken" must be lowercase`));
    expect(hashTree(root)).toBe(before);
  });

  // A few of the writes in npm test (the first, the middle, the last two), every one of them with
  // CREATE_SQUAD_MATRIX=full (.ci/run).
  it('ends with every skill and the record after a kill after any write', async () => {
    const dir = collection();
    const reference = await squad();
    // The uninterrupted run counts its writes: a kill after any of them stops the command.
    let total = 0;
    observeWrites((count) => {
      total = count;
    });
    try {
      await run(reference, ['skills', 'add', dir, '--all']);
    } finally {
      observeWrites(undefined);
    }
    const expected = hashTree(path.join(reference, '.github/skills'));
    expect(total).toBe(10); // three skills of two files, each swapped in, then the record
    // Asked to stop after a write it never makes, the command runs to its end.
    expect((await runCli(['skills', 'add', dir, '--all'], { cwd: await squad(), env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(total + 1) } })).code).toBe(0);
    for (const k of sampledWrites(total)) {
      const root = await squad();
      expect((await runCli(['skills', 'add', dir, '--all'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } })).code).toBe(-1);
      const again = await runCli(['skills', 'add', dir, '--all'], { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(hashTree(path.join(root, '.github/skills')), `k=${k}`).toBe(expected);
      expect(read(root, SKILL_LOCK_PATH), `k=${k}`).toBe(read(reference, SKILL_LOCK_PATH));
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  }, 180_000); // a kill after each write of a multi-skill install: slow on a loaded machine
});

describe('skills add --force over a team skill of a squad not yet upgraded', () => {
  /** The backups, whatever their time: each backed-up file's path below its timestamp, with its text. */
  function backups(root: string): string[] {
    return listFiles(root)
      .filter((rel) => rel.startsWith('.ai-team/backups/'))
      .map((rel) => `${rel.split('/').slice(3).join('/')}: ${read(root, rel)}`);
  }

  it('places the new skill, then moves the old copy to the backups; after a kill after any write the rerun ends the same', async () => {
    const dir = collection();
    const base = await squad();
    writeFiles(base, { '.ai-team/skills/api-style/SKILL.md': validSkill('api-style', 'Use when designing APIs (ours).') });
    const args = ['skills', 'add', dir, '--skill', 'api-style', '--force'];
    const reference = tempDir('squad-copy-');
    fs.cpSync(base, reference, { recursive: true });
    let total = 0;
    observeWrites((count) => {
      total = count;
    });
    try {
      await run(reference, args);
    } finally {
      observeWrites(undefined);
    }
    expect(total).toBe(5); // two files and the rename of the new skill, the old one's move, the record
    expect(fs.existsSync(path.join(reference, '.ai-team/skills/api-style'))).toBe(false);
    expect(backups(reference)).toEqual([`.ai-team/skills/api-style/SKILL.md: ${validSkill('api-style', 'Use when designing APIs (ours).')}`]);
    for (let k = 1; k <= total; k += 1) {
      const root = tempDir('squad-copy-');
      fs.cpSync(base, root, { recursive: true });
      expect((await runCli(args, { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } })).code, `k=${k}`).toBe(-1);
      const again = await runCli(args, { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(hashTree(path.join(root, '.github/skills')), `k=${k}`).toBe(hashTree(path.join(reference, '.github/skills')));
      expect(fs.existsSync(path.join(root, '.ai-team/skills/api-style')), `k=${k}`).toBe(false);
      expect(backups(root), `k=${k}`).toEqual(backups(reference));
      expect(read(root, SKILL_LOCK_PATH), `k=${k}`).toBe(read(reference, SKILL_LOCK_PATH));
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  });
});

// Each test works in squads and sources of its own, and none counts writes (the kill matrices above and
// in "skills update" do, and stay sequential): the tests run side by side, clones overlapping.
describe.concurrent('skills add from a git repository', () => {
  it('clones a file:// repository, shallow, and records the URL, the folder inside and the commit', async () => {
    const { url, work } = gitSource({
      'README.md': '# skills\n',
      'skills/pdf/SKILL.md': validSkill('pdf'),
      'skills/pdf/scripts/run.sh': '#!/bin/sh\n',
      'skills/docx/SKILL.md': validSkill('docx'),
    });
    const commit = git(work, 'rev-parse', 'HEAD');
    const root = await squad();
    const result = await run(root, ['skills', 'add', url, '--skill', 'pdf', '--json']);
    const data = result.data<SkillsAddData>();
    expect(data).toMatchObject({ name: 'pdf', destination: '.github/skills/pdf', files: ['SKILL.md', 'scripts/run.sh'], git: [] });
    expect(data.skills[0]!.source).toEqual({
      source: `${url} --path skills/pdf`,
      type: 'git',
      url,
      subpath: 'skills/pdf',
      commit,
      hash: expect.objectContaining({ computedHash: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    });
    const { hash: _hash, ...recorded } = data.skills[0]!.source;
    expect(sources(root)['.github/skills/pdf']).toEqual(recorded);
    expect(read(root, '.github/skills/pdf/SKILL.md')).toBe(validSkill('pdf'));
    expect(result.stderr).toBe('');
  });

  it('takes a branch (#ref or --ref) and a folder inside (--path), and a repository that is one skill', async () => {
    const source = gitSource({ 'SKILL.md': validSkill('release-notes'), 'references/format.md': '# Format\n' });
    const { url } = source;
    quickCommitAndPush(source, { 'SKILL.md': validSkill('release-notes', 'Use when writing release notes (beta).') }, 'beta');
    const root = await squad();
    const beta = (await run(root, ['skills', 'add', `${url}#beta`, '--json'])).data<SkillsAddData>();
    expect(beta).toMatchObject({ name: 'release-notes', files: ['SKILL.md', 'references/format.md'], git: [] });
    expect(read(root, '.github/skills/release-notes/SKILL.md')).toContain('(beta)');
    expect(beta.skills[0]!.source).toMatchObject({ source: `${url}#beta`, ref: 'beta', subpath: '' });
    const main = (await run(root, ['skills', 'add', url, '--ref', 'main', '--path', '.', '--agent', 'hockney', '--json'])).data<SkillsAddData>();
    expect(main.destination).toBe('.ai-team/agents/hockney/skills/release-notes');
    expect(read(root, `${main.destination}/SKILL.md`)).not.toContain('(beta)');
  });

  it('refuses what cannot be cloned or found, in one line, writing nothing', async () => {
    const root = await squad();
    const { url } = gitSource({ 'skills/pdf/SKILL.md': validSkill('pdf') });
    const before = hashTree(root);
    const missing = pathToFileURL(path.join(tempDir(), 'nothing.git')).href;
    const cases: [string[], RegExp][] = [
      [['skills', 'add', missing], new RegExp(`^✗ could not clone ${missing}: .+ — check the URL, the ref and your access`)],
      [['skills', 'add', `${url}#no-such-branch`], /^✗ could not clone .+: Remote branch no-such-branch not found/],
      [['skills', 'add', url, '--path', 'nope'], /^✗ file:.+ has no folder nope — /],
      [['skills', 'add', url, '--path', '../x'], /^✗ --path "\.\.\/x" climbs out of the source with "\.\." — give a folder inside the source/],
      [['skills', 'add', url], /^✗ file:.+ holds 1 skills|^✗ .+\.git holds no skill/],
    ];
    // The refusals side by side, each in a copy of the squad of its own (a writing command holds
    // the squad's lock): each writes nothing there.
    const refused = await Promise.all(
      cases.slice(0, 4).map(async ([args]) => {
        const copy = await squad();
        return { result: await runCli(args, { cwd: copy }), copy };
      }),
    );
    for (const [i, [args, message]] of cases.slice(0, 4).entries()) {
      const { result, copy } = refused[i]!;
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr.trim(), args.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(hashTree(copy), args.join(' ')).toBe(before);
    }
    expect(hashTree(root)).toBe(before);
    // One skill under skills/: no need to pick.
    expect((await run(root, ['skills', 'add', url, '--json'])).data<SkillsAddData>().name).toBe('pdf');
  });
});

describe('skills update', () => {
  it('fetches a folder source again, backing up the installed version with its local edits', async () => {
    const root = await squad();
    const dir = collection();
    await run(root, ['skills', 'add', dir, '--skill', 'testing']);
    const upToDate = await run(root, ['skills', 'update', 'testing']);
    expect(upToDate.stdout).toMatch(/^✓ Skill "testing" is up to date with .*shared-skills\/testing: nothing to write\n$/);

    fs.appendFileSync(path.join(root, '.github/skills/testing/SKILL.md'), '\nA local edit.\n');
    writeFiles(dir, { 'testing/SKILL.md': validSkill('testing', 'Use when writing tests (v2).') });
    const before = hashTree(root);
    expect((await run(root, ['skills', 'update', 'testing', '--dry-run'])).stdout).toContain('Would update skill "testing"');
    expect(hashTree(root)).toBe(before);
    const data = (await run(root, ['skills', 'update', 'testing', '--json'])).data<SkillsUpdateData>();
    expect(data).toMatchObject({ name: 'testing', scope: 'team', destination: '.github/skills/testing', unchanged: false });
    expect(read(root, `${data.backup}/SKILL.md`)).toContain('A local edit.');
    expect(read(root, '.github/skills/testing/SKILL.md')).toContain('(v2)');
  });

  it('fetches a git source again, at the new commit', async () => {
    const source = gitSource({ 'skills/pdf/SKILL.md': validSkill('pdf') });
    const { url, work } = source;
    const first = git(work, 'rev-parse', 'HEAD');
    const root = await squad();
    await run(root, ['skills', 'add', url, '--agent', 'fenster']);
    const second = quickCommitAndPush(source, { 'skills/pdf/SKILL.md': validSkill('pdf', 'Use when handling PDF files (v2).') });
    const data = (await run(root, ['skills', 'update', 'pdf', '--agent', 'fenster', '--json'])).data<SkillsUpdateData>();
    expect(data).toMatchObject({ destination: '.ai-team/agents/fenster/skills/pdf', from: first, to: second, unchanged: false });
    expect(sources(root)['.ai-team/agents/fenster/skills/pdf']).toMatchObject({ commit: second, source: `${url} --path skills/pdf` });
    expect(read(root, '.ai-team/agents/fenster/skills/pdf/SKILL.md')).toContain('(v2)');
    expect((await run(root, ['skills', 'update', 'pdf', '--agent', 'fenster', '--json'])).data<SkillsUpdateData>().unchanged).toBe(true);
  });

  it('refuses a skill with no recorded source, or one not installed, in one line', async () => {
    const root = await squad();
    writeFiles(root, { '.github/skills/by-hand/SKILL.md': validSkill('by-hand') });
    const before = hashTree(root);
    const none = await runCli(['skills', 'update', 'by-hand'], { cwd: root });
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toBe(
      '✗ no source is recorded for .github/skills/by-hand — it was added before create-squad recorded sources, or by hand: add it again with "create-squad skills add <source> --force"',
    );
    expect((await runCli(['skills', 'update', 'by-hnad'], { cwd: root })).stderr.trim()).toBe(
      '✗ no team skill named "by-hnad" — did you mean by-hand? (see "create-squad skills list")',
    );
    expect(hashTree(root)).toBe(before);
  });

  it('ends updated after a kill after any write', async () => {
    const dir = collection();
    const base = await squad();
    await run(base, ['skills', 'add', dir, '--skill', 'api-style']);
    writeFiles(dir, { 'api-style/SKILL.md': validSkill('api-style', 'Use when designing APIs (v2).'), 'api-style/references/more.md': '# more\n' });
    for (let k = 1; k <= 4; k += 1) {
      const root = tempDir('squad-copy-');
      fs.cpSync(base, root, { recursive: true });
      expect((await runCli(['skills', 'update', 'api-style'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } })).code, `k=${k}`).toBe(-1);
      const again = await runCli(['skills', 'update', 'api-style'], { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(hashTree(path.join(root, '.github/skills/api-style')), `k=${k}`).toBe(hashTree(path.join(dir, 'api-style')));
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  });
});

describe.concurrent('skills update from a recorded folder', () => {
  it('records a folder inside the repository relative to its root, so a copy of the repository updates from its own folder', async () => {
    const root = await squad();
    writeFiles(root, { 'vendor/skills/lint-rules/SKILL.md': validSkill('lint-rules') });
    await run(root, ['skills', 'add', 'vendor/skills/lint-rules']);
    expect(sources(root)['.github/skills/lint-rules']).toEqual({ source: 'vendor/skills/lint-rules', type: 'folder', path: 'vendor/skills/lint-rules' });

    // A clone elsewhere (or the squad exported to another machine): the original folder is gone.
    const copy = path.join(tempDir('squad-clone-'), 'repo');
    fs.cpSync(root, copy, { recursive: true });
    fs.rmSync(path.join(root, 'vendor'), { recursive: true });
    writeFiles(copy, { 'vendor/skills/lint-rules/SKILL.md': validSkill('lint-rules', 'Use when linting (v2).') });
    const data = (await run(copy, ['skills', 'update', 'lint-rules', '--json'])).data<SkillsUpdateData>();
    expect(data).toMatchObject({ destination: '.github/skills/lint-rules', unchanged: false, source: { source: 'vendor/skills/lint-rules', path: 'vendor/skills/lint-rules' } });
    expect(read(copy, '.github/skills/lint-rules/SKILL.md')).toContain('(v2)');
    expect(sources(copy)['.github/skills/lint-rules']).toEqual({ source: 'vendor/skills/lint-rules', type: 'folder', path: 'vendor/skills/lint-rules' });
  });

  it('keeps the relative record through an export and an import into another repository', async () => {
    const root = await squad();
    writeFiles(root, { 'vendor/skills/lint-rules/SKILL.md': validSkill('lint-rules') });
    await run(root, ['skills', 'add', 'vendor/skills/lint-rules', '--agent', 'fenster']);
    const file = path.join(tempDir('squad-export-'), 'team.squad');
    await run(root, ['export', '--out', file]);
    const other = tempDir('squad-other-');
    writeFiles(other, { 'vendor/skills/lint-rules/SKILL.md': validSkill('lint-rules', 'Use when linting (theirs).') });
    await run(other, ['import', file]);
    expect(sources(other)['.ai-team/agents/fenster/skills/lint-rules']).toEqual({ source: 'vendor/skills/lint-rules', type: 'folder', path: 'vendor/skills/lint-rules' });
    await run(other, ['skills', 'update', 'lint-rules', '--agent', 'fenster']);
    expect(read(other, '.ai-team/agents/fenster/skills/lint-rules/SKILL.md')).toContain('(theirs)');
  });

  it('refuses a recorded folder that is gone, naming it and the fix, writing nothing', async () => {
    const root = await squad();
    const outside = path.join(tempDir('squad-outside-'), 'pdf');
    writeFiles(outside, { 'SKILL.md': validSkill('pdf') });
    writeFiles(root, { 'vendor/docx/SKILL.md': validSkill('docx') });
    await run(root, ['skills', 'add', outside]);
    await run(root, ['skills', 'add', 'vendor/docx', '--agent', 'fenster']);
    fs.rmSync(outside, { recursive: true });
    fs.rmSync(path.join(root, 'vendor'), { recursive: true });
    const before = hashTree(root);

    const absolute = await runCli(['skills', 'update', 'pdf', '--json'], { cwd: root });
    expect(absolute.code).toBe(1);
    expect(JSON.parse(absolute.stdout).error).toEqual({
      code: 'not-found',
      message: `the recorded source of .github/skills/pdf, the folder ${outside}, does not exist`,
      hint: `it was outside the repository, so ${SKILL_LOCK_PATH} keeps its absolute path, which a move or another machine does not have: put the folder back there, or add the skill again from where it is now with "create-squad skills add <folder> --force"; nothing was written`,
      file: SKILL_LOCK_PATH,
    });
    const relative = await runCli(['skills', 'update', 'docx', '--agent', 'fenster'], { cwd: root });
    expect(relative.code).toBe(1);
    expect(relative.stderr.trim()).toBe(
      `✗ the recorded source of .ai-team/agents/fenster/skills/docx, the folder ${path.join(root, 'vendor', 'docx')}, does not exist — it is recorded relative to the repository root (vendor/docx): restore it there, or add the skill again from where it is now with "create-squad skills add <folder> --force"; nothing was written`,
    );
    expect(hashTree(root)).toBe(before);
  });
});

describe.concurrent('skills remove', () => {
  it('moves a team or agent skill whole into the backups', async () => {
    const root = await squad();
    const dir = collection();
    await run(root, ['skills', 'add', dir, '--skill', 'api-style']);
    await run(root, ['skills', 'add', dir, '--skill', 'sql-style', '--agent', 'fenster']);
    const installed = hashTree(path.join(root, '.github/skills/api-style'));
    const before = hashTree(root);
    const dry = await run(root, ['skills', 'remove', 'api-style', '--dry-run']);
    expect(dry.stdout).toMatch(
      /^✓ Would remove skill "api-style" from the team skills: \.github\/skills\/api-style\/\n {2}Would move it whole to \.ai-team\/backups\/[^/]+\/\.github\/skills\/api-style\/ /,
    );
    expect(hashTree(root)).toBe(before);

    const data = (await run(root, ['skills', 'remove', 'api-style', '--json'])).data<SkillsRemoveData>();
    expect(data).toMatchObject({ name: 'api-style', scope: 'team', destination: '.github/skills/api-style', dryRun: false });
    expect(fs.existsSync(path.join(root, '.github/skills/api-style'))).toBe(false);
    expect(hashTree(path.join(root, data.backup))).toBe(installed);
    const skills = (await run(root, ['skills', 'list', '--json'])).data<{ skills: { name: string }[] }>().skills.map((s) => s.name);
    expect(skills).not.toContain('api-style');

    const wrongScope = await runCli(['skills', 'remove', 'sql-style'], { cwd: root });
    expect(wrongScope.stderr.trim()).toBe('✗ no team skill named "sql-style" — it is fenster\'s: add --agent fenster');
    const agent = (await run(root, ['skills', 'remove', 'sql-style', '--agent', 'Fenster', '--json'])).data<SkillsRemoveData>();
    expect(agent).toMatchObject({ scope: 'agent', agent: 'fenster', destination: '.ai-team/agents/fenster/skills/sql-style' });
  });

  it('forgets the source record, so a later update never fetches the removed skill back', async () => {
    const root = await squad();
    const dir = collection();
    await run(root, ['skills', 'add', dir, '--skill', 'api-style', 'testing']);
    await run(root, ['skills', 'add', dir, '--skill', 'sql-style', '--agent', 'fenster']);
    const dry = await run(root, ['skills', 'remove', 'api-style', '--dry-run']);
    expect(dry.stdout).toContain(`  Would forget its source in ${SKILL_LOCK_PATH} ("skills update" will not bring it back; "skills add" records it again)\n`);
    expect(Object.keys(sources(root))).toContain('.github/skills/api-style');

    const text = await run(root, ['skills', 'remove', 'api-style']);
    expect(text.stdout).toContain(`  Forgot its source in ${SKILL_LOCK_PATH} ("skills update" will not bring it back; "skills add" records it again)\n`);
    expect(Object.keys(sources(root))).toEqual(['.ai-team/agents/fenster/skills/sql-style', '.github/skills/testing']);
    const agent = (await run(root, ['skills', 'remove', 'sql-style', '--agent', 'fenster', '--json'])).data<SkillsRemoveData>();
    expect(agent.sourceForgotten).toBe(true);
    expect(agent.changes.replaced).toContain(SKILL_LOCK_PATH);
    expect(Object.keys(sources(root))).toEqual(['.github/skills/testing']);

    // The source still holds the skill: update refuses to bring it back, and writes nothing.
    const before = hashTree(root);
    const update = await runCli(['skills', 'update', 'api-style'], { cwd: root });
    expect(update.code).toBe(1);
    expect(update.stderr.trim()).toBe('✗ no team skill named "api-style" — see "create-squad skills list"');
    expect(fs.existsSync(path.join(root, '.github/skills/api-style'))).toBe(false);
    expect(hashTree(root)).toBe(before);

    // A skill with no record (added by hand) is removed without touching the file.
    writeFiles(root, { '.github/skills/by-hand/SKILL.md': validSkill('by-hand') });
    const recorded = read(root, SKILL_LOCK_PATH);
    const byHand = (await run(root, ['skills', 'remove', 'by-hand', '--json'])).data<SkillsRemoveData>();
    expect(byHand.sourceForgotten).toBe(false);
    expect(byHand.changes.replaced).not.toContain(SKILL_LOCK_PATH);
    expect(read(root, SKILL_LOCK_PATH)).toBe(recorded);
  });

  it('refuses built-in skills, skills of other tools and unknown names, writing nothing', async () => {
    const root = await squad();
    writeFiles(root, { '.claude/skills/mine/SKILL.md': validSkill('mine') });
    const before = hashTree(root);
    const cases: [string[], number, string][] = [
      [
        ['skills', 'remove', 'squad-casting'],
        1,
        '✗ squad-casting is a built-in skill: it comes with create-squad, and upgrade puts it back — built-in skills are not removed or updated one by one; "create-squad upgrade" keeps them current',
      ],
      [
        ['skills', 'remove', 'mine'],
        1,
        '✗ .claude/skills/mine is kept for other tools: create-squad reads it and never writes there — change it there yourself (move it out of that folder to take it away)',
      ],
      [['skills', 'remove', 'nope'], 1, '✗ no team skill named "nope" — see "create-squad skills list"'],
      [['skills', 'remove', '../x'], 2, '✗ "../x" is not a skill name — give the name of the skill folder, e.g. api-design'],
      [['skills', 'remove', 'x', '--agent', 'nobody'], 1, '✗ no agent named "nobody" in this squad — agents: keaton, fenster, hockney, scribe'],
    ];
    for (const [args, code, message] of cases) {
      const result = await runCli(args, { cwd: root });
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr.trim(), args.join(' ')).toBe(message);
    }
    expect(hashTree(root)).toBe(before);
  });

  it('takes out a team skill of a squad not yet upgraded, from .ai-team/skills/', async () => {
    const root = await squad();
    writeFiles(root, { '.ai-team/skills/old-style/SKILL.md': validSkill('old-style') });
    const data = (await run(root, ['skills', 'remove', 'old-style', '--json'])).data<SkillsRemoveData>();
    expect(data.destination).toBe('.ai-team/skills/old-style');
    expect(read(root, `${data.backup}/SKILL.md`)).toBe(validSkill('old-style'));
  });
});

describe.concurrent('what skills add, update and remove say is what they do', () => {
  /** Backups are named by the time of the run: a dry run's and the real run's differ only there. */
  const stampless = (text: string) => text.replace(/\.ai-team\/backups\/[^/\s]+\//g, '.ai-team/backups/<time>/');
  type Report = { changes: ChangeSummary; commit: string[]; dryRun: boolean };

  /** Run `args` as a dry run, then for real (both --json), then for real in a copy as text; check they agree. */
  async function agree(root: string, args: string[], message: string): Promise<Report> {
    const copy = tempDir('squad-copy-');
    fs.cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
    const before = hashTree(root);
    const dry = (await run(root, [...args, '--dry-run', '--json'])).data<Report>();
    expect(hashTree(root)).toBe(before);
    const real = (await run(root, [...args, '--json'])).data<Report>();
    expect(dry.dryRun).toBe(true);
    expect(real.dryRun).toBe(false);
    expect(stampless(JSON.stringify(dry.changes))).toBe(stampless(JSON.stringify(real.changes)));
    expect(dry.commit).toEqual(real.commit);
    const text = stampless((await run(copy, args)).stdout);
    const named = [...real.changes.created, ...real.changes.replaced, ...real.changes.moved.flatMap((m) => [m.from, m.to]), ...real.changes.removed].map(stampless);
    for (const changed of named) expect(text, changed).toContain(changed);
    expect(text).toContain(`git add -A -- ${real.commit.join(' ')} && git commit -m "${message}"`);
    return real;
  }

  it('add, replacing one skill and changing the agents: the dry run, the --json changes, the text and the commit hint agree', async () => {
    const root = await squad();
    const dir = tempDir('squad-report-');
    writeFiles(dir, {
      'db-notes/SKILL.md': validSkill('db-notes', 'Use when working on databases.', 'metadata:\n  mcp-servers:\n    - name: postgres\n      reason: read the tables\n'),
      'api-style/SKILL.md': validSkill('api-style', 'Use when designing APIs (v2).'),
    });
    writeFiles(root, { '.github/skills/api-style/SKILL.md': validSkill('api-style') });
    const real = await agree(root, ['skills', 'add', dir, '--all', '--force'], 'chore(squad): add skills api-style, db-notes');
    expect(real.changes.created).toEqual(['.github/skills/api-style', '.github/skills/db-notes', SKILL_LOCK_PATH]);
    expect(real.changes.moved).toEqual([{ from: '.github/skills/api-style', to: expect.stringMatching(/^\.ai-team\/backups\/[^/]+\/\.github\/skills\/api-style$/) }]);
    expect(real.changes.replaced.length).toBeGreaterThan(0);
    expect(real.changes.replaced.every((p) => p.startsWith('.github/agents/'))).toBe(true);
    expect(real.commit).toEqual(['.ai-team', '.github/agents', '.github/skills', SKILL_LOCK_PATH]);

    // Again: nothing changes, and the run says so, with no commit hint.
    const again = await run(root, ['skills', 'add', dir, '--all']);
    expect(again.stdout).toBe(
      [
        '✓ Skill "api-style" is in the team skills already, file for file: .github/skills/api-style/ (nothing to write)',
        '✓ Skill "db-notes" is in the team skills already, file for file: .github/skills/db-notes/ (nothing to write)',
        '',
      ].join('\n'),
    );
    const data = (await run(root, ['skills', 'add', dir, '--all', '--json'])).data<Report>();
    expect(data.commit).toEqual([]);
    expect(data.changes).toEqual({ created: [], replaced: [], moved: [], backedUp: [], removed: [] });
  });

  it('update and remove of an agent skill: the same agreement', async () => {
    const root = await squad();
    const dir = collection();
    writeFiles(dir, { 'api-style/SKILL.md': validSkill('api-style', 'Use when designing APIs.', 'metadata:\n  mcp-servers:\n    - name: tracker\n      reason: file issues\n') });
    await run(root, ['skills', 'add', dir, '--skill', 'api-style', '--agent', 'fenster']);
    writeFiles(dir, { 'api-style/SKILL.md': validSkill('api-style', 'Use when designing APIs (v2).') });
    const updated = await agree(root, ['skills', 'update', 'api-style', '--agent', 'fenster'], 'chore(squad): update skill api-style');
    // The lock's entry takes the new files' hash.
    expect(updated.changes).toMatchObject({ created: ['.ai-team/agents/fenster/skills/api-style'], replaced: ['.github/agents/fenster.agent.md', SKILL_LOCK_PATH], removed: [] });
    expect(updated.changes.moved.map((m) => m.from)).toEqual(['.ai-team/agents/fenster/skills/api-style']);

    const removed = await agree(root, ['skills', 'remove', 'api-style', '--agent', 'fenster'], 'chore(squad): remove skill api-style');
    // The skill's source record is forgotten with it.
    expect(removed.changes).toMatchObject({ created: [], replaced: ['.github/agents/fenster.agent.md', SKILL_LOCK_PATH], removed: [] });
    expect(removed.changes.moved.map((m) => m.from)).toEqual(['.ai-team/agents/fenster/skills/api-style']);
  });
});
