/**
 * Writers started together on one squad, as real processes (the coordinator runs CLI calls in
 * parallel): every update is present afterwards, or its command was refused and wrote nothing.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, acquireSquadLock, isStaleLock, readLockOwner } from '../../src/core/fs/lock.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import { agentSkillDir, nativeTeamSkillDir, squadPaths } from '../../src/core/base/paths.js';
import { BIN, cleanupTempDirs, cliResult, hashTree, runCli, tempDir, tempRepo, validSkill, writeFiles, type CliResult } from '../helpers/cli.js';
import { sharedInitSquad as initSquad } from '../helpers/shared-init.js';

afterAll(cleanupTempDirs);

function runAsync(args: string[], cwd: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve(cliResult(code ?? -1, stdout, stderr)));
  });
}

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const registryNames = (root: string) =>
  Object.values((JSON.parse(read(root, squadPaths.castingRegistry)) as { members: Record<string, { name: string }> }).members).map((m) => m.name);
const rosterNames = (root: string) => parseRoster(read(root, squadPaths.team)).map((m) => m.name);

/** A refused writer says so in one line and names the lock. */
function expectLockedRefusal(result: CliResult): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr.trim()).toMatch(/^✗ another create-squad is writing here \(pid \d+, [a-z ]+\) — .*--wait/);
}

/**
 * Racing pairs: each of the five kinds of pair (i % 5) runs once with --wait and once without
 * (i % 2), so every kind is checked both waiting for the lock and refused by it: 10 pairs with
 * CREATE_SQUAD_MATRIX=full (what .ci/run does); npm test samples 5, each kind once, both ways among them.
 */
const PAIRS = process.env.CREATE_SQUAD_MATRIX === 'full' ? 10 : 5;

describe('writers started together', () => {
  it(`${PAIRS} pairs of hire, teach, skills add, upgrade and import: every update is there, or was refused with nothing written`, async () => {
    const squad = await initSquad();
    const sources = tempDir();
    const exported = path.join(tempDir(), 'team.squad');
    expect((await runCli(['export', '--out', exported], { cwd: squad })).code).toBe(0);
    const exportedRoster = rosterNames(squad);

    // Each pair races on a squad of its own (a copy of the same one): the pairs run side by side.
    const roots: string[] = [];
    const targets: string[] = [];
    for (let i = 0; i < PAIRS; i += 1) {
      roots.push(await initSquad());
      targets.push(i % 5 === 4 ? await initSquad(['--yes', '--roles', 'Lead']) : '');
    }
    const race = async (i: number): Promise<number> => {
      const root = roots[i]!;
      let refused = 0;
      const wait = i % 2 === 0 ? ['--wait', '30'] : [];
      const kind = i % 5;
      if (kind === 0) {
        const before = registryNames(root).length;
        const [a, b] = await Promise.all([runAsync(['hire', 'Designer', ...wait], root), runAsync(['hire', 'Tester', ...wait], root)]);
        const done = [a, b].filter((r) => r.code === 0).length;
        for (const r of [a, b]) if (r.code !== 0) expectLockedRefusal(r);
        refused += 2 - done;
        expect(registryNames(root), `iteration ${i}`).toHaveLength(before + done);
        expect(rosterNames(root).length, `iteration ${i}`).toBe(registryNames(root).length + 1); // + Scribe
      } else if (kind === 1) {
        const [a, b] = await Promise.all([
          runAsync(['teach', '--team', `rule a${i}`, '--name', `rule-a${i}`, ...wait], root),
          runAsync(['teach', '--team', `rule b${i}`, '--name', `rule-b${i}`, ...wait], root),
        ]);
        for (const [r, name] of [
          [a, `rule-a${i}`],
          [b, `rule-b${i}`],
        ] as const) {
          if (r.code === 0) expect(read(root, `${nativeTeamSkillDir(name)}/SKILL.md`)).toContain(`rule ${name.slice(5, 6)}${i}`);
          else {
            expectLockedRefusal(r);
            refused += 1;
            expect(fs.existsSync(path.join(root, nativeTeamSkillDir(name))), `iteration ${i}`).toBe(false);
          }
        }
      } else if (kind === 2) {
        const names = [`lib-a${i}`, `lib-b${i}`];
        for (const name of names) writeFiles(sources, { [`${name}/SKILL.md`]: validSkill(name), [`${name}/references/r.md`]: `# ${name}\n` });
        const results = await Promise.all(names.map((name) => runAsync(['skills', 'add', path.join(sources, name), '--agent', 'fenster', ...wait], root)));
        results.forEach((r, n) => {
          const installed = path.join(root, agentSkillDir('fenster', names[n]!));
          if (r.code === 0) expect(hashTree(installed)).toBe(hashTree(path.join(sources, names[n]!)));
          else {
            expectLockedRefusal(r);
            refused += 1;
            expect(fs.existsSync(installed), `iteration ${i}`).toBe(false);
          }
        });
      } else if (kind === 3) {
        const [a, b] = await Promise.all([runAsync(['upgrade', ...wait], root), runAsync(['hire', 'DevOps', ...wait], root)]);
        for (const r of [a, b]) if (r.code !== 0) expectLockedRefusal(r);
        refused += [a, b].filter((r) => r.code !== 0).length;
        expect(rosterNames(root).length).toBe(registryNames(root).length + 1);
      } else {
        // A separate repository: import a squad while a teach runs there.
        const target = targets[i]!;
        const [imported, taught] = await Promise.all([
          runAsync(['import', exported, '--force', ...wait], target),
          runAsync(['teach', '--team', 'always rebase', '--name', 'rebase', ...wait], target),
        ]);
        for (const r of [imported, taught]) if (r.code !== 0) expectLockedRefusal(r);
        refused += [imported, taught].filter((r) => r.code !== 0).length;
        // Team skills live in .github/skills/, which an import never replaces.
        const taughtSkill = fs.existsSync(path.join(target, nativeTeamSkillDir('rebase'), 'SKILL.md'));
        expect(taughtSkill, `iteration ${i}`).toBe(taught.code === 0);
        if (imported.code === 0) expect(rosterNames(target)).toEqual(exportedRoster);
      }
      expect(fs.existsSync(path.join(root, LOCK_FILE)), `iteration ${i}: the lock is released`).toBe(false);
      return refused;
    };
    const refused = (await Promise.all(Array.from({ length: PAIRS }, (_, i) => race(i)))).reduce((sum, n) => sum + n, 0);
    // With --wait (every other iteration) nobody is refused; without it some may be.
    expect(refused).toBeLessThanOrEqual(PAIRS);
    // 20 real processes, side by side: seconds alone, more on a loaded 2-core machine.
  }, 600_000);
});

describe('the squad lock', () => {
  it('refuses a second writer in one line, and --wait waits for the first', async () => {
    const root = await initSquad();
    const lock = await acquireSquadLock(root, { command: 'test' });
    const refused = await runCli(['hire', 'Designer'], { cwd: root });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `✗ another create-squad is writing here (pid ${process.pid}, test) — run the command again when it has finished, or add --wait to wait for it`,
    );
    expect(rosterNames(root)).not.toContain('mcmanus');
    // Read-only commands and dry runs never take it.
    expect((await runCli(['doctor'], { cwd: root })).code).toBe(0);
    expect((await runCli(['hire', 'Designer', '--dry-run'], { cwd: root })).code).toBe(0);
    const waiting = runCli(['hire', 'Designer', '--wait', '10'], { cwd: root });
    setTimeout(() => lock.release(), 200);
    expect((await waiting).code).toBe(0);
    expect(rosterNames(root)).toContain('mcmanus');
    expect(fs.existsSync(path.join(root, LOCK_FILE))).toBe(false);
  });

  it('takes over the lock of a process that is gone, and never one of a live process or another host', async () => {
    const root = tempDir();
    const lockPath = path.join(root, LOCK_FILE);
    fs.writeFileSync(lockPath, JSON.stringify({ pid: 2 ** 22 + 1, host: (await import('node:os')).hostname(), command: 'hire', started: '2026-01-01T00:00:00Z' }));
    expect(isStaleLock(lockPath, readLockOwner(lockPath))).toBe(true);
    const lock = await acquireSquadLock(root, { command: 'test' });
    expect(readLockOwner(lockPath)).toMatchObject({ pid: process.pid, command: 'test' });
    lock.release();
    fs.writeFileSync(lockPath, JSON.stringify({ pid: 2 ** 22 + 1, host: 'another-machine', command: 'hire', started: '' }));
    expect(isStaleLock(lockPath, readLockOwner(lockPath))).toBe(false);
    await expect(acquireSquadLock(root, { command: 'test' })).rejects.toThrow(/another create-squad is writing here \(pid \d+ on another-machine, hire\)/);
  });

  it('doctor names a lock left by a killed run, and the next writer takes it over', async () => {
    const root = await initSquad();
    const killed = await runCli(['hire', 'Designer'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: '1' } });
    expect(killed.code).toBe(-1);
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(doctor.data<{ findings: { code: string; message: string }[] }>().findings).toContainEqual(
      expect.objectContaining({ code: 'stale-lock', message: expect.stringMatching(/^\.create-squad\.lock was left by a create-squad that did not finish \(pid \d+, hire\)$/) }),
    );
    expect((await runCli(['hire', 'Designer'], { cwd: root })).code).toBe(0);
    expect(fs.existsSync(path.join(root, LOCK_FILE))).toBe(false);
  });

  it('--wait takes only a number of seconds', async () => {
    const result = await runCli(['hire', 'Designer', '--wait', 'soon'], { cwd: tempRepo() });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^✗ --wait takes a number of seconds, not "soon"/);
  });
});
