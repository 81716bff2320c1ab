/**
 * skills add and update against hostile sources and a hostile record: a file swapped for a link
 * while it is copied, a recorded path inside a repository that climbs out of its clone, a path
 * through a link in the repository, a SKILL.md that is a link; and honest outcomes: a skill that
 * was installed while its record could not be written, a clone that could not be removed.
 * No network: local folders and local git repositories made here. Faults are injected by spying
 * on node:fs in-process (tests may run as root, where a read-only folder does not stop a write).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { SkillsAddData } from '../../src/commands/skills-add.js';
import { SCRATCH_PATTERN } from '../../src/core/fs/debris.js';
import { CLONE_PURPOSE, findRecord, readSources } from '../../src/core/skills/skill-sources.js';
import { SKILL_LOCK_PATH, lockKey } from '../../src/core/skills/skill-lock.js';
import { cleanupTempDirs, hashTree, listFiles, runCli, runOk, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { sharedInitSquad as initSquad } from '../helpers/shared-init.js';
import { debrisLeft } from '../helpers/debris.js';
import { quickCommitAndPush, quickGitSource } from '../helpers/git-fixture.js';

afterAll(cleanupTempDirs);
afterEach(() => {
  vi.restoreAllMocks();
});

const SECRET = 'PRIVATE-KEY: this line must never reach the repository';

/** A bare repository (file:// URL) holding `files`, and `links` (path → target) committed as symlinks. */
function gitSource(files: Record<string, string>, links: Record<string, string> = {}): string {
  return quickGitSource(files, links).url;
}

let plainSource: string | undefined;
/** One repository holding the valid skill pdf under skills/, made once for the tests that only read it. */
function pdfSource(): string {
  plainSource ??= gitSource({ 'skills/pdf/SKILL.md': validSkill('pdf') });
  return plainSource;
}

/** A folder outside every repository holding a valid skill named `name` and a file with the secret. */
function outsideSkill(name = 'pdf'): string {
  const dir = path.join(tempDir('squad-outside-'), name);
  writeFiles(dir, { 'SKILL.md': validSkill(name), 'secret.txt': `${SECRET}\n` });
  return dir;
}

/** Whether any file of the repository holds the secret. */
function secretInside(root: string): boolean {
  return listFiles(root).some((rel) => fs.lstatSync(path.join(root, rel)).isFile() && fs.readFileSync(path.join(root, rel), 'utf8').includes('PRIVATE-KEY'));
}

/** The lock's record of the skill at `destination`. */
function recordOf(root: string, destination: string) {
  return findRecord(readSources(root), destination);
}

/** Change fields of the lock's entry of the skill at `destination`, as a hand (or a hostile commit) would. */
function editRecord(root: string, destination: string, change: Record<string, unknown>): void {
  const file = JSON.parse(fs.readFileSync(path.join(root, SKILL_LOCK_PATH), 'utf8'));
  file.skills[lockKey(destination)] = { ...file.skills[lockKey(destination)], ...change };
  fs.writeFileSync(path.join(root, SKILL_LOCK_PATH), `${JSON.stringify(file, null, 2)}\n`);
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

/** The errno error node:fs throws. */
function errno(code: string, syscall: string, target: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected, ${syscall} '${target}'`), { code, syscall, path: target });
}

describe('skills add copies what it validated, never a link swapped in', () => {
  it('refuses a file swapped for a link to an outside file right before the copy opens it', async () => {
    const root = await initSquad();
    const source = path.join(tempDir('squad-swap-'), 'notes-style');
    writeFiles(source, { 'SKILL.md': validSkill('notes-style'), 'references/notes.md': '# notes\n' });
    const outside = path.join(tempDir('squad-outside-'), 'secret.txt');
    fs.writeFileSync(outside, `${SECRET}\n`);
    const notes = path.join(source, 'references', 'notes.md');
    const before = hashTree(root);
    swapOnOpen(notes, outside);
    const result = await runCli(['skills', 'add', source], { cwd: root });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `✗ ${notes} changed after it was read: it is a symlink now; it was not copied — make sure nothing changes the source folder while the command runs, then run it again`,
    );
    expect(hashTree(root)).toBe(before);
    expect(secretInside(root)).toBe(false);
    expect(debrisLeft(root)).toEqual([]);
  });
});

describe('skills add --force of a skill whose copy is refused', () => {
  it('leaves the skill it would replace where it is, with no backup and no staging folder', async () => {
    const root = await initSquad();
    writeFiles(root, { '.github/skills/notes-style/SKILL.md': validSkill('notes-style', 'Use when taking notes (mine).') });
    const source = path.join(tempDir('squad-swap-'), 'notes-style');
    writeFiles(source, { 'SKILL.md': validSkill('notes-style'), 'references/notes.md': '# notes\n' });
    const outside = path.join(tempDir('squad-outside-'), 'secret.txt');
    fs.writeFileSync(outside, `${SECRET}\n`);
    const before = hashTree(root);
    swapOnOpen(path.join(source, 'references', 'notes.md'), outside);
    const result = await runCli(['skills', 'add', source, '--force'], { cwd: root });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/changed after it was read: it is a symlink now; it was not copied/);
    // The plan moves the old skill to its backup only once the new one is staged whole.
    expect(hashTree(root)).toBe(before);
    expect(secretInside(root)).toBe(false);
    expect(debrisLeft(root)).toEqual([]);
  });
});

/**
 * Swap `file` for a link to `target` when it is opened (the seam where a racing process would), once
 * `ready` says so: the reads before anything is written (the audit, the lock's hash) can be let pass.
 */
function swapOnOpen(file: string, target: string, ready: () => boolean = () => true): void {
  const open = fs.openSync;
  vi.spyOn(fs, 'openSync').mockImplementation(((opened: fs.PathLike, flags: fs.OpenMode, mode?: fs.Mode | null) => {
    if (opened === file && ready() && !fs.lstatSync(file).isSymbolicLink()) {
      fs.rmSync(file);
      fs.symlinkSync(target, file);
    }
    return open(opened, flags, mode);
  }) as typeof fs.openSync);
}

describe('skills add of several skills, one refused while it is copied', () => {
  it('says which landed before the refusal, records them, and the rerun adds the rest', async () => {
    const root = await initSquad();
    const collection = tempDir('squad-swap-many-');
    for (const name of ['a-style', 'b-style']) writeFiles(collection, { [`${name}/SKILL.md`]: validSkill(name), [`${name}/references/a.md`]: '# a\n' });
    const outside = path.join(tempDir('squad-outside-'), 'secret.txt');
    fs.writeFileSync(outside, `${SECRET}\n`);
    const swapped = path.join(collection, 'b-style', 'references', 'a.md');
    // Once a-style has landed: b-style's copy meets the link.
    swapOnOpen(swapped, outside, () => fs.existsSync(path.join(root, '.github/skills/a-style')));
    const result = await runCli(['skills', 'add', collection, '--all'], { cwd: root });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `✗ installed a-style into .github/skills/a-style/; then ${swapped} changed after it was read: it is a symlink now; it was not copied — make sure nothing changes the source folder while the command runs, then run it again ("create-squad skills add ${collection} --all" adds the rest)`,
    );
    expect(Object.keys(readSources(root).entries)).toEqual(['a-style']);
    expect(fs.existsSync(path.join(root, '.github/skills/b-style'))).toBe(false);
    expect(secretInside(root)).toBe(false);
    expect(debrisLeft(root)).toEqual([]);

    vi.restoreAllMocks();
    fs.rmSync(swapped);
    fs.writeFileSync(swapped, '# a\n');
    const again = (await runOk(root, ['skills', 'add', collection, '--all', '--json'])).data<SkillsAddData>();
    expect(again.skills.map((skill) => [skill.name, skill.unchanged])).toEqual([
      ['a-style', true],
      ['b-style', false],
    ]);
    expect(Object.keys(readSources(root).entries)).toEqual(['a-style', 'b-style']);
  });
});

// Neither these tests nor the next describe's spy on node:fs or count writes, and each works in a squad
// of its own (the git source they share is only read): they run side by side, clones overlapping.
describe.concurrent('skills update holds the recorded source to the rules of a typed one', () => {
  async function addedFromGit(): Promise<{ root: string; url: string }> {
    const url = pdfSource();
    const root = await initSquad();
    await runOk(root, ['skills', 'add', url]);
    expect(recordOf(root, '.github/skills/pdf')).toMatchObject({ subpath: 'skills/pdf' });
    return { root, url };
  }

  const fix = (field: string) =>
    `correct its "${field}", or remove that entry and add the skill again with "create-squad skills add <source> --force" to record it anew; nothing was written`;

  it('refuses a recorded subpath that climbs out of the clone, installing nothing from outside', async () => {
    const { root } = await addedFromGit();
    // A path that climbs with .. is refused by the rule itself, wherever the clone lies.
    const outside = outsideSkill('pdf');
    const climb = `../../${path.relative(os.tmpdir(), outside).split(path.sep).join('/')}`;
    editRecord(root, '.github/skills/pdf', { skillPath: `${climb}/SKILL.md` });
    const before = hashTree(root);
    const result = await runCli(['skills', 'update', 'pdf'], { cwd: root });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `✗ ${SKILL_LOCK_PATH}: the entry of "pdf": "skillPath" ${JSON.stringify(`${climb}/SKILL.md`)} climbs out of the source with ".." — ${fix('skillPath')}`,
    );
    const json = await runCli(['skills', 'update', 'pdf', '--json'], { cwd: root });
    expect(json.error()).toMatchObject({ code: 'invalid-format', file: SKILL_LOCK_PATH });
    expect(hashTree(root)).toBe(before);
    expect(secretInside(root)).toBe(false);
  });

  it('refuses an absolute recorded subpath, a bad URL and a bad ref the same way', async () => {
    const { root } = await addedFromGit();
    const cases: [Record<string, unknown>, string][] = [
      [{ skillPath: '/etc/SKILL.md' }, `"skillPath" "/etc/SKILL.md" is absolute: a folder inside the source is given relative to its top — ${fix('skillPath')}`],
      [{ sourceUrl: '-uupload-pack=touch' }, `"sourceUrl" "-uupload-pack=touch" starts with "-" — ${fix('sourceUrl')}`],
      [{ ref: '--upload-pack=touch' }, `"ref" "--upload-pack=touch" starts with "-" — ${fix('ref')}`],
    ];
    const original = fs.readFileSync(path.join(root, SKILL_LOCK_PATH), 'utf8');
    for (const [change, message] of cases) {
      fs.writeFileSync(path.join(root, SKILL_LOCK_PATH), original);
      editRecord(root, '.github/skills/pdf', change);
      const before = hashTree(root);
      const result = await runCli(['skills', 'update', 'pdf'], { cwd: root });
      expect(result.code, JSON.stringify(change)).toBe(1);
      expect(oneLine(result.stderr)).toBe(`✗ ${SKILL_LOCK_PATH}: the entry of "pdf": ${message}`);
      expect(hashTree(root)).toBe(before);
    }
  });

  it('refuses a path that leads out of the clone through a link in the repository, typed or recorded', async () => {
    const outside = outsideSkill('pdf');
    const url = gitSource({ 'skills/pdf/SKILL.md': validSkill('pdf') }, { escape: path.dirname(outside), 'skills/linked': outside });
    const root = await initSquad();
    const before = hashTree(root);
    const message = (subpath: string) =>
      `✗ ${url}: the folder ${subpath} leads out of the repository through a symlink — give a folder of the repository itself, not one reached through a link; nothing was written`;
    for (const subpath of ['escape/pdf', 'skills/linked']) {
      const typed = await runCli(['skills', 'add', url, '--path', subpath], { cwd: root });
      expect(typed.code, subpath).toBe(1);
      expect(oneLine(typed.stderr)).toBe(message(subpath));
    }
    expect(hashTree(root)).toBe(before);

    // The link to a skill folder beside real ones is not taken for a skill either.
    const added = (await runOk(root, ['skills', 'add', url, '--all', '--json'])).data<SkillsAddData>();
    expect(added.skills.map((skill) => skill.name)).toEqual(['pdf']);
    editRecord(root, '.github/skills/pdf', { skillPath: 'escape/pdf/SKILL.md' });
    const installed = hashTree(path.join(root, '.github/skills/pdf'));
    const recorded = await runCli(['skills', 'update', 'pdf'], { cwd: root });
    expect(recorded.code).toBe(1);
    expect(oneLine(recorded.stderr)).toBe(message('escape/pdf'));
    expect(hashTree(path.join(root, '.github/skills/pdf'))).toBe(installed);
    expect(secretInside(root)).toBe(false);
  });

  it('does not search a collection folder that is a link', async () => {
    const outside = outsideSkill('pdf');
    const url = gitSource({ 'README.md': '# skills\n' }, { skills: path.dirname(outside) });
    const root = await initSquad();
    const before = hashTree(root);
    const result = await runCli(['skills', 'add', url], { cwd: root });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/^✗ file:.+ holds no skill /);
    expect(hashTree(root)).toBe(before);
  });
});

describe.concurrent('a SKILL.md that is a link is refused before anything is written', () => {
  const hint = "put the file itself in place of the link (copy what it points to into the skill's folder), then add the skill again; nothing was written";

  it('in a folder source', async () => {
    const root = await initSquad();
    const outside = outsideSkill('pdf');
    const source = path.join(tempDir('squad-linked-'), 'pdf');
    writeFiles(source, { 'references/a.md': '# a\n' });
    fs.symlinkSync(path.join(outside, 'SKILL.md'), path.join(source, 'SKILL.md'));
    const before = hashTree(root);
    const result = await runCli(['skills', 'add', source], { cwd: root });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(`✗ ${source}/SKILL.md is a symlink: a skill's files are copied, never links — ${hint}`);
    expect((await runCli(['skills', 'add', source, '--json'], { cwd: root })).error().code).toBe('unsafe-path');
    expect(hashTree(root)).toBe(before);
  });

  it('in a git source, at its root or in a folder of skills', async () => {
    const root = await initSquad();
    const outside = outsideSkill('pdf');
    const atRoot = gitSource({ 'references/a.md': '# a\n' }, { 'SKILL.md': path.join(outside, 'SKILL.md') });
    const inFolder = gitSource({ 'skills/docx/SKILL.md': validSkill('docx') }, { 'skills/pdf/SKILL.md': '../../../outside/SKILL.md' });
    const before = hashTree(root);
    const first = await runCli(['skills', 'add', atRoot], { cwd: root });
    expect(first.code).toBe(1);
    expect(oneLine(first.stderr)).toBe(`✗ ${atRoot}/SKILL.md is a symlink: a skill's files are copied, never links — ${hint}`);
    const second = await runCli(['skills', 'add', inFolder, '--all'], { cwd: root });
    expect(second.code).toBe(1);
    expect(oneLine(second.stderr)).toBe(`✗ ${inFolder}/pdf/SKILL.md is a symlink: a skill's files are copied, never links — ${hint}`);
    expect(hashTree(root)).toBe(before);
  });
});

describe('an install whose record cannot be written says what happened', () => {
  /** Make every write of the records file fail as a read-only file system fails it. */
  function failRecordWrites(code = 'EROFS'): void {
    const write = fs.writeFileSync;
    vi.spyOn(fs, 'writeFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, options?: fs.WriteFileOptions) => {
      if (typeof file === 'string' && path.basename(file).startsWith('.skills-lock.json.')) throw errno(code, 'open', file);
      return write(file, data, options);
    }) as typeof fs.writeFileSync);
  }

  function skillFolder(name: string): string {
    const dir = path.join(tempDir('squad-book-'), name);
    writeFiles(dir, { 'SKILL.md': validSkill(name), 'references/a.md': '# a\n' });
    return dir;
  }

  it('installed, not recorded: exit 1 with one line naming both, and the same command again records it', async () => {
    const root = await initSquad();
    const source = skillFolder('api-style');
    failRecordWrites();
    const result = await runCli(['skills', 'add', source], { cwd: root });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `✗ installed api-style into .github/skills/api-style/; could not record its source in ${SKILL_LOCK_PATH}: permission denied (EROFS) — make ${SKILL_LOCK_PATH} writable and run "create-squad skills add ${source}" again to record it`,
    );
    expect(hashTree(path.join(root, '.github/skills/api-style'))).toBe(hashTree(source));
    expect(fs.existsSync(path.join(root, SKILL_LOCK_PATH))).toBe(false);
    const json = await runCli(['skills', 'add', source, '--json'], { cwd: root });
    expect(json.code).toBe(1);
    expect(json.error()).toMatchObject({
      code: 'bookkeeping-failed',
      message: `api-style is in .github/skills/api-style/ already; could not record its source in ${SKILL_LOCK_PATH}: permission denied (EROFS)`,
      file: SKILL_LOCK_PATH,
    });

    vi.restoreAllMocks();
    const again = await runOk(root, ['skills', 'add', source]);
    expect(again.stdout).toContain('Skill "api-style" is in the team skills already, file for file');
    expect(again.stdout).toContain(`Source recorded in ${SKILL_LOCK_PATH}`);
    expect(recordOf(root, '.github/skills/api-style')).toMatchObject({ type: 'folder' });
    expect(listFiles(root).filter((rel) => rel.startsWith('.ai-team/backups/'))).toEqual([]);
    expect(debrisLeft(root)).toEqual([]);
  });

  it('names every skill installed and the disk that is full, with the whole command to run again', async () => {
    const root = await initSquad();
    const collection = tempDir('squad-book-many-');
    for (const name of ['a-style', 'b-style']) writeFiles(collection, { [`${name}/SKILL.md`]: validSkill(name) });
    failRecordWrites('ENOSPC');
    const result = await runCli(['skills', 'add', collection, '--all', '--agent', 'fenster'], { cwd: root });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `✗ installed a-style into .ai-team/agents/fenster/skills/a-style/, b-style into .ai-team/agents/fenster/skills/b-style/; could not record their sources in ${SKILL_LOCK_PATH}: the disk is full — free some space and run "create-squad skills add ${collection} --all --agent fenster" again to record them`,
    );
    vi.restoreAllMocks();
    await runOk(root, ['skills', 'add', collection, '--all', '--agent', 'fenster']);
    expect(Object.keys(readSources(root).entries)).toEqual(['fenster/a-style', 'fenster/b-style']);
  });

  it('updated, not recorded: says so, and the update run again records the new commit', async () => {
    const source = skillFolder('api-style');
    const root = await initSquad();
    await runOk(root, ['skills', 'add', source]);
    writeFiles(source, { 'references/a.md': '# a, second edition\n' });
    const recorded = fs.readFileSync(path.join(root, SKILL_LOCK_PATH), 'utf8');
    failRecordWrites();
    // A folder's entry changes on update too: the new files' hash.
    const folder = await runCli(['skills', 'update', 'api-style'], { cwd: root });
    expect(folder.code).toBe(1);
    expect(oneLine(folder.stderr)).toMatch(/^✗ updated api-style in \.github\/skills\/api-style\/; could not record its source in skills-lock\.json: /);
    expect(fs.readFileSync(path.join(root, SKILL_LOCK_PATH), 'utf8')).toBe(recorded);

    const pdf = quickGitSource({ 'skills/pdf/SKILL.md': validSkill('pdf') });
    const url = pdf.url;
    vi.restoreAllMocks();
    await runOk(root, ['skills', 'add', url]);
    const commit = quickCommitAndPush(pdf, { 'skills/pdf/references/new.md': '# new\n' });
    failRecordWrites();
    const result = await runCli(['skills', 'update', 'pdf'], { cwd: root });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `✗ updated pdf in .github/skills/pdf/; could not record its source in ${SKILL_LOCK_PATH}: permission denied (EROFS) — make ${SKILL_LOCK_PATH} writable and run "create-squad skills update pdf" again to record it`,
    );
    expect(fs.existsSync(path.join(root, '.github/skills/pdf/references/new.md'))).toBe(true);
    vi.restoreAllMocks();
    await runOk(root, ['skills', 'update', 'pdf']);
    expect(recordOf(root, '.github/skills/pdf')!.commit).toBe(commit);
  });
});

describe('a clone that cannot be removed', () => {
  /** Make removing a clone fail with `code`; returns the clones kept. */
  function failCloneRemoval(code: string): string[] {
    const remove = fs.rmSync;
    const kept: string[] = [];
    vi.spyOn(fs, 'rmSync').mockImplementation(((target: fs.PathLike, options?: fs.RmOptions) => {
      if (typeof target === 'string' && path.basename(target).startsWith(`${CLONE_PURPOSE}-`) && SCRATCH_PATTERN.test(path.basename(target))) {
        if (!kept.includes(target)) kept.push(target); // a later run's sweep tries the earlier clones again
        throw errno(code, 'rmdir', target);
      }
      return remove(target, options);
    }) as typeof fs.rmSync);
    return kept;
  }

  it('is a warning naming it after a good install or update (exit 0), and a later run removes it', async () => {
    const root = await initSquad();
    const kept = failCloneRemoval('EBUSY');
    const added = await runCli(['skills', 'add', pdfSource()], { cwd: root });
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^✓ Added skill "pdf" to the team skills/);
    expect(oneLine(added.stderr)).toBe(`⚠ could not remove the temporary clone ${kept[0]} (EBUSY): remove it with "rm -rf ${kept[0]}"; the next writing command removes it too`);
    expect(fs.existsSync(path.join(root, '.github/skills/pdf/SKILL.md'))).toBe(true);

    const updated = await runCli(['skills', 'update', 'pdf', '--json'], { cwd: root });
    expect(updated.code).toBe(0);
    expect(updated.data<{ unchanged: boolean }>().unchanged).toBe(true);
    expect(updated.warnings()).toEqual([
      {
        code: 'clone-left-behind',
        message: `could not remove the temporary clone ${kept[1]} (EBUSY): remove it with "rm -rf ${kept[1]}"; the next writing command removes it too`,
        path: kept[1],
      },
    ]);
    vi.restoreAllMocks();
    expect(kept.every((clone) => fs.existsSync(clone))).toBe(true);
    await runOk(root, ['skills', 'update', 'pdf']);
    expect(kept.filter((clone) => fs.existsSync(clone))).toEqual([]);
  });
});
