/**
 * The squad lock: one writing command at a time per repository.
 *
 * A writing command (init, hire, teach, skills add, upgrade, import) holds `.create-squad.lock` at
 * the repository root from before it reads the squad until its last write, so two commands started
 * together (the coordinator runs CLI calls in parallel) never plan from the same state and
 * overwrite each other. Read-only commands and dry runs never take it.
 *
 * - Taken by creating the file exclusively (a hard link of a filled private file, which fails when
 *   the name exists); it records pid, host, command and start time.
 * - Only a regular file holding such a record is a lock. The path is opened without following a
 *   link and without blocking, and at most LOCK_MAX_BYTES are read: anything else there (a link, a
 *   folder, a FIFO, a device, a socket, a large or foreign file) is refused at once
 *   (lock-obstructed), never removed, never waited for.
 * - A lock whose process is gone (same host, pid not running, or running but started after the
 *   lock was taken: the pid came round again) is stale and taken over. Two commands that find the
 *   same stale lock decide through a takeover marker, so only one of them removes it. A lock from
 *   another host is never taken over: the error names the host and the time.
 * - What a killed run leaves (its private files, its takeover marker) is removed by the next
 *   writing command, once the process that made it is gone.
 * - The lock lives beside `.ai-team/`, not inside it: import moves `.ai-team/` as a whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import { isMapping } from '../base/util.js';
import { holdWorkPath, randomId, specialKind, sweepDebris } from './fs-safe.js';

export const LOCK_FILE = '.create-squad.lock';
const TAKEOVER_SUFFIX = '.takeover';
/** The takeover marker: who is removing a stale lock now (a lock record of its own). */
export const LOCK_TAKEOVER_FILE = `${LOCK_FILE}${TAKEOVER_SUFFIX}`;
/**
 * The private files a lock and a takeover marker are linked from, `.create-squad.lock.<pid>.<hex>`;
 * the first group is the pid of the process that made it (left behind only when it was killed).
 */
export const LOCK_TEMP_PATTERN = /^\.create-squad\.lock\.(\d+)\.[0-9a-f]{1,8}$/;
/** The .gitignore rule for what a killed writing command may leave beside the lock: its private files and its takeover marker. */
export const LOCK_DEBRIS_GLOB = `/${LOCK_FILE}.*`;
/** A takeover marker older than this was left by a killed or stuck process (a takeover takes milliseconds). */
const TAKEOVER_STALE_MS = 10_000;
/** A lock record is a few dozen bytes: a bigger file at the lock's path is not one. */
const LOCK_MAX_BYTES = 4096;
/**
 * How much earlier than its process a lock must say it was taken before the pid counts as reused:
 * the start time the system reports and the clock of the lock's writer may disagree a little.
 */
const START_SLACK_MS = 5_000;
/** Clock ticks per second in /proc/<pid>/stat (USER_HZ: 100 on every Linux architecture Node runs on). */
const CLOCK_TICKS_PER_SECOND = 100;
const POLL_MS = 50;
const TAKEOVER_POLL_MS = 10;

export interface LockOwner {
  pid: number;
  host: string;
  command: string;
  /** ISO-8601 time the lock was taken. */
  started: string;
}

/**
 * What is at the lock's path, judged:
 * - `free`: nothing;
 * - `held`: a create-squad on this host that runs (owner undefined: a record that is still being
 *   written, a file too young to call foreign);
 * - `stale`: the lock of a process that is gone (`gone`), or whose pid now belongs to a process
 *   started after the lock was taken (`reused`): the next writing command takes it over;
 * - `elsewhere`: the lock of another host, which cannot be checked from here: never taken over;
 * - `obstructed`: something that is not a create-squad lock (`what`, such as "a symlink"): every
 *   writing command refuses until it is removed.
 */
export type LockStatus =
  | { state: 'free' }
  | { state: 'held'; owner: LockOwner | undefined }
  | { state: 'stale'; owner: LockOwner; reason: 'gone' | 'reused' }
  | { state: 'elsewhere'; owner: LockOwner }
  | { state: 'obstructed'; what: string };

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

/**
 * When the running process `pid` started, in milliseconds since the epoch, where the platform says:
 * this process always, others on Linux (/proc/<pid>/stat field 22, in clock ticks since boot,
 * against /proc/uptime); undefined elsewhere or when it cannot be read.
 */
export function processStartMs(pid: number): number | undefined {
  if (pid === process.pid) return Date.now() - process.uptime() * 1000;
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptimeSeconds = Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    if (!Number.isFinite(ticks) || !Number.isFinite(uptimeSeconds)) return undefined;
    return Date.now() - (uptimeSeconds - ticks / CLOCK_TICKS_PER_SECOND) * 1000;
  } catch {
    return undefined;
  }
}

/** What a lock's path holds, read without following a link, without blocking, and at most LOCK_MAX_BYTES. */
type LockRecord =
  | { kind: 'none' }
  | { kind: 'record'; owner: LockOwner; text: string }
  | { kind: 'foreign'; what: string; mtimeMs: number }
  | { kind: 'obstruction'; what: string };

function readLockRecord(lockPath: string): LockRecord {
  let before: fs.Stats;
  try {
    before = fs.lstatSync(lockPath);
  } catch {
    return { kind: 'none' };
  }
  // Never opened unless it is a regular file: opening a device or a FIFO may block or act.
  const kind = specialKind(before);
  if (kind !== undefined) return { kind: 'obstruction', what: kind };
  let fd: number;
  try {
    fd = fs.openSync(lockPath, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'none' };
    if (code === 'ELOOP') return { kind: 'obstruction', what: 'a symlink' };
    // Another user's lock under a strict umask: theirs while it is young, as a foreign file is.
    return { kind: 'foreign', what: `a file create-squad cannot read (${code ?? 'error'})`, mtimeMs: before.mtimeMs };
  }
  try {
    const stat = fs.fstatSync(fd); // what was opened, which may have replaced what lstat saw
    const opened = specialKind(stat);
    if (opened !== undefined) return { kind: 'obstruction', what: opened };
    const buffer = Buffer.alloc(LOCK_MAX_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, length);
      length += n;
      if (n === 0 || length === buffer.length) break;
    }
    if (length > LOCK_MAX_BYTES) return { kind: 'obstruction', what: `a file of ${sizeText(Math.max(stat.size, length))}` };
    const text = buffer.subarray(0, length).toString('utf8');
    const owner = parseLockOwner(text);
    return owner ? { kind: 'record', owner, text } : { kind: 'foreign', what: 'a file in another format', mtimeMs: stat.mtimeMs };
  } catch (error) {
    return { kind: 'obstruction', what: `a file create-squad cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    fs.closeSync(fd);
  }
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${bytes} bytes`;
}

/** A lock record: a pid that can be one (a positive integer), a host, the command and when. */
function parseLockOwner(text: string): LockOwner | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isMapping(value) || typeof value.host !== 'string' || value.host === '') return undefined;
  const pid = value.pid;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || pid >= 2 ** 31) return undefined;
  return {
    pid,
    host: value.host,
    command: typeof value.command === 'string' ? value.command : 'unknown',
    started: typeof value.started === 'string' ? value.started : '',
  };
}

/** The owner recorded in a lock file, or undefined when nothing there is a lock record. */
export function readLockOwner(lockPath: string): LockOwner | undefined {
  const record = readLockRecord(lockPath);
  return record.kind === 'record' ? record.owner : undefined;
}

/** Whether the process that took a lock (or a takeover marker) is there: on this host, running, and started no later than the lock. */
function judgeOwner(owner: LockOwner): 'live' | 'gone' | 'reused' | 'elsewhere' {
  if (owner.host !== os.hostname()) return 'elsewhere';
  if (owner.pid !== process.pid && !isProcessAlive(owner.pid)) return 'gone';
  const taken = Date.parse(owner.started);
  const start = Number.isNaN(taken) ? undefined : processStartMs(owner.pid);
  return start !== undefined && taken < start - START_SLACK_MS ? 'reused' : 'live';
}

function statusOf(record: LockRecord, now: number): LockStatus {
  switch (record.kind) {
    case 'none':
      return { state: 'free' };
    case 'obstruction':
      return { state: 'obstructed', what: record.what };
    case 'foreign':
      // Locks are linked into place filled, so this is not one; young, it gets the benefit of the doubt.
      return now - record.mtimeMs > TAKEOVER_STALE_MS ? { state: 'obstructed', what: record.what } : { state: 'held', owner: undefined };
    case 'record': {
      const verdict = judgeOwner(record.owner);
      if (verdict === 'gone' || verdict === 'reused') return { state: 'stale', owner: record.owner, reason: verdict };
      return verdict === 'elsewhere' ? { state: 'elsewhere', owner: record.owner } : { state: 'held', owner: record.owner };
    }
  }
}

/** What is at the lock's path `lockPath`, judged (see LockStatus). Never blocks, never follows a link. */
export function lockStatus(lockPath: string, now = Date.now()): LockStatus {
  return statusOf(readLockRecord(lockPath), now);
}

/** Whether the lock at `lockPath` is still `owner`'s and stale (see LockStatus). */
export function isStaleLock(lockPath: string, owner: LockOwner | undefined): boolean {
  const status = lockStatus(lockPath);
  return status.state === 'stale' && sameOwner(status.owner, owner);
}

/** Take the squad lock of `root`, waiting up to `waitMs` for another writer to finish. */
export async function acquireSquadLock(root: string, options: LockOptions): Promise<SquadLock> {
  const lockPath = path.join(root, LOCK_FILE);
  const deadline = Date.now() + (options.waitMs ?? 0);
  let waiting = false;
  for (;;) {
    const record = ownerRecord(options.command);
    if (createExclusive(lockPath, lockPath, record)) {
      sweepLockDebris(root);
      return heldLock(lockPath, record);
    }
    const status = lockStatus(lockPath);
    if (status.state === 'free') continue; // released meanwhile: try again
    if (status.state === 'obstructed') throw obstructedError(LOCK_FILE, status.what);
    if (status.state === 'stale') {
      // Another command is taking it over: its marker goes within milliseconds (or ages out).
      if (!takeOverStale(lockPath, status.owner)) await sleep(TAKEOVER_POLL_MS);
      continue;
    }
    if (Date.now() >= deadline) throw lockedError(status, options.waitMs !== undefined && options.waitMs > 0);
    if (!waiting) {
      waiting = true;
      options.onWait?.(`another create-squad is writing here${holderText(status)}; waiting for it to finish (Ctrl-C stops)`);
    }
    await sleep(POLL_MS);
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
 * Remove the lock a killed run left (its process is gone), if there is one, and that run's other
 * debris: what a writing command that finds nothing to write does, so a successful rerun leaves no
 * debris of the killed one. Anything that is not a stale lock stays (doctor reports it).
 */
export function clearStaleLock(root: string): void {
  const lockPath = path.join(root, LOCK_FILE);
  try {
    const status = lockStatus(lockPath);
    if (status.state === 'stale') takeOverStale(lockPath, status.owner);
    sweepLockDebris(root);
  } catch {
    // A read-only disk, or a takeover marker in the way: the next command that writes deals with it.
  }
}

/**
 * Remove, at `root`, what killed writing commands left beside the lock: their private files (once
 * their process is gone; see sweepDebris) and a takeover marker whose process is gone or which is
 * older than a takeover can take. Returns the names removed. Never throws: what stays, doctor reports.
 */
export function sweepLockDebris(root: string): string[] {
  const removed = sweepDebris(root, LOCK_TEMP_PATTERN, 'file');
  const marker = path.join(root, LOCK_TAKEOVER_FILE);
  try {
    if (takeoverState(marker, Date.now()) === 'dead' && clearDeadTakeover(marker)) removed.push(LOCK_TAKEOVER_FILE);
  } catch {
    // not ours, or not removable: left for doctor to report
  }
  return removed;
}

/**
 * The names at `root` that sweepLockDebris would remove now: what doctor reports. A takeover
 * marker that is not ours is left to the takeover (which refuses it).
 */
export function findLockDebris(root: string, now = Date.now()): string[] {
  const names: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  // As sweepDebris judges them (doctor holds no private file of its own).
  for (const entry of entries) {
    const pid = LOCK_TEMP_PATTERN.exec(entry.name)?.[1];
    if (pid !== undefined && entry.isFile() && (Number(pid) === process.pid || !isProcessAlive(Number(pid)))) names.push(entry.name);
  }
  const marker = path.join(root, LOCK_TAKEOVER_FILE);
  if (takeoverState(marker, now) === 'dead') names.push(LOCK_TAKEOVER_FILE);
  return names.sort();
}

function ownerRecord(command: string): string {
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), command, started: new Date().toISOString() };
  return `${JSON.stringify(owner)}\n`;
}

/**
 * Create `target` exclusively, already filled with `record`: the record goes to a private file
 * beside the lock first and is hard-linked into place (link fails when the name exists), so nobody
 * ever reads an empty lock. False when the name exists; other failures (a read-only disk) throw.
 */
function createExclusive(lockPath: string, target: string, record: string): boolean {
  const temp = `${lockPath}.${process.pid}.${randomId()}`;
  const release = holdWorkPath(temp); // not debris to a sweep this process runs meanwhile
  try {
    fs.writeFileSync(temp, record, { flag: 'wx', mode: 0o644 });
    fs.linkSync(temp, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false; // the name is taken (or, once in billions, the private name: the caller tries again)
    if (code === 'ENOENT') {
      throw new SquadError('not-found', `the folder ${path.dirname(lockPath)} does not exist`, { hint: 'check the path, or create the folder first' });
    }
    throw notWritable(`create ${path.basename(target)}`, path.dirname(lockPath), error);
  } finally {
    fs.rmSync(temp, { force: true });
    release();
  }
}

function notWritable(what: string, dir: string, error: unknown): SquadError {
  return new SquadError('not-writable', `cannot ${what} in ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
    hint: 'make the repository writable for your user, then run the command again',
    cause: error,
  });
}

function heldLock(lockPath: string, mine: string): SquadLock {
  let released = false;
  return {
    path: lockPath,
    release() {
      if (released) return;
      released = true;
      // Remove only our own lock: never one another process took over meanwhile, nor what replaced it.
      removeIfRecord(lockPath, mine);
    },
  };
}

/** Unlink `file` when it holds exactly `text` (a record this process wrote). */
function removeIfRecord(file: string, text: string): void {
  const now = readLockRecord(file);
  if (now.kind !== 'record' || now.text !== text) return;
  try {
    fs.unlinkSync(file);
  } catch {
    // already gone
  }
}

/**
 * Remove the stale lock of `seen`, unless another command is doing the same: the takeover marker
 * is created exclusively, and the lock is read again behind it, so a fresh lock that replaced the
 * stale one meanwhile is never removed. False when another command holds the marker.
 */
function takeOverStale(lockPath: string, seen: LockOwner): boolean {
  const marker = lockPath + TAKEOVER_SUFFIX;
  const record = ownerRecord('takeover');
  if (!createExclusive(lockPath, marker, record)) return clearDeadTakeover(marker);
  try {
    const now = readLockRecord(lockPath);
    if (now.kind === 'record' && sameOwner(now.owner, seen) && statusOf(now, Date.now()).state === 'stale') fs.unlinkSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw notWritable(`remove the stale ${LOCK_FILE}`, path.dirname(lockPath), error);
  } finally {
    removeIfRecord(marker, record);
  }
  return true;
}

/**
 * A takeover marker: `live` (a takeover at work), `dead` (its process is gone, or it is older than
 * a takeover takes: a killed run's), `none`, or what stands there instead (an obstruction).
 */
function takeoverState(marker: string, now: number): 'none' | 'live' | 'dead' | { what: string } {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(marker);
  } catch {
    return 'none';
  }
  const old = now - stat.mtimeMs > TAKEOVER_STALE_MS;
  // Earlier versions made an empty folder here: one that old was left by a killed run.
  if (stat.isDirectory()) return old ? 'dead' : 'live';
  const record = readLockRecord(marker);
  if (record.kind === 'none') return 'none';
  if (record.kind === 'obstruction') return { what: record.what };
  if (record.kind === 'foreign') return old ? { what: record.what } : 'live';
  const verdict = judgeOwner(record.owner);
  return old || verdict === 'gone' || verdict === 'reused' ? 'dead' : 'live';
}

/** Remove a dead takeover marker (see takeoverState). True when none is left; throws lock-obstructed for what is not one. */
function clearDeadTakeover(marker: string): boolean {
  const state = takeoverState(marker, Date.now());
  if (state === 'none') return true;
  if (state === 'live') return false;
  if (state !== 'dead') throw obstructedError(LOCK_TAKEOVER_FILE, state.what);
  try {
    if (fs.lstatSync(marker).isDirectory()) fs.rmdirSync(marker);
    else fs.unlinkSync(marker);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw obstructedError(LOCK_TAKEOVER_FILE, 'a folder that is not empty');
    if (code !== 'ENOENT') throw error;
  }
  return true;
}

function sameOwner(a: LockOwner | undefined, b: LockOwner | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.pid === b.pid && a.host === b.host && a.started === b.started;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function holderText(status: LockStatus): string {
  if (status.state !== 'held' && status.state !== 'elsewhere') return '';
  const owner = status.owner;
  if (owner === undefined) return '';
  return status.state === 'elsewhere'
    ? ` (pid ${owner.pid} on ${owner.host}, ${owner.command}) since ${owner.started || 'an unknown time'}`
    : ` (pid ${owner.pid}, ${owner.command})`;
}

function lockedError(status: LockStatus, waited: boolean): SquadError {
  const message = `another create-squad is writing here${holderText(status)}${waited ? ' and did not finish in time' : ''}`;
  if (status.state === 'elsewhere') {
    const host = status.owner.host;
    return new SquadError('locked', message, {
      hint: `the lock was taken on ${host}, which create-squad cannot check from here: if no create-squad runs there any more, remove ${LOCK_FILE}, then run the command again`,
    });
  }
  return new SquadError('locked', message, {
    hint: waited ? `wait for it to finish; if no create-squad is running, remove ${LOCK_FILE}` : `run the command again when it has finished, or add --wait to wait for it`,
  });
}

/** The refusal of something at the lock's path (or the takeover marker's) that create-squad did not make. */
function obstructedError(name: string, what: string): SquadError {
  return new SquadError('lock-obstructed', `cannot take the squad lock: ${name} is ${what}, not a create-squad lock`, {
    hint: `remove ${name} (it is ${what}, not a create-squad lock), then run the command again`,
  });
}
