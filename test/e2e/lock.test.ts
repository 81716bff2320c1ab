/**
 * The squad lock through whole commands: what stands at `.create-squad.lock` instead of a lock (a
 * committed symlink, a FIFO, a folder, a large file, …) makes every writing command refuse at once
 * with the fix and write nothing, doctor report it without hanging, and the MCP server answer the
 * tool call with an error and keep serving. Stale locks of reused pids and other hosts, and what a
 * killed writer leaves beside the lock, as the commands and doctor see them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/doctor/catalog.js';
import { connectMcp } from '../helpers/mcp.js';
import { LOCK_FILE, LOCK_TAKEOVER_FILE } from '../../src/core/fs/lock.js';
import { type CliResult, cleanupTempDirs, hashTree, initSquad, runCli, runCliProcess, tempDir, tempRepo } from '../helpers/cli.js';
import { deadPid } from '../helpers/debris.js';
import { sharedWatchdog } from '../helpers/watchdog.js';

/** One watchdog thread for the file: each guarded call kills the test process if it hangs, as withWatchdog does. */
const watchdog = sharedWatchdog();
const withWatchdog = watchdog.guard;

afterAll(async () => {
  await watchdog.stop();
  await cleanupTempDirs();
});

const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).error === undefined;
const HOST = os.hostname();

interface Obstruction {
  name: string;
  what: string;
  make: (lockPath: string) => void;
  skip?: boolean;
}

const OBSTRUCTIONS: Obstruction[] = [
  { name: 'a dangling symlink', what: 'a symlink', make: (lockPath) => fs.symlinkSync('gone-long-ago.json', lockPath) },
  { name: 'a symlink to /dev/zero', what: 'a symlink', make: (lockPath) => fs.symlinkSync('/dev/zero', lockPath), skip: !fs.existsSync('/dev/zero') },
  {
    name: 'a symlink to a file elsewhere',
    what: 'a symlink',
    make: (lockPath) => {
      const elsewhere = path.join(tempDir(), 'notes.json');
      fs.writeFileSync(elsewhere, `${JSON.stringify({ pid: deadPid(), host: HOST, command: 'hire', started: '2020-01-01T00:00:00.000Z' })}\n`);
      fs.symlinkSync(elsewhere, lockPath);
    },
  },
  { name: 'a FIFO', what: 'a FIFO (named pipe)', make: (lockPath) => void spawnSync('mkfifo', [lockPath]), skip: !HAS_MKFIFO },
  {
    name: 'an old folder',
    what: 'a folder',
    make: (lockPath) => {
      fs.mkdirSync(lockPath);
      fs.writeFileSync(path.join(lockPath, 'keep.txt'), 'kept\n');
    },
  },
  { name: 'a 10 MB junk file', what: 'a file of 10.0 MB', make: (lockPath) => fs.writeFileSync(lockPath, Buffer.alloc(10 * 1024 * 1024, 0x5a)) },
];

function expectObstructed(result: CliResult, what: string): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr.trim()).toBe(
    `✗ cannot take the squad lock: ${LOCK_FILE} is ${what}, not a create-squad lock — remove ${LOCK_FILE} (it is ${what}, not a create-squad lock), then run the command again`,
  );
}

async function doctorFindings(root: string): Promise<{ code: number; findings: Finding[] }> {
  const result = await withWatchdog(() => runCli(['doctor', '--json'], { cwd: root }), 30_000, 'doctor');
  return { code: result.code, findings: result.data<{ findings: Finding[] }>().findings };
}

/** A client connected in-process to the MCP server of the squad at `root`. */
const connect = (root: string): Promise<Client> => connectMcp(root);

function toolText(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

describe('something that is not a lock at .create-squad.lock', () => {
  for (const obstruction of OBSTRUCTIONS) {
    it.skipIf(obstruction.skip === true)(`${obstruction.name}: hire, teach and init refuse at once and write nothing; doctor reports it`, async () => {
      const root = await initSquad();
      obstruction.make(path.join(root, LOCK_FILE));
      const before = hashTree(root);
      for (const args of [
        ['hire', 'Designer'],
        ['teach', '--team', 'Always run the linter before pushing'],
        ['hire', 'Designer', '--wait', '30'],
      ]) {
        expectObstructed(await withWatchdog(() => runCli(args, { cwd: root }), 30_000, args.join(' ')), obstruction.what);
        expect(hashTree(root), args.join(' ')).toEqual(before);
      }

      const { code, findings } = await doctorFindings(root);
      expect(code).toBe(1);
      expect(findings).toContainEqual({
        severity: 'error',
        code: 'lock-obstructed',
        path: LOCK_FILE,
        message: `${LOCK_FILE} is ${obstruction.what}, not a create-squad lock: every writing command refuses to run`,
        fix: `remove ${LOCK_FILE} (it is ${obstruction.what}, not a create-squad lock); create-squad never removes what it did not make`,
      });
      expect(hashTree(root)).toEqual(before);

      // A fresh repository: init finds it before writing anything.
      const fresh = tempRepo();
      obstruction.make(path.join(fresh, LOCK_FILE));
      const empty = hashTree(fresh);
      expectObstructed(await withWatchdog(() => runCli(['init', '--yes'], { cwd: fresh }), 30_000, 'init'), obstruction.what);
      expect(hashTree(fresh)).toEqual(empty);
    });
  }

  it('the built CLI, as a real process, refuses a dangling link at once instead of spinning', async () => {
    const root = await initSquad();
    fs.symlinkSync('nowhere/at/all', path.join(root, LOCK_FILE));
    const before = fs.readdirSync(root).sort();
    // Before the fix this process spun at full CPU forever: the timeout turns that into a failure.
    const result = runCliProcess(['teach', '--team', 'Keep pull requests small'], { cwd: root, timeout: 20_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^✗ cannot take the squad lock: \.create-squad\.lock is a symlink, not a create-squad lock — remove \.create-squad\.lock/);
    expect(fs.readdirSync(root).sort()).toEqual(before);
  });

  it('the MCP teach tool answers with the error at once, and the server answers the next call', async () => {
    const root = await initSquad();
    fs.symlinkSync('nowhere', path.join(root, LOCK_FILE));
    const before = hashTree(root);
    const client = await connect(root);
    const taught = (await withWatchdog(
      () => client.callTool({ name: 'teach', arguments: { team: true, instruction: 'Always write a test first' } }),
      30_000,
      'teach',
    )) as CallToolResult;
    expect(taught.isError).toBe(true);
    expect(toolText(taught)).toMatch(/^lock-obstructed: cannot take the squad lock: \.create-squad\.lock is a symlink, not a create-squad lock/);
    expect(hashTree(root)).toEqual(before);
    const listed = (await withWatchdog(() => client.callTool({ name: 'list_skills', arguments: {} }), 30_000, 'list_skills')) as CallToolResult;
    expect(listed.isError, toolText(listed)).toBeFalsy();
    await client.close();
  });
});

describe('whose lock it is, as the commands see it', () => {
  it.skipIf(process.platform !== 'linux')('a lock naming pid 1 from before pid 1 started: doctor calls it stale, and hire takes it over', async () => {
    const root = await initSquad();
    fs.writeFileSync(path.join(root, LOCK_FILE), `${JSON.stringify({ pid: 1, host: HOST, command: 'mcp', started: '2001-02-03T04:05:06.000Z' })}\n`);
    const { code, findings } = await doctorFindings(root);
    expect(code).toBe(0);
    expect(findings).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        code: 'stale-lock',
        message: `${LOCK_FILE} was left by a create-squad that did not finish (pid 1, mcp); pid 1 now belongs to a process started after the lock was taken`,
      }),
    );
    expect((await withWatchdog(() => runCli(['hire', 'Designer'], { cwd: root }))).code).toBe(0);
    expect(fs.existsSync(path.join(root, LOCK_FILE))).toBe(false);
    expect((await doctorFindings(root)).findings).toEqual([]);
  });

  it('a lock of another host is refused with the host and the time, and doctor names it', async () => {
    const root = await initSquad();
    const owner = { pid: 4242, host: 'ci-runner-3', command: 'upgrade', started: '2026-03-04T05:06:07.000Z' };
    fs.writeFileSync(path.join(root, LOCK_FILE), `${JSON.stringify(owner)}\n`);
    const before = hashTree(root);
    const refused = await runCli(['hire', 'Designer'], { cwd: root });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `✗ another create-squad is writing here (pid 4242 on ci-runner-3, upgrade) since 2026-03-04T05:06:07.000Z — the lock was taken on ci-runner-3, which create-squad cannot check from here: if no create-squad runs there any more, remove ${LOCK_FILE}, then run the command again`,
    );
    expect(hashTree(root)).toEqual(before);
    const { code, findings } = await doctorFindings(root);
    expect(code).toBe(0);
    expect(findings).toEqual([
      {
        severity: 'warning',
        code: 'lock-other-host',
        path: LOCK_FILE,
        message: `${LOCK_FILE} was taken on another host, ci-runner-3 (pid 4242, upgrade) since 2026-03-04T05:06:07.000Z: writing commands here wait for it and never take it over`,
        fix: `if no create-squad runs on ci-runner-3 any more, delete ${LOCK_FILE}`,
      },
    ]);
  });
});

describe('what a killed writer leaves beside the lock', () => {
  it('doctor reports private files and takeover markers of dead processes; the next writing command removes them', async () => {
    const root = await initSquad();
    const dead = deadPid();
    const temp = `${LOCK_FILE}.${dead}.5e5e5e5e`;
    fs.writeFileSync(path.join(root, temp), `${JSON.stringify({ pid: dead, host: HOST, command: 'hire', started: new Date().toISOString() })}\n`);
    fs.writeFileSync(path.join(root, LOCK_TAKEOVER_FILE), `${JSON.stringify({ pid: dead, host: HOST, command: 'takeover', started: new Date().toISOString() })}\n`);
    const { code, findings } = await doctorFindings(root);
    expect(code).toBe(0);
    expect(findings.filter((f) => f.code === 'lock-debris')).toEqual(
      [LOCK_TAKEOVER_FILE, temp].sort().map((name) => ({
        severity: 'warning',
        code: 'lock-debris',
        path: name,
        message: `${name} was left beside the lock by a create-squad that was killed`,
        fix: `run any writing command (it removes it), or delete ${name}`,
      })),
    );
    expect((await runCli(['teach', '--team', 'Keep pull requests small'], { cwd: root })).code).toBe(0);
    expect(fs.readdirSync(root).filter((name) => name.startsWith(LOCK_FILE))).toEqual([]);
    expect((await doctorFindings(root)).findings).toEqual([]);
  });

  it("an earlier version's takeover folder left by a kill is removed by the next writing command", async () => {
    const root = await initSquad();
    const marker = path.join(root, LOCK_TAKEOVER_FILE);
    fs.mkdirSync(marker);
    const then = new Date(Date.now() - 60_000);
    fs.utimesSync(marker, then, then);
    expect((await doctorFindings(root)).findings.map((f) => f.code)).toContain('lock-debris');
    expect((await runCli(['hire', 'Designer'], { cwd: root })).code).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
