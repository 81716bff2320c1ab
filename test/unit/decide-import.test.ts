/**
 * import reads once, then decides without the disk: decideImport runs on what readImportState read,
 * with the file system switched off, and plans exactly what it plans with the disk on; the plan is
 * what the command reports (--json changes, text lines, commit hint) and writes, in a dry run too.
 * factsAfter (base/planned-facts.ts), which lets it decide the members' agents on the squad its
 * swap puts in place, is checked on its own first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImportData } from '../../src/commands/import.js';
import type { DiskFacts } from '../../src/core/base/disk-facts.js';
import { IMPORT_MARKER_PATH, squadPaths } from '../../src/core/base/paths.js';
import { changeLines, commitHint, summarizeChanges, type Change } from '../../src/core/base/plan.js';
import { factsAfter } from '../../src/core/base/planned-facts.js';
import { applyPlan } from '../../src/core/fs/apply-plan.js';
import { LOCK_FILE } from '../../src/core/fs/lock.js';
import { decideImport, readImportState } from '../../src/core/portable/import.js';
import { memberProfilePath } from '../../src/core/squad/agents/member-profile.js';
import { cleanupTempDirs, hashTree, listFiles, runCli, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { sharedInitSquad as initSquad } from '../helpers/shared-init.js';
import { withoutFileSystem, withoutFileSystemAsync } from '../helpers/no-fs.js';
import { sharedSourceExport as sourceExport } from '../helpers/shared-source.js';
import { expectEqual } from '../helpers/fast-equal.js';

afterAll(cleanupTempDirs);

const now = new Date('2026-03-04T05:06:07Z');

/** Facts of a disk holding `files` (and their folders) alone. */
function diskOf(files: Record<string, string>): DiskFacts {
  const folders = new Set<string>();
  for (const file of Object.keys(files)) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i += 1) folders.add(parts.slice(0, i).join('/'));
  }
  const kind = (rel: string) => (rel in files ? 'file' : folders.has(rel) ? 'folder' : 'missing');
  const names = (rel: string) => [...new Set([...Object.keys(files), ...folders].filter((p) => p.startsWith(`${rel}/`)).map((p) => p.slice(rel.length + 1).split('/')[0]!))];
  return {
    root: '/repo',
    blocked: () => undefined,
    exists: (rel) => kind(rel) !== 'missing',
    isFile: (rel) => kind(rel) === 'file',
    isDirectory: (rel) => kind(rel) === 'folder',
    kind,
    bytes: (rel) => (rel in files ? Buffer.from(files[rel]!) : undefined),
    mode: () => 0o644,
    names,
    missingOrEmpty: (rel) => names(rel).length === 0,
  };
}

describe('factsAfter: the disk seen through planned changes', () => {
  it('answers a placed folder from its files alone, hiding what stood there, and follows moves of planned and disk paths', () => {
    const disk = diskOf({ 'a/old.md': 'old', 'a/sub/deep.md': 'deep', 'b/kept.md': 'kept', 'c/x.md': 'x' });
    const changes: Change[] = [
      { kind: 'move', from: 'a', to: 'archive' },
      {
        kind: 'tree',
        path: 'a',
        files: [
          { path: 'new.md', content: 'new' },
          { path: 'skills/s/SKILL.md', content: 'skill', mode: 0o755 },
        ],
      },
      { kind: 'create', path: 'b/added.md', content: 'added' },
      { kind: 'move', from: 'a/skills/s', to: 'b/s' },
      { kind: 'remove', path: 'c/x.md' },
    ];
    const after = factsAfter(disk, changes);
    expect(after.names('a').sort()).toEqual(['new.md', 'skills']);
    expect(after.exists('a/old.md')).toBe(false);
    expect(after.kind('a/sub')).toBe('missing');
    expect(after.bytes('a/new.md')?.toString()).toBe('new');
    // The old folder is answered at its new place from what the disk has at the old one.
    expect(after.bytes('archive/old.md')?.toString()).toBe('old');
    expect(after.names('b').sort()).toEqual(['added.md', 'kept.md', 's']);
    expect(after.bytes('b/s/SKILL.md')?.toString()).toBe('skill');
    expect(after.mode('b/s/SKILL.md')).toBe(0o755);
    expect(after.exists('a/skills/s')).toBe(false);
    expect(after.isDirectory('b/s')).toBe(true);
    expect(after.exists('c/x.md')).toBe(false);
    expect(after.missingOrEmpty('c')).toBe(true);
    expect(after.missingOrEmpty('b')).toBe(false);
    expect(after.blocked('a')).toBe('a is a folder');
    // What the changes do not touch is the disk's answer.
    expect(after.bytes('b/kept.md')?.toString()).toBe('kept');
  });
});

/** A fresh repository with a README, and the path of a .squad file exported from a squad with learned skills. */
async function freshTarget(): Promise<{ root: string; file: string }> {
  const file = await sourceExport();
  const root = tempRepo();
  writeFiles(root, { 'README.md': '# app\n' });
  return { root, file };
}

describe('decideImport: an import decided off the disk', () => {
  it('plans a fresh import with node:fs off exactly as with it on, and the plan applied is the squad the command leaves', async () => {
    const { root, file } = await freshTarget();
    const state = await readImportState(root, file);
    const whole = await decideImport(state, { now });
    const pure = await withoutFileSystemAsync(() => decideImport(state, { now }));
    expectEqual(pure, whole);
    // The staged squad whole, then the files outside it, the agents, and the marker's removal last.
    expect(pure.changes[0]).toMatchObject({ kind: 'tree', path: squadPaths.root });
    expect(pure.changes.at(-1)).toEqual({ kind: 'remove', path: IMPORT_MARKER_PATH });
    const agents = pure.report.agentProfiles.map((change) => change.path);
    expect(agents).toEqual(expect.arrayContaining([memberProfilePath('keaton'), memberProfilePath('fenster'), memberProfilePath('scribe')]));

    applyPlan(root, pure, 'importing');
    const viaCommand = tempRepo();
    writeFiles(viaCommand, { 'README.md': '# app\n' });
    const result = await runCli(['import', file, '--json'], { cwd: viaCommand });
    expect(result.code, result.stderr).toBe(0);
    expect(listFiles(root)).toEqual(listFiles(viaCommand));
    for (const agent of agents) expect(fs.readFileSync(path.join(root, agent), 'utf8'), agent).toBe(fs.readFileSync(path.join(viaCommand, agent), 'utf8'));
    expect(fs.existsSync(path.join(root, IMPORT_MARKER_PATH))).toBe(false);
  });

  it('plans a forced import over a squad with node:fs off: the old squad archived, an agent edited by hand backed up before it is replaced', async () => {
    const file = await sourceExport();
    const root = await initSquad(['--yes', '--roles', 'Designer']);
    const [designer] = fs.readdirSync(path.join(root, '.ai-team/agents')).filter((name) => !name.startsWith('_') && name !== 'scribe');
    fs.appendFileSync(path.join(root, memberProfilePath(designer!)), '\nMy own note.\n');
    const state = await readImportState(root, file);
    await expect(decideImport(state, { now })).rejects.toThrow(/^this repository already has a squad \(1 member, 0 learned skills\)/);
    const whole = await decideImport(state, { now, force: true });
    const pure = await withoutFileSystemAsync(() => decideImport(state, { now, force: true }));
    expectEqual(pure, whole);
    const archive = '.ai-team-archive-2026-03-04T05-06-07-000Z';
    expect(pure.changes.slice(0, 2).map((change) => change.kind)).toEqual(['move', 'tree']);
    expect(pure.changes[0]).toEqual({ kind: 'move', from: squadPaths.root, to: archive });
    expect(pure.report.replaced).toEqual({ archive, members: 1, learnedSkills: 0 });
    // The imported squad has a member of that folder too (both cast from one universe): the agent,
    // edited by hand, is backed up into the new squad before it is replaced.
    expect(designer).toBe('keaton');
    const summary = summarizeChanges(pure.changes);
    expect(summary.backedUp).toEqual([{ path: memberProfilePath('keaton'), backup: `.ai-team/backups/2026-03-04T05-06-07-000Z/${memberProfilePath('keaton')}` }]);
    expect(summary.replaced).toContain(memberProfilePath('keaton'));
    const before = hashTree(path.join(root, squadPaths.root));
    applyPlan(root, pure, 'importing');
    expect(hashTree(path.join(root, archive))).toBe(before);
  });

  it('plans the rest of an import killed after its swap with node:fs off: no second swap, the marker removed last', async () => {
    const { root, file } = await freshTarget();
    const clean = tempRepo();
    const full = await runCli(['import', file, '--json'], { cwd: clean });
    expect(full.code, full.stderr).toBe(0);
    // Kill right after the swap: the squad is in place with its marker, nothing after it is written.
    const swap = 1 + full.data<ImportData>().files + 1; // the staged files, the marker, then the rename
    expect((await runCli(['import', file], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(swap) } })).code).toBe(-1);
    expect(fs.existsSync(path.join(root, IMPORT_MARKER_PATH))).toBe(true);
    const state = await readImportState(root, file);
    expect(state.unfinished).toBeDefined();
    const whole = await decideImport(state, { now });
    const pure = await withoutFileSystemAsync(() => decideImport(state, { now }));
    expectEqual(pure, whole);
    expect(pure.changes.some((change) => change.kind === 'tree')).toBe(false);
    expect(pure.changes.at(-1)).toEqual({ kind: 'remove', path: IMPORT_MARKER_PATH });
    expect(pure.report.notes).toContain('finished the import of this file that was interrupted after its new .ai-team/ was in place');
    applyPlan(root, pure, 'importing');
    // The killed run left its lock behind (the next command takes it over); the rest is the clean run's squad.
    expect(listFiles(root).filter((rel) => rel !== 'README.md' && rel !== LOCK_FILE)).toEqual(listFiles(clean));
  });

  it('refuses off the disk what the disk refuses: a squad in place without --force', async () => {
    const file = await sourceExport();
    const root = await initSquad(['--yes', '--roles', 'Designer']);
    writeFiles(root, { '.ai-team/agents/keaton/skills/figma/SKILL.md': validSkill('figma') });
    const state = await readImportState(root, file);
    const refused = withoutFileSystemAsync(() => decideImport(state, { now }));
    await expect(refused).rejects.toThrow(/^this repository already has a squad \(1 member, 1 learned skill\)$/);
  });
});

describe('import: the report is the plan', () => {
  it('a dry run reports the changes the real run makes; the text lists each change and the commit hint names exactly them', async () => {
    const first = await freshTarget();
    const before = hashTree(first.root);
    const dry = await runCli(['import', first.file, '--dry-run', '--json'], { cwd: first.root });
    expect(dry.code, dry.stderr).toBe(0);
    expect(hashTree(first.root)).toBe(before);
    const real = await runCli(['import', first.file, '--json'], { cwd: first.root });
    expect(real.code, real.stderr).toBe(0);
    const planned = dry.data<ImportData>();
    const done = real.data<ImportData>();
    expect(planned.dryRun).toBe(true);
    expect(done.dryRun).toBe(false);
    expect(planned.changes).toEqual(done.changes);
    expect(planned.commit).toEqual(done.commit);
    expect(planned.agentProfiles).toEqual(done.agentProfiles);
    expect(planned.created).toEqual(done.created);
    // Every file the summary says was created is there; the agents among them too.
    expect(done.changes.created).toContain(squadPaths.root);
    for (const rel of done.changes.created) expect(fs.existsSync(path.join(first.root, rel)), rel).toBe(true);
    for (const { path: rel } of done.agentProfiles) expect(done.changes.created).toContain(rel);

    // The same import as text, in a copy of the same repository.
    const second = await freshTarget();
    const state = await readImportState(second.root, second.file);
    const plan = await decideImport(state, { now });
    const text = await runCli(['import', second.file], { cwd: second.root });
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split('\n');
    for (const line of changeLines(plan.changes, false)) expect(lines, line).toContain(`  ${line}`);
    const hint = commitHint(plan.changes, 'chore(squad): import the squad from Dashboard');
    expect(lines).toContain(`  Commit it: ${hint}`);
    expect(hint).toBe(`git add -A -- ${done.commit.join(' ')} && git commit -m "chore(squad): import the squad from Dashboard"`);

    const dryText = await runCli(['import', second.file, '--force', '--dry-run'], { cwd: tempRepo() });
    expect(dryText.code, dryText.stderr).toBe(0);
    expect(dryText.stdout).toContain(`  would create    ${squadPaths.root}\n`);
    expect(dryText.stdout).toContain('Dry run: nothing was written.');
    expect(dryText.stdout).not.toContain('Commit it:');
  });

  it('a dry run names the staging folder a killed import left; the real run removes it and reports none', async () => {
    const { root, file } = await freshTarget();
    expect((await runCli(['import', file], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: '1' } })).code).toBe(-1);
    const [staging] = fs.readdirSync(root).filter((name) => name.startsWith('.staging-.ai-team-'));
    expect(staging).toMatch(/^\.staging-\.ai-team-\d+-[0-9a-f]{8}$/);
    const dry = await runCli(['import', file, '--dry-run'], { cwd: root });
    expect(dry.stderr).toContain(`⚠ ${staging}/ is left from an interrupted import; it is safe to delete`);
    const real = await runCli(['import', file, '--json'], { cwd: root });
    expect(real.code, real.stderr).toBe(0);
    expect(real.data<ImportData>().leftovers).toEqual([]);
    expect(fs.existsSync(path.join(root, staging!))).toBe(false);
  });

  it('a rerun after the swap reports only what it finishes', async () => {
    const { root, file } = await freshTarget();
    const clean = await runCli(['import', file, '--json'], { cwd: tempRepo() });
    const writes = clean.data<ImportData>();
    const swap = 1 + writes.files + 1;
    expect((await runCli(['import', file], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(swap) } })).code).toBe(-1);
    const again = await runCli(['import', file, '--json'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    const data = again.data<ImportData>();
    expect(data.changes.created).not.toContain(squadPaths.root);
    expect(data.changes.removed).toEqual([IMPORT_MARKER_PATH]);
    expect(data.commit.length).toBeGreaterThan(0);
  });
});

describe('factsAfter stays pure', () => {
  it('answers with node:fs off', () => {
    const after = withoutFileSystem(() => factsAfter(diskOf({ 'x/y.md': 'y' }), [{ kind: 'create', path: 'x/z.md', content: 'z' }]));
    expect(withoutFileSystem(() => after.names('x').sort())).toEqual(['y.md', 'z.md']);
  });
});
