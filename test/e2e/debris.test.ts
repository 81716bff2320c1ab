/**
 * A rerun that succeeds after a kill leaves no temporary files or staging folders of the killed run
 * in the places it writes; what a running process (maybe another create-squad) is using, and
 * what is not create-squad's, stays.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COORDINATOR_PATH, squadPaths } from '../../src/core/base/paths.js';
import { cleanupTempDirs, hashTree, initSquad, runCli, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { deadPid, debrisLeft } from '../helpers/debris.js';

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

  it('skills add: after a kill after any of its writes, the rerun leaves the skill and no staging folder', async () => {
    const source = path.join(tempDir(), 'pdf');
    writeFiles(source, { 'SKILL.md': validSkill('pdf'), 'references/a.md': '# a\n', 'references/b.md': '# b\n', 'assets/c.bin': Buffer.from([0, 255]) });
    const args = ['skills', 'add', source];
    let total = 0;
    while ((await runCli(args, { cwd: await squad(), env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(total + 1) } })).code === -1) total += 1;
    expect(total).toBe(6); // four files, the swap, then the record of the source
    for (let k = 1; k <= total; k += 1) {
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
