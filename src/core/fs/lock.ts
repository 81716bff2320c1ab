/**
 * The squad lock: one writing command at a time per repository.
 *
 * A writing command (init, hire, teach, skills add, upgrade, import) holds `.create-squad.lock` at
 * the repository root from before it reads the squad until its last write, so two commands started
 * together (the coordinator runs CLI calls in parallel) never plan from the same state and
 * overwrite each other. Read-only commands and dry runs never take it.
 *
 * - Taken by creating the file exclusively (a hard link, which fails when it exists); it records
 *   pid, host, command and start time.
 * - A lock whose process is gone (same host, pid not running) is stale and taken over. Two
 *   commands that find the same stale lock decide through a short-lived takeover folder, so only
 *   one of them removes it.
 * - The lock lives beside `.ai-team/`, not inside it: import moves `.ai-team/` as a whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import { isMapping } from '../base/util.js';

export const LOCK_FILE = '.create-squad.lock';
const TAKEOVER_SUFFIX = '.takeover';
/** A takeover folder older than this was left by a killed process (a takeover takes milliseconds). */
const TAKEOVER_STALE_MS = 10_000;
const POLL_MS = 50;

export interface LockOwner {
  pid: number;
  host: string;
  command: string;
  /** ISO-8601 time the lock was taken. */
  started: string;
}

export interface LockOptions {
  /** What is writing (shown to a command that finds the lock taken). */
  command: string;
  /** Wait up to this many milliseconds for the lock instead of refusing at once. */
  waitMs?: number;
  /** Told once, when the lock is taken and the wait begins: what holds it. */
  onWait?: (holder: string) => void;
}

export interface SquadLock {
  readonly path: string;
  release(): void;
}

/** Whether a process with this pid runs on this machine (EPERM: it runs, as another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The owner recorded in a lock file, or undefined when it cannot be read or parsed. */
export function readLockOwner(lockPath: string): LockOwner | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as unknown;
    if (!isMapping(value) || typeof value.pid !== 'number' || typeof value.host !== 'string') return undefined;
    return {
      pid: value.pid,
      host: value.host,
      command: typeof value.command === 'string' ? value.command : 'unknown',
      started: typeof value.started === 'string' ? value.started : '',
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether a lock's owner is certainly gone: it ran on this host and its pid is not running. A lock
 * from another host (a shared folder) is never taken over; a lock that cannot be read is stale
 * only once it is older than the takeover window (its writer had time to fill it).
 */
export function isStaleLock(lockPath: string, owner: LockOwner | undefined, now = Date.now()): boolean {
  if (owner === undefined) {
    try {
      return now - fs.statSync(lockPath).mtimeMs > TAKEOVER_STALE_MS;
    } catch {
      return false;
    }
  }
  return owner.host === os.hostname() && owner.pid !== process.pid && !isProcessAlive(owner.pid);
}

/** Take the squad lock of `root`, waiting up to `waitMs` for another writer to finish. */
export async function acquireSquadLock(root: string, options: LockOptions): Promise<SquadLock> {
  const lockPath = path.join(root, LOCK_FILE);
  const deadline = Date.now() + (options.waitMs ?? 0);
  let waiting = false;
  for (;;) {
    if (tryCreate(lockPath, options.command)) return heldLock(lockPath);
    const owner = readLockOwner(lockPath);
    if (owner === undefined && !fs.existsSync(lockPath)) continue; // released meanwhile: try again
    if (isStaleLock(lockPath, owner)) {
      takeOverStale(lockPath, owner);
      continue;
    }
    if (Date.now() >= deadline) throw lockedError(owner, options.waitMs !== undefined && options.waitMs > 0);
    if (!waiting) {
      waiting = true;
      options.onWait?.(`another create-squad is writing here${holderText(owner)}; waiting for it to finish (Ctrl-C stops)`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Run `work` holding the squad lock; the lock is released however `work` ends. */
export async function withSquadLock<T>(root: string, options: LockOptions, work: () => Promise<T> | T): Promise<T> {
  const lock = await acquireSquadLock(root, options);
  try {
    return await work();
  } finally {
    lock.release();
  }
}

/**
 * Remove the lock a killed run left (its process is gone), if there is one: what a writing command
 * that finds nothing to write does, so a successful rerun leaves no debris of the killed one.
 */
export function clearStaleLock(root: string): void {
  const lockPath = path.join(root, LOCK_FILE);
  if (!fs.existsSync(lockPath)) return;
  const owner = readLockOwner(lockPath);
  try {
    if (isStaleLock(lockPath, owner)) takeOverStale(lockPath, owner);
  } catch {
    // A read-only disk: the lock stays, and the next command that writes takes it over.
  }
}

function ownerRecord(command: string): string {
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), command, started: new Date().toISOString() };
  return `${JSON.stringify(owner)}\n`;
}

/**
 * Create the lock file exclusively, already filled: the record goes to a private file first and is
 * hard-linked into place (link fails when the lock exists), so nobody ever reads an empty lock.
 * False when the lock exists; other failures (a read-only disk) throw.
 */
function tryCreate(lockPath: string, command: string): boolean {
  const temp = `${lockPath}.${process.pid}.${Math.random().toString(16).slice(2, 10)}`;
  try {
    fs.writeFileSync(temp, ownerRecord(command), { flag: 'wx', mode: 0o644 });
    fs.linkSync(temp, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'ENOENT') {
      throw new SquadError('not-found', `the folder ${path.dirname(lockPath)} does not exist`, { hint: 'check the path, or create the folder first' });
    }
    throw new SquadError('not-writable', `cannot create ${LOCK_FILE} in ${path.dirname(lockPath)} (${code ?? 'error'})`, {
      hint: 'make the repository writable for your user, then run the command again',
      cause: error,
    });
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function heldLock(lockPath: string): SquadLock {
  const mine = fs.readFileSync(lockPath, 'utf8');
  let released = false;
  return {
    path: lockPath,
    release() {
      if (released) return;
      released = true;
      // Remove only our own lock: never one another process took over meanwhile.
      try {
        if (fs.readFileSync(lockPath, 'utf8') === mine) fs.unlinkSync(lockPath);
      } catch {
        // already gone
      }
    },
  };
}

/**
 * Remove a stale lock, unless someone else is doing the same: the takeover folder is created
 * exclusively, and the lock is read again inside it, so a fresh lock that replaced the stale one
 * meanwhile is never removed.
 */
function takeOverStale(lockPath: string, seen: LockOwner | undefined): void {
  const takeover = lockPath + TAKEOVER_SUFFIX;
  try {
    fs.mkdirSync(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    removeStaleTakeover(takeover);
    return; // someone else is taking it over: try again from the start
  }
  try {
    const now = readLockOwner(lockPath);
    if (sameOwner(now, seen) && isStaleLock(lockPath, now)) fs.rmSync(lockPath, { force: true });
  } finally {
    fs.rmSync(takeover, { recursive: true, force: true });
  }
}

function removeStaleTakeover(takeover: string): void {
  try {
    if (Date.now() - fs.statSync(takeover).mtimeMs > TAKEOVER_STALE_MS) fs.rmSync(takeover, { recursive: true, force: true });
  } catch {
    // gone already
  }
}

function sameOwner(a: LockOwner | undefined, b: LockOwner | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.pid === b.pid && a.host === b.host && a.started === b.started;
}

function holderText(owner: LockOwner | undefined): string {
  return owner ? ` (pid ${owner.pid}${owner.host === os.hostname() ? '' : ` on ${owner.host}`}, ${owner.command})` : '';
}

function lockedError(owner: LockOwner | undefined, waited: boolean): SquadError {
  const who = holderText(owner);
  return new SquadError('locked', `another create-squad is writing here${who}${waited ? ' and did not finish in time' : ''}`, {
    hint: waited ? `wait for it to finish; if no create-squad is running, remove ${LOCK_FILE}` : `run the command again when it has finished, or add --wait to wait for it`,
  });
}
