/**
 * The squad lock against what can stand at its path: only a regular file holding a lock record is a
 * lock; anything else is refused at once, never followed, never read past a few KB, never removed.
 * Then the owner: gone, a pid that came round again, another host; and the debris a killed writer
 * leaves beside the lock.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LOCK_DEBRIS_GLOB,
  LOCK_FILE,
  LOCK_TAKEOVER_FILE,
  LOCK_TEMP_PATTERN,
  acquireSquadLock,
  clearStaleLock,
  findLockDebris,
  lockStatus,
  processStartMs,
  readLockOwner,
  sweepLockDebris,
} from '../../src/core/fs/lock.js';
import { cleanupTempDirs, tempDir } from '../helpers/cli.js';
import { deadPid } from '../helpers/debris.js';
import { withWatchdog } from '../helpers/watchdog.js';

afterAll(cleanupTempDirs);

const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).error === undefined;
const ON_LINUX = process.platform === 'linux';
const HOST = os.hostname();

function record(owner: Record<string, unknown>): string {
  return `${JSON.stringify(owner)}\n`;
}

/** Set a path's times `seconds` in the past (without following a link). */
function age(file: string, seconds: number): void {
  const then = new Date(Date.now() - seconds * 1000);
  fs.lutimesSync(file, then, then);
}

/** A child that sleeps until killed: a live pid that is not this process. */
function sleeper(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
}

/** What the lock's error says, or undefined when taking the lock succeeded (it is released again). */
async function refusal(root: string, waitMs?: number): Promise<{ code: string; message: string; hint: string | undefined } | undefined> {
  try {
    const lock = await acquireSquadLock(root, { command: 'test', ...(waitMs === undefined ? {} : { waitMs }) });
    lock.release();
    return undefined;
  } catch (error) {
    const { code, message, hint } = error as { code: string; message: string; hint: string | undefined };
    return { code, message, hint };
  }
}

interface Obstruction {
  name: string;
  what: string;
  /** Put it at `lockPath`; what it returns undoes what must be undone (a listening socket). */
  make: (lockPath: string, scratch: string) => Promise<(() => void) | undefined> | (() => void) | undefined;
  skip?: boolean;
}

const OBSTRUCTIONS: Obstruction[] = [
  { name: 'a dangling symlink', what: 'a symlink', make: (lockPath) => void fs.symlinkSync('no-such-file', lockPath) },
  { name: 'a symlink to /dev/zero', what: 'a symlink', make: (lockPath) => void fs.symlinkSync('/dev/zero', lockPath), skip: !fs.existsSync('/dev/zero') },
  {
    name: 'a symlink to a lock-shaped file elsewhere',
    what: 'a symlink',
    make: (lockPath, scratch) => {
      const elsewhere = path.join(scratch, 'elsewhere.json');
      fs.writeFileSync(elsewhere, record({ pid: deadPid(), host: HOST, command: 'hire', started: '2020-01-01T00:00:00.000Z' }));
      fs.symlinkSync(elsewhere, lockPath);
      return undefined;
    },
  },
  { name: 'a FIFO', what: 'a FIFO (named pipe)', make: (lockPath) => void spawnSync('mkfifo', [lockPath]), skip: !HAS_MKFIFO },
  { name: 'a folder', what: 'a folder', make: (lockPath) => void fs.mkdirSync(lockPath) },
  {
    name: 'a socket',
    what: 'a socket',
    make: async (lockPath) => {
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(lockPath, resolve));
      return () => server.close();
    },
    skip: process.platform === 'win32',
  },
  { name: 'a 10 MB file', what: 'a file of 10.0 MB', make: (lockPath) => void fs.writeFileSync(lockPath, Buffer.alloc(10 * 1024 * 1024, 'x')) },
  {
    name: 'an old file in another format',
    what: 'a file in another format',
    make: (lockPath) => {
      fs.writeFileSync(lockPath, 'locked by me\n');
      age(lockPath, 60);
      return undefined;
    },
  },
  {
    name: 'an old record whose pid is not a positive integer',
    what: 'a file in another format',
    make: (lockPath) => {
      fs.writeFileSync(lockPath, record({ pid: -1, host: HOST, command: 'hire', started: '2020-01-01T00:00:00.000Z' }));
      age(lockPath, 60);
      return undefined;
    },
  },
];

describe('what stands at the lock path', () => {
  for (const obstruction of OBSTRUCTIONS) {
    it.skipIf(obstruction.skip === true)(`${obstruction.name} is refused at once, with the fix, and left in place`, async () => {
      const root = tempDir();
      const lockPath = path.join(root, LOCK_FILE);
      const undo = await obstruction.make(lockPath, tempDir());
      try {
        const before = fs.lstatSync(lockPath);
        expect(lockStatus(lockPath)).toEqual({ state: 'obstructed', what: obstruction.what });
        const refused = await withWatchdog(() => refusal(root, 5_000));
        expect(refused).toEqual({
          code: 'lock-obstructed',
          message: `cannot take the squad lock: ${LOCK_FILE} is ${obstruction.what}, not a create-squad lock`,
          hint: `remove ${LOCK_FILE} (it is ${obstruction.what}, not a create-squad lock), then run the command again`,
        });
        // Never removed, never replaced, and no private file is left beside it.
        const after = fs.lstatSync(lockPath);
        expect([after.ino, after.mode, after.size]).toEqual([before.ino, before.mode, before.size]);
        expect(fs.readdirSync(root).filter((name) => name !== LOCK_FILE)).toEqual([]);
        // A command with nothing to write leaves it alone too.
        clearStaleLock(root);
        expect(fs.lstatSync(lockPath).ino).toBe(before.ino);
      } finally {
        undo?.();
      }
    });
  }

  it('a young file in another format is taken for a lock being written: waited for, then refused', async () => {
    const root = tempDir();
    const lockPath = path.join(root, LOCK_FILE);
    fs.writeFileSync(lockPath, 'half');
    expect(lockStatus(lockPath)).toEqual({ state: 'held', owner: undefined });
    expect(await refusal(root)).toMatchObject({ code: 'locked', message: 'another create-squad is writing here' });
    expect(fs.readFileSync(lockPath, 'utf8')).toBe('half');
  });

  it('reads a lock without following a link, and only a record is an owner', () => {
    const root = tempDir();
    const lockPath = path.join(root, LOCK_FILE);
    const elsewhere = path.join(tempDir(), 'lock.json');
    fs.writeFileSync(elsewhere, record({ pid: process.pid, host: HOST, command: 'hire', started: new Date().toISOString() }));
    fs.symlinkSync(elsewhere, lockPath);
    expect(readLockOwner(lockPath)).toBeUndefined();
    fs.rmSync(lockPath);
    fs.writeFileSync(lockPath, record({ pid: 1.5, host: HOST }));
    expect(readLockOwner(lockPath)).toBeUndefined();
    fs.writeFileSync(lockPath, record({ pid: 42, host: '' }));
    expect(readLockOwner(lockPath)).toBeUndefined();
    fs.writeFileSync(lockPath, record({ pid: 42, host: 'h' }));
    expect(readLockOwner(lockPath)).toEqual({ pid: 42, host: 'h', command: 'unknown', started: '' });
  });
});

describe('whose lock it is', () => {
  it('a lock of a process that is gone is stale and taken over', async () => {
    const root = tempDir();
    const lockPath = path.join(root, LOCK_FILE);
    const owner = { pid: deadPid(), host: HOST, command: 'hire', started: new Date().toISOString() };
    fs.writeFileSync(lockPath, record(owner));
    expect(lockStatus(lockPath)).toEqual({ state: 'stale', owner, reason: 'gone' });
    const lock = await acquireSquadLock(root, { command: 'test' });
    expect(readLockOwner(lockPath)).toMatchObject({ pid: process.pid, command: 'test' });
    lock.release();
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it.skipIf(!ON_LINUX)('a lock naming pid 1 that says it was taken before pid 1 started is stale: the pid came round again', async () => {
    const root = tempDir();
    const lockPath = path.join(root, LOCK_FILE);
    const owner = { pid: 1, host: HOST, command: 'mcp', started: '2001-02-03T04:05:06.000Z' };
    fs.writeFileSync(lockPath, record(owner));
    expect(lockStatus(lockPath)).toEqual({ state: 'stale', owner, reason: 'reused' });
    const lock = await withWatchdog(() => acquireSquadLock(root, { command: 'test' }));
    expect(readLockOwner(lockPath)).toMatchObject({ pid: process.pid });
    lock.release();
    // Taken after pid 1 started: pid 1 may be a create-squad (a container's only process), so it holds it.
    fs.writeFileSync(lockPath, record({ ...owner, started: new Date().toISOString() }));
    expect(lockStatus(lockPath)).toMatchObject({ state: 'held', owner: { pid: 1 } });
  });

  it("a lock naming this process's pid from before it started is stale (a container's earlier run); one taken since is held", async () => {
    const root = tempDir();
    const lockPath = path.join(root, LOCK_FILE);
    const owner = { pid: process.pid, host: HOST, command: 'hire', started: new Date(Date.now() - process.uptime() * 1000 - 60_000).toISOString() };
    fs.writeFileSync(lockPath, record(owner));
    expect(lockStatus(lockPath)).toEqual({ state: 'stale', owner, reason: 'reused' });
    const lock = await acquireSquadLock(root, { command: 'test' });
    expect(lockStatus(lockPath)).toMatchObject({ state: 'held', owner: { pid: process.pid, command: 'test' } });
    expect(await refusal(root)).toMatchObject({ code: 'locked', message: `another create-squad is writing here (pid ${process.pid}, test)` });
    lock.release();
  });

  it('a lock of a live process on this host taken after it started is held, and waited for', async () => {
    const child = sleeper();
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const root = tempDir();
      const lockPath = path.join(root, LOCK_FILE);
      fs.writeFileSync(lockPath, record({ pid: child.pid, host: HOST, command: 'hire', started: new Date().toISOString() }));
      expect(lockStatus(lockPath)).toMatchObject({ state: 'held' });
      expect(await refusal(root, 100)).toEqual({
        code: 'locked',
        message: `another create-squad is writing here (pid ${child.pid}, hire) and did not finish in time`,
        hint: `wait for it to finish; if no create-squad is running, remove ${LOCK_FILE}`,
      });
      expect(fs.existsSync(lockPath)).toBe(true);
    } finally {
      child.kill();
    }
  });

  it('a lock of another host is never taken over: the error names the host, since when, and how to remove it', async () => {
    const root = tempDir();
    const lockPath = path.join(root, LOCK_FILE);
    const owner = { pid: deadPid(), host: 'build-box-7', command: 'hire', started: '2026-01-02T03:04:05.000Z' };
    fs.writeFileSync(lockPath, record(owner));
    expect(lockStatus(lockPath)).toEqual({ state: 'elsewhere', owner });
    expect(await refusal(root)).toEqual({
      code: 'locked',
      message: `another create-squad is writing here (pid ${owner.pid} on build-box-7, hire) since 2026-01-02T03:04:05.000Z`,
      hint: `the lock was taken on build-box-7, which create-squad cannot check from here: if no create-squad runs there any more, remove ${LOCK_FILE}, then run the command again`,
    });
    clearStaleLock(root);
    expect(readLockOwner(lockPath)).toEqual(owner);
  });
});

describe('processStartMs', () => {
  it('knows when this process started', () => {
    const start = processStartMs(process.pid)!;
    expect(start).toBeLessThanOrEqual(Date.now());
    expect(start).toBeGreaterThan(Date.now() - process.uptime() * 1000 - 1000);
  });

  it.skipIf(!ON_LINUX)('on Linux, reads when another process started from /proc, within a second of its spawn', async () => {
    const before = Date.now();
    const child = sleeper();
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const after = Date.now();
      const start = processStartMs(child.pid!)!;
      expect(start).toBeGreaterThanOrEqual(before - 1000);
      expect(start).toBeLessThanOrEqual(after + 1000);
      expect(processStartMs(1)).toBeLessThan(before);
    } finally {
      child.kill();
    }
    expect(processStartMs(deadPid())).toBeUndefined();
  });
});

describe('debris a killed writer leaves beside the lock', () => {
  it('private files and the takeover marker of dead processes are swept; those of live ones stay', async () => {
    const child = sleeper();
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const root = tempDir();
      const dead = deadPid();
      const deadTemp = `${LOCK_FILE}.${dead}.0a1b2c3d`;
      const shortTemp = `${LOCK_FILE}.${dead}.9f`; // an earlier version's shorter random part
      const liveTemp = `${LOCK_FILE}.${child.pid}.0a1b2c3d`;
      for (const name of [deadTemp, shortTemp, liveTemp]) fs.writeFileSync(path.join(root, name), record({ pid: dead, host: HOST }));
      fs.writeFileSync(path.join(root, LOCK_TAKEOVER_FILE), record({ pid: dead, host: HOST, command: 'takeover', started: new Date().toISOString() }));
      fs.writeFileSync(path.join(root, 'unrelated.txt'), 'mine\n');
      expect([deadTemp, shortTemp, liveTemp].map((name) => LOCK_TEMP_PATTERN.test(name))).toEqual([true, true, true]);
      expect(findLockDebris(root)).toEqual([LOCK_TAKEOVER_FILE, deadTemp, shortTemp].sort());

      const lock = await acquireSquadLock(root, { command: 'test' });
      lock.release();
      expect(fs.readdirSync(root).sort()).toEqual([liveTemp, 'unrelated.txt']);
      expect(findLockDebris(root)).toEqual([]);
    } finally {
      child.kill();
    }
  });

  it("an earlier version's empty takeover folder goes once it is older than a takeover takes; a young one is a takeover at work", () => {
    const root = tempDir();
    const marker = path.join(root, LOCK_TAKEOVER_FILE);
    fs.mkdirSync(marker);
    expect(sweepLockDebris(root)).toEqual([]);
    expect(fs.existsSync(marker)).toBe(true);
    age(marker, 60);
    expect(findLockDebris(root)).toEqual([LOCK_TAKEOVER_FILE]);
    expect(sweepLockDebris(root)).toEqual([LOCK_TAKEOVER_FILE]);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a stale lock behind the dead marker of a killed takeover is still taken over, at once', async () => {
    const root = tempDir();
    const dead = deadPid();
    fs.writeFileSync(path.join(root, LOCK_FILE), record({ pid: dead, host: HOST, command: 'hire', started: new Date().toISOString() }));
    fs.writeFileSync(path.join(root, LOCK_TAKEOVER_FILE), record({ pid: dead, host: HOST, command: 'takeover', started: new Date().toISOString() }));
    const lock = await withWatchdog(() => acquireSquadLock(root, { command: 'test' }));
    expect(readLockOwner(path.join(root, LOCK_FILE))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('something else at the takeover marker stops a takeover with the fix, and is left alone', async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, LOCK_FILE), record({ pid: deadPid(), host: HOST, command: 'hire', started: new Date().toISOString() }));
    fs.symlinkSync('/dev/zero', path.join(root, LOCK_TAKEOVER_FILE));
    expect(await withWatchdog(() => refusal(root))).toEqual({
      code: 'lock-obstructed',
      message: `cannot take the squad lock: ${LOCK_TAKEOVER_FILE} is a symlink, not a create-squad lock`,
      hint: `remove ${LOCK_TAKEOVER_FILE} (it is a symlink, not a create-squad lock), then run the command again`,
    });
    expect(fs.lstatSync(path.join(root, LOCK_TAKEOVER_FILE)).isSymbolicLink()).toBe(true);
  });

  it('one .gitignore rule covers them all', () => {
    expect(LOCK_DEBRIS_GLOB).toBe(`/${LOCK_FILE}.*`);
  });
});
