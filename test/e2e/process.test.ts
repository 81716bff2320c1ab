/**
 * The built executable as a separate process: what only a real process shows (start-up through
 * bin/ and the bundle, exit codes, stdin, a closed pipe, a real SIGKILL in the middle of a write
 * sequence). Everything else drives the same `main` in-process (test/helpers/cli.ts).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSkillDir, squadPaths } from '../../src/core/base/paths.js';
import { REPO_ROOT, BIN, cleanupTempDirs, hashTree, initSquad, listFiles, runCli, runCliProcessAsync, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/spawn.js';
import { debris, sourceSquad } from '../helpers/portable.js';
import { LOCK_FILE } from '../../src/core/fs/lock.js';

afterAll(cleanupTempDirs);
// The squad the tests start from, made once (in-process) before the tests run side by side: where
// a squad is only the starting point, its init is not the process under test.
beforeAll(async () => {
  await initSquad();
});

const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Files a killed run may leave that a finished rerun must not: temporary files and staging folders. */
function leftovers(root: string): string[] {
  return [...listFiles(root).filter((rel) => /(^|\/)\.[^/]+\.\d+\.[0-9a-f]{8}\.tmp$/.test(rel)), ...debris(root).filter((name) => !name.startsWith('.ai-team-archive-'))];
}

// Each test starts its own processes in its own folders: the tests run side by side (with room for
// that on a loaded machine), as do those of the next describe blocks.
describe('the executable', { concurrent: true, timeout: 120_000 }, () => {
  it('answers --version and --help, and exits 0', async () => {
    const cwd = tempDir();
    const [versionRun, help] = await Promise.all([runCliProcessAsync(['--version'], { cwd }), runCliProcessAsync(['--help'], { cwd })]);
    expect(versionRun).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: create-squad/m);
  });

  it('exits 2 for a usage error and 1 for a failure, with one line and no stack trace', async () => {
    // The two run side by side, each in a repository of its own (a teach takes the squad lock
    // before it finds there is no squad). The stack trace DEBUG adds is main's (test/e2e/cli.test.ts).
    const [usage, failure] = await Promise.all([
      runCliProcessAsync(['skills', 'list', '--frob'], { cwd: tempRepo() }),
      runCliProcessAsync(['teach', 'fenster', 'use tabs'], { cwd: tempRepo() }),
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim().split('\n')).toHaveLength(1);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(/^✗ no squad found/);
    expect(failure.stderr).not.toMatch(/\n\s+at /);
  });

  it('reads a task from stdin with "-"', async () => {
    const cwd = await initSquad();
    const routed = await runCliProcessAsync(['route', '-', '--json'], { cwd, input: 'write the unit tests for the parser\n' });
    expect(routed.code, routed.stderr).toBe(0);
    expect(routed.data<{ task: string }>().task).toBe('write the unit tests for the parser');
  });

  it('ends quietly when the reader of its output goes away', async () => {
    const cwd = tempDir();
    const run = await spawnAsync('sh', ['-c', `"${process.execPath}" "${BIN}" --help | head -c 1 >/dev/null`], { cwd });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });
});

describe('output to a pipe (written to the descriptor, not through process.stdout)', { concurrent: true, timeout: 120_000 }, () => {
  /**
   * A squad whose prompt with every skill listed is far larger than a pipe holds (64 KB): one for
   * both tests, which only read it.
   */
  let root: string;
  beforeAll(async () => {
    root = await initSquad();
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i += 1)
      files[`.github/skills/area-${i}/SKILL.md`] = validSkill(`area-${i}`, `Conventions for area ${i}: ${'naming, folders and reviews. '.repeat(6)}`);
    writeFiles(root, files);
  });
  const args = ['prompt', 'fenster', '--task', 'Add pagination', '--all-skills'];

  it('stops quietly, exit 0, when the reader goes away in the middle of a large output', async () => {
    const script = `( "$0" "$1" ${args.map((a) => `'${a}'`).join(' ')}; echo "exit=$?" >&2 ) | head -c 1 >/dev/null`;
    const run = await spawnAsync('sh', ['-c', script, process.execPath, BIN], { cwd: root });
    expect(run.stderr).toBe('exit=0\n');
  });

  it('writes all of a large output to a pipe another process left non-blocking (waiting while it is full)', async () => {
    // The CLI runs in a process whose stdout pipe was made non-blocking first; the reader waits
    // before reading, so the pipe fills and writes are refused (EAGAIN) until it drains.
    const wrapper = path.join(tempDir(), 'non-blocking-stdout.cjs');
    fs.writeFileSync(wrapper, 'process.stdout._handle.setBlocking(false);\nprocess.argv = [process.execPath, ...process.argv.slice(2)];\nrequire(process.argv[1]);\n');
    const script = `"$0" "$1" "$2" ${args.map((a) => `'${a}'`).join(' ')} | (sleep 0.3; cat)`;
    const running = spawnAsync('sh', ['-c', script, process.execPath, wrapper, BIN], { cwd: root });
    // The output to expect: the same command in-process (the same text the executable writes to an ordinary pipe).
    const expected = await runCli(args, { cwd: root });
    const run = await running;
    expect(expected.code).toBe(0);
    expect(expected.stdout.length).toBeGreaterThan(128 * 1024);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(expected.stdout);
  });
});

/**
 * A real SIGKILL in the middle of the writes: the process dies, and a rerun finishes the job and
 * leaves no temporary files or staging folders behind. One command per way of writing: files
 * through the atomic writer (init), one file written whole (export), a staged folder swapped in
 * (import). Every write of every writing command is covered in-process, where the kill is
 * reproduced from a snapshot (kill-matrix.test.ts and the matrices of hire, skills, upgrade).
 */
describe('killed by SIGKILL in the middle of its writes, then run again', { concurrent: true, timeout: 120_000 }, () => {
  const killAt = (k: number) => ({ CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) });

  async function expectKilledThenFinished(root: string, args: string[], k: number): Promise<void> {
    const killed = await runCliProcessAsync(args, { cwd: root, env: killAt(k) });
    expect(killed.code, `write ${k} of ${args.join(' ')}: ${killed.stderr}`).toBe(-1);
  }

  it('init', async () => {
    const root = tempRepo();
    await expectKilledThenFinished(root, ['init', '--yes'], 10);
    const again = await runCli(['init', '--yes'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect((await runCli(['doctor'], { cwd: root })).code).toBe(0);
    expect(leftovers(root)).toEqual([]);
  });

  it('export and import', async () => {
    const source = await sourceSquad();
    const file = path.join(tempDir(), 'team.squad');
    await expectKilledThenFinished(source, ['export', '--out', file], 1);
    expect((await runCli(['export', '--out', file, '--force'], { cwd: source })).code).toBe(0);
    const target = tempRepo();
    await expectKilledThenFinished(target, ['import', file], 20);
    const again = await runCli(['import', file, '--force'], { cwd: target });
    expect(again.code, again.stderr).toBe(0);
    expect(hashTree(path.join(target, agentSkillDir('fenster', 'react-component-patterns')))).toBe(
      hashTree(path.join(source, agentSkillDir('fenster', 'react-component-patterns'))),
    );
    expect(fs.existsSync(path.join(target, squadPaths.team))).toBe(true);
  });
});

describe('interrupted with Ctrl-C (SIGINT)', () => {
  it('exits 130, writes nothing, and leaves the lock as it found it', async () => {
    const root = await initSquad();
    // Another create-squad (a live process) holds the lock; teach waits for it.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
    try {
      const lock = path.join(root, LOCK_FILE);
      const owner = JSON.stringify({ pid: holder.pid, host: os.hostname(), command: 'hire', started: new Date().toISOString() });
      fs.writeFileSync(lock, owner);
      const before = hashTree(root);
      const child = spawn(process.execPath, [BIN, 'teach', '--team', 'Never commit to main', '--wait', '600'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
      // It says when it starts waiting: from then on a Ctrl-C reaches its handler.
      await new Promise<void>((resolve) => {
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes('waiting for it to finish')) resolve();
        });
      });
      child.kill('SIGINT');
      expect(await exited).toEqual({ code: 130, signal: null });
      expect(fs.readFileSync(lock, 'utf8')).toBe(owner);
      expect(hashTree(root)).toBe(before);
    } finally {
      holder.kill();
    }
  });
});
