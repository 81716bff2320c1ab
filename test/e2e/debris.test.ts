/**
 * A rerun that succeeds after a kill leaves no temporary files or staging folders of the killed run
 * in the places it writes; what a running process (maybe another create-squad) is using, and
 * what is not create-squad's, stays.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { COORDINATOR_PATH, squadPaths } from '../../src/core/base/paths.js';
import { DEBRIS_KINDS, REPO_TEMP_DIR, makeRepoScratch, repoTempDir, sweepRepositoryDebris } from '../../src/core/fs/debris.js';
import { observeWrites } from '../../src/core/fs/fs-safe.js';
import { cleanupTempDirs, hashTree, initSquad, runCli, runOk, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { deadPid, debrisLeft } from '../helpers/debris.js';
import { sampledWrites } from '../helpers/kill-matrix.js';

afterAll(cleanupTempDirs);

async function squad(): Promise<string> {
  return initSquad(['--yes']);
}

const temp = (base: string, pid: number, id = '0123abcd') => `.${base}.${pid}.${id}.tmp`;
/** Another process that is running while the tests run: what it made is never removed. */
const livePid = process.ppid;

describe('debris of killed runs', () => {
  it('init: the rerun removes the temporary files of dead processes in the folders it writes to', async () => {
    const root = await squad();
    fs.rmSync(path.join(root, squadPaths.routing));
    fs.rmSync(path.join(root, COORDINATOR_PATH));
    const stale = [`.ai-team/${temp('routing.md', deadPid())}`, `.github/agents/${temp('squad.agent.md', deadPid())}`];
    const kept = [`.ai-team/${temp('routing.md', livePid, '89abcdef')}`, `src/${temp('main.ts', deadPid())}`];
    writeFiles(root, Object.fromEntries([...stale, ...kept].map((rel) => [rel, 'partial'])));
    const again = await runCli(['init', '--yes'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect(debrisLeft(root)).toEqual([...kept].sort());
  });

  // A few of the writes in npm test (the first, the middle, the last two), every one of them with
  // CREATE_SQUAD_MATRIX=full (.ci/run).
  it('skills add: after a kill after any of its writes, the rerun leaves the skill and no staging folder', async () => {
    const source = path.join(tempDir(), 'pdf');
    writeFiles(source, { 'SKILL.md': validSkill('pdf'), 'references/a.md': '# a\n', 'references/b.md': '# b\n', 'assets/c.bin': Buffer.from([0, 255]) });
    const args = ['skills', 'add', source];
    // The uninterrupted run counts its writes: a kill after any of them stops the command.
    const clean = await squad();
    let total = 0;
    observeWrites((count) => {
      total = count;
    });
    try {
      await runOk(clean, args);
    } finally {
      observeWrites(undefined);
    }
    expect(total).toBe(6); // four files, the swap, then the record of the source
    // Asked to stop after a write it never makes, the command runs to its end.
    expect((await runCli(args, { cwd: await squad(), env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(total + 1) } })).code).toBe(0);
    for (const k of sampledWrites(total)) {
      const root = await squad();
      expect((await runCli(args, { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } })).code, `k=${k}`).toBe(-1);
      // Once the skill is in place, the rerun finds it there file for file and only records its source.
      const again = await runCli(args, { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      if (k >= total - 1) expect(again.stdout, `k=${k}`).toMatch(/is in the team skills already, file for file/);
      expect(hashTree(path.join(root, '.github/skills/pdf')), `k=${k}`).toBe(hashTree(source));
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  });

  it('skills add: a staging folder of a running process stays', async () => {
    const root = await squad();
    const source = path.join(tempDir(), 'pdf');
    writeFiles(source, { 'SKILL.md': validSkill('pdf') });
    const live = `.github/skills/.staging-pdf-${livePid}-89abcdef`;
    writeFiles(root, { [`.github/skills/.staging-pdf-${deadPid()}-0123abcd/SKILL.md`]: 'partial', [`${live}/SKILL.md`]: 'partial' });
    expect((await runCli(['skills', 'add', source], { cwd: root })).code).toBe(0);
    expect(debrisLeft(root)).toEqual([`${live}/`]);
  });

  it('import: removes staging folders of dead processes, and reports the rest', async () => {
    const source = await squad();
    const file = path.join(tempDir(), 'team.squad');
    expect((await runCli(['export', '--out', file], { cwd: source })).code).toBe(0);
    const root = tempRepo();
    const dead = `.ai-team-import-staging-${deadPid()}-0123abcd`;
    const live = `.ai-team-import-staging-${livePid}-89abcdef`;
    const older = '.ai-team-import-staging-1a2b3c4d'; // made before staging folders carried a pid: whose it is cannot be told
    writeFiles(root, { [`${dead}/.ai-team/team.md`]: '# partial', [`${live}/.ai-team/team.md`]: '# partial', [`${older}/.ai-team/team.md`]: '# partial' });
    const imported = await runCli(['import', file, '--json'], { cwd: root });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.data<{ leftovers: string[] }>().leftovers).toEqual([older, live].sort());
    expect(debrisLeft(root)).toEqual([`${older}/`, `${live}/`].sort());
  });

  it('a dry run removes nothing', async () => {
    const root = await squad();
    const stale = `.ai-team/${temp('routing.md', deadPid())}`;
    writeFiles(root, { [stale]: 'partial' });
    fs.rmSync(path.join(root, squadPaths.routing));
    expect((await runCli(['init', '--yes', '--dry-run'], { cwd: root })).code).toBe(0);
    expect(debrisLeft(root)).toEqual([stale]);
  });
});

describe('every temporary name, wherever create-squad writes', () => {
  /** One name of each kind of debris.ts, made by a process that is gone (`pid`), where that kind is made. */
  const leftBy = (pid: number) => ({
    [`.create-squad-probe-${pid}-0123abcd`]: '',
    [`.ai-team/backups/2026-11-24T10-00-00-000Z/.ai-team/.team.md.${pid}.0123abcd.tmp`]: 'partial',
    [`.ai-team/backups/2026-11-24T10-00-00-000Z/.github/agents/.squad.agent.md.${pid}.0123abcd.tmp`]: 'partial',
    [`.github/skills/squad-code-review/references/.checklist.md.${pid}.0123abcd.tmp`]: 'partial',
    [`.github/skills/pdf/.SKILL.md.${pid}.0123abcd.tmp`]: 'partial',
    [`.ai-team/agents/fenster/skills/react/.SKILL.md.${pid}.0123abcd.tmp`]: 'partial',
    [`.ai-team/agents/fenster/.history.md.${pid}.0123abcd.tmp`]: 'partial',
    [`.github/agents/.fenster.agent.md.${pid}.0123abcd.tmp`]: 'partial',
    [`.vscode/.mcp.json.${pid}.0123abcd.tmp`]: 'partial',
    [`${REPO_TEMP_DIR}/clone-${pid}-0123abcd/SKILL.md`]: 'partial',
    [`.github/skills/.staging-pdf-${pid}-0123abcd/SKILL.md`]: 'partial',
    [`.ai-team-import-staging-${pid}-0123abcd/.ai-team/team.md`]: 'partial',
  });
  const shown = (files: Record<string, string>) =>
    [
      ...new Set(
        Object.keys(files).map((rel) =>
          rel
            .replace(/^(\.create-squad-tmp\/[^/]+)\/.*$/, '$1/')
            .replace(/^(.*\/)?(\.staging-[^/]+|\.ai-team-import-staging-[^/]+)\/.*$/, (_, parent = '', name) => `${parent}${name}/`),
        ),
      ),
    ].sort();

  it('any writing command removes what dead processes left there, and only that', async () => {
    const root = await squad();
    writeFiles(root, { '.github/skills/pdf/SKILL.md': validSkill('pdf'), '.ai-team/agents/fenster/skills/react/SKILL.md': validSkill('react') });
    const dead = leftBy(deadPid());
    const live = leftBy(livePid);
    // A skill's own tree below its top and folders create-squad never writes are the user's.
    const users = {
      [`.github/skills/pdf/references/.notes.md.${deadPid()}.0123abcd.tmp`]: "the skill author's",
      [`src/.main.ts.${deadPid()}.0123abcd.tmp`]: "the user's",
      [`.github/skills/pdf/.create-squad-probe-${deadPid()}-0123abcd`]: 'not where probes are made',
    };
    writeFiles(root, { ...dead, ...live, ...users });
    for (const args of [
      ['role', 'fenster', 'Backend Dev'],
      ['teach', 'keaton', 'Always review the migrations', '--rule'],
      ['skills', 'remove', 'pdf'],
    ]) {
      const copy = tempDir('squad-copy-');
      fs.cpSync(root, copy, { recursive: true });
      const result = await runCli(args, { cwd: copy });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      const left = debrisLeft(copy);
      for (const rel of shown(dead)) if (!(args[1] === 'remove' && rel.startsWith('.github/skills/pdf/'))) expect(left, `${args[0]}: ${rel}`).not.toContain(rel);
      for (const rel of shown(live)) if (!(args[1] === 'remove' && rel.startsWith('.github/skills/pdf/'))) expect(left, `${args[0]}: ${rel}`).toContain(rel);
      for (const rel of Object.keys(users)) if (!rel.startsWith('.github/skills/pdf/') || args[1] !== 'remove') expect(fs.existsSync(path.join(copy, rel)), rel).toBe(true);
    }
  });

  it('doctor reports what dead processes left, each with its fix, and removes nothing', async () => {
    const root = await squad();
    writeFiles(root, { '.github/skills/pdf/SKILL.md': validSkill('pdf'), '.ai-team/agents/fenster/skills/react/SKILL.md': validSkill('react') });
    const dead = leftBy(deadPid());
    writeFiles(root, { ...dead, ...leftBy(livePid) });
    const before = hashTree(root);
    const result = await runCli(['doctor', '--json'], { cwd: root });
    const findings = result.data<{ findings: { code: string; path: string; fix: string }[] }>().findings.filter((f) => f.code.endsWith('-leftover'));
    expect(findings.map((f) => `${f.path}${f.code.includes('staging') || f.code === 'scratch-leftover' ? '/' : ''}`).sort()).toEqual(shown(dead));
    for (const finding of findings) expect(finding.fix).toMatch(/^run any writing command \(it removes it\), or remove /);
    expect(findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['probe-leftover', 'scratch-leftover', 'temp-file-leftover', 'skill-staging-leftover', 'import-staging-leftover']),
    );
    expect(hashTree(root)).toBe(before);
  });

  it('never reads through a symlinked folder: what is outside the repository stays', async () => {
    const root = await squad();
    const outside = tempDir();
    writeFiles(outside, { [`pdf/.SKILL.md.${deadPid()}.0123abcd.tmp`]: 'not in the repository' });
    fs.rmSync(path.join(root, '.github/skills'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, '.github/skills'));
    expect(sweepRepositoryDebris(root)).toEqual([]);
    expect(fs.readdirSync(path.join(outside, 'pdf'))).toEqual([`.SKILL.md.${deadPid()}.0123abcd.tmp`]);
  });

  it('.gitignore, as init writes it, ignores every kind of them and the lock', async () => {
    const root = tempRepo();
    await runOk(root, ['init', '--yes']);
    const names = [...Object.keys(leftBy(4242)), '.create-squad.lock', '.create-squad.lock.4242.0123abcd', '.create-squad.lock.takeover'];
    // Every kind of the registry is among the names tried.
    for (const kind of DEBRIS_KINDS)
      expect(
        names.some((rel) => rel.split('/').some((part) => kind.pattern.test(part))),
        kind.id,
      ).toBe(true);
    const ignored = spawnSync('git', ['check-ignore', '--no-index', ...names], { cwd: root, encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean);
    expect(ignored).toEqual(names);
  });

  it("scratch work goes to the repository's temp folder, which goes once empty; none to the system's", async () => {
    const root = await squad();
    const scratch = makeRepoScratch(root, 'clone');
    expect(path.dirname(scratch.path)).toBe(repoTempDir(root));
    expect(path.basename(scratch.path)).toMatch(new RegExp(`^clone-${process.pid}-[0-9a-f]{8}$`));
    writeFiles(scratch.path, { 'a.txt': 'x' });
    // In use: a writing command meanwhile leaves it.
    expect(sweepRepositoryDebris(root)).toEqual([]);
    scratch.release();
    expect(fs.existsSync(repoTempDir(root))).toBe(false);

    // A committed link in the temp folder's place never takes scratch work out of the repository.
    const outside = tempDir('outside-');
    fs.symlinkSync(outside, repoTempDir(root));
    expect(() => makeRepoScratch(root, 'clone')).toThrow(/\.create-squad-tmp is not a folder create-squad made/);
    expect(fs.readdirSync(outside)).toEqual([]);
    fs.rmSync(repoTempDir(root));
    // Two scratches at once: releasing one leaves the other's folder, and the temp folder, in place.
    const [first, second] = [makeRepoScratch(root, 'clone'), makeRepoScratch(root, 'clone')];
    first.release();
    expect(fs.existsSync(second.path)).toBe(true);
    second.release();
    expect(fs.existsSync(repoTempDir(root))).toBe(false);

    // An import, killed or not, makes nothing in the system's temp folder.
    const file = path.join(tempDir(), 'team.squad');
    await runOk(await squad(), ['export', '--out', file]);
    const systemTemp = tempDir('squad-system-temp-');
    const targets = [tempRepo(), tempRepo()];
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = systemTemp;
    try {
      for (const [i, env] of [{ CREATE_SQUAD_CRASH_AFTER_WRITES: '20' }, {}].entries()) {
        const target = targets[i]!;
        await runCli(['import', file], { cwd: target, env });
        await runCli(['import', file], { cwd: target });
      }
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(fs.readdirSync(systemTemp)).toEqual([]);
  });
});
