/**
 * The one way create-squad writes to a user's repository.
 *
 * - Atomic: content goes to a temporary file in the same folder, then `rename` puts it in place,
 *   so a reader (or a crash) sees the old file or the new one, never half of one.
 * - Contained: paths are repo-relative; `..`, absolute paths, NUL and backslashes are refused, and a
 *   symlink on the way that leads out of the root is refused, as is writing through a symlink.
 * - Regular files only: a write replaces a regular file or nothing, never a folder, a FIFO, a socket
 *   or a device node (with or without --force); those are refused with the path and the fix.
 * - Tidy: a write removes, in the folder it writes to, the temporary files that killed runs left
 *   (their process is gone); every writing command sweeps the rest (debris.ts, the registry of
 *   every temporary name create-squad makes).
 * - Countable: every completed write or move is counted. For crash-safety tests the environment
 *   variable CREATE_SQUAD_CRASH_AFTER_WRITES=k kills the process (SIGKILL) right after the k-th one,
 *   and an in-process observer (observeWrites) sees the tree after each one;
 *   CREATE_SQUAD_FAULT_AT_WRITE=k:ENOSPC (or EIO, …) makes the k-th one fail with that error
 *   (injectWriteFault in-process), as a full or failing disk would.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import { isProcessAlive } from './lock.js';
import { isIgnoredEntry } from '../base/paths.js';
import { compareCodePoints } from '../base/util.js';
import { STATE_FILE_MAX_BYTES } from '../base/limits.js';

export const CRASH_AFTER_WRITES_ENV = 'CREATE_SQUAD_CRASH_AFTER_WRITES';
/** `k:CODE`: the k-th write fails with the error code CODE (ENOSPC, EIO, …); a test-only hook. */
export const FAULT_AT_WRITE_ENV = 'CREATE_SQUAD_FAULT_AT_WRITE';

let completedWrites = 0;

/** Called right after each completed write or move, with the count since it was installed. */
export type WriteObserver = (count: number) => void;
let observer: { notify: WriteObserver; count: number } | undefined;

/**
 * Install (or, with undefined, remove) the write observer. Crash tests use it to see the disk as
 * a kill after any write would leave it; an observer that throws stops the command there.
 */
export function observeWrites(notify: WriteObserver | undefined): void {
  observer = notify === undefined ? undefined : { notify, count: 0 };
}

/** A fault to inject: the write after `at - 1` completed ones fails with `code`, once. */
interface WriteFault {
  at: number;
  code: string;
  /** Completed writes counted since it was installed (in-process), or undefined: the process's count. */
  count?: number;
}
let fault: WriteFault | undefined;
let envFaultFired = false;

/** Parse `k:CODE` (see FAULT_AT_WRITE_ENV); undefined when malformed. */
export function parseWriteFault(spec: string): { at: number; code: string } | undefined {
  const match = /^(\d+):([A-Z][A-Z0-9]*)$/.exec(spec.trim());
  return match ? { at: Number(match[1]), code: match[2]! } : undefined;
}

/**
 * Install (or, with undefined, remove) a fault for in-process tests: the `at`-th write from now
 * fails with the error `code`, as the disk would report it; later writes succeed.
 */
export function injectWriteFault(spec: { at: number; code: string } | undefined): void {
  fault = spec === undefined ? undefined : { ...spec, count: 0 };
}

/** Throw the injected fault when the write about to be made is the one it names (see injectWriteFault). */
function faultBeforeWrite(): void {
  let active = fault;
  if (active === undefined && !envFaultFired) {
    const spec = process.env[FAULT_AT_WRITE_ENV];
    const parsed = spec === undefined ? undefined : parseWriteFault(spec);
    if (parsed !== undefined) active = parsed;
  }
  if (active === undefined || (active.count ?? completedWrites) + 1 !== active.at) return;
  if (active === fault) fault = undefined;
  else envFaultFired = true;
  throw Object.assign(new Error(`${active.code} (injected at write ${active.at})`), { code: active.code });
}

function countWrite(): void {
  completedWrites += 1;
  if (fault?.count !== undefined) fault.count += 1;
  if (observer) {
    observer.count += 1;
    observer.notify(observer.count);
  }
  const crashAfter = process.env[CRASH_AFTER_WRITES_ENV];
  if (crashAfter !== undefined && Number(crashAfter) === completedWrites) {
    process.kill(process.pid, 'SIGKILL');
  }
}

type Crypto = typeof import('node:crypto');
let cryptoModule: Crypto | undefined;
/** node:crypto, loaded on first use: commands that only read never pay for it. */
function crypto(): Crypto {
  cryptoModule ??= createRequire(import.meta.url)('node:crypto') as Crypto;
  return cryptoModule;
}

/** Eight random hex digits, for names of temporary files and folders. */
export function randomId(): string {
  return crypto().randomBytes(4).toString('hex');
}

/** Name of the temporary file a write of `base` goes through (left behind only if the process dies). */
export function tempFileName(base: string): string {
  return `.${base}.${process.pid}.${randomId()}.tmp`;
}
/** Matches the names tempFileName makes; the first group is the pid of the process that made it. */
export const TEMP_FILE_PATTERN = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;
/** The file ensureWritableDir writes and removes at once to see that a folder takes files (the pid is the first group). */
export const PROBE_PATTERN = /^\.create-squad-probe-(\d+)-[0-9a-f]{8}$/;

/**
 * `{pid}-{8 hex digits}`: the end of the name of a staging folder (paths.ts), so that a later run
 * can tell the debris of a killed run (its process is gone) from another run's work in progress.
 */
export function workId(): string {
  return `${process.pid}-${randomId()}`;
}

// ---------------------------------------------------------------- debris of killed runs

/** Temporary files and staging folders this process is using now (absolute paths). */
const inUse = new Set<string>();

/** Mark `absPath` (a staging folder this process made) as in use until the returned function is called. */
export function holdWorkPath(absPath: string): () => void {
  inUse.add(absPath);
  return () => inUse.delete(absPath);
}

/**
 * Whether a temporary file or staging folder at `absPath`, whose name records `pid`, is debris: the
 * process that made it is gone, or it is this process and it is not using it now (a run of this
 * process that was stopped, or a dead process whose pid came round again). One of a running
 * process is another create-squad at work: never debris.
 */
export function isDebris(pid: number, absPath: string): boolean {
  return pid === process.pid ? !inUse.has(absPath) : !isProcessAlive(pid);
}

/**
 * Remove, in the folder `absDir`, what killed runs of create-squad left: the entries whose names
 * `pattern` matches (its first group is the pid recorded in the name) that are files (`kind` file)
 * or folders (`kind` dir) and debris (see isDebris). Nothing else is touched, symlinks never. Never
 * throws: what cannot be removed stays (doctor reports it). Returns the names removed.
 */
export function sweepDebris(absDir: string, pattern: RegExp, kind: 'file' | 'dir'): string[] {
  const removed: string[] = [];
  for (const entry of readDirEntries(absDir, { includeIgnored: true })) {
    const pid = pattern.exec(entry.name)?.[1];
    if (pid === undefined || !(kind === 'file' ? entry.isFile() : entry.isDirectory())) continue;
    const absPath = path.join(absDir, entry.name);
    if (!isDebris(Number(pid), absPath)) continue;
    try {
      fs.rmSync(absPath, { recursive: kind === 'dir', force: true });
      removed.push(entry.name);
    } catch {
      // left for doctor to report
    }
  }
  return removed;
}

/** Why a repo-relative path is unacceptable, or undefined when it is fine. */
export function relativePathProblem(relPath: string): string | undefined {
  if (relPath === '') return 'the path is empty';
  if (relPath.includes('\0')) return 'the path contains a NUL byte';
  if (relPath.includes('\\')) return 'the path contains a backslash (use forward slashes)';
  // A lone surrogate is no character: the file system would get U+FFFD instead, a silent rename.
  if (/\p{Cs}/u.test(relPath)) return 'the path contains a lone surrogate (half of a UTF-16 pair, not a character)';
  if (relPath.startsWith('/') || /^[a-zA-Z]:/.test(relPath)) return 'the path is absolute';
  const segments = relPath.split('/');
  if (segments.includes('..')) return 'the path contains ".."';
  if (segments.some((segment) => segment === '' || segment === '.')) {
    return 'the path has an empty or "." segment';
  }
  return undefined;
}

/** The error for a path create-squad refuses to write (see pathProblem). */
export function unsafePathError(relPath: string, reason: string): SquadError {
  return new SquadError('unsafe-path', `refusing to write ${relPath}: ${reason}`, {
    hint: 'create-squad only writes inside the target repository and never through symlinks',
  });
}

function realRoot(root: string): string {
  try {
    return fs.realpathSync.native(root);
  } catch {
    return path.resolve(root);
  }
}

/** True when `child` is `parent` or below it (both absolute). A folder named "..cache" is below. */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export interface InsideOptions {
  /** Accept a symlink as the final component (when it stays inside the root). */
  allowFinalSymlink?: boolean;
}

/** What pathProblem and blockedReason (obstacles.ts) walk: each segment of a path from the root, as lstat sees it. */
export interface WalkedSegment {
  /** The path so far, repo-relative. */
  shown: string;
  /** The path so far, absolute. */
  abs: string;
  stat: fs.Stats;
  last: boolean;
}

/**
 * Walk `relPath` (already checked by relativePathProblem) below `root` one segment at a time,
 * stopping at the first that does not exist (nothing below it can be a link): a symlink on the
 * way is a problem unless it is a folder link that stays inside the root (or, with
 * `allowFinalSymlink`, the final component). `visit` sees every other segment and may name a
 * problem of its own. The root's real path is only needed to judge a link, so it is resolved
 * only when one is met: most paths have none, and this runs for every path read or written.
 */
export function walkInside(root: string, relPath: string, options: InsideOptions, visit?: (segment: WalkedSegment) => string | undefined): string | undefined {
  const segments = relPath.split('/');
  let current = path.resolve(root);
  let base: string | undefined;
  let end = -1;
  for (let i = 0; i < segments.length; i += 1) {
    current = path.join(current, segments[i]!);
    end += segments[i]!.length + 1;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch {
      return undefined; // does not exist yet: nothing below it can be a link
    }
    const last = i === segments.length - 1;
    const shown = relPath.slice(0, end);
    if (stat.isSymbolicLink()) {
      if (last && !options.allowFinalSymlink) return `${shown} is a symlink`;
      let target: string;
      try {
        target = fs.realpathSync(current);
      } catch {
        return `${shown} is a dangling symlink`;
      }
      base ??= realRoot(root);
      if (!isWithin(base, target)) return `${shown} is a symlink that leads outside the repository`;
    }
    const problem = visit?.({ shown, abs: current, stat, last });
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Why `relPath` under `root` is unsafe to read or write, or undefined when it is safe: a bad path,
 * a symlinked folder on the way that points outside (or nowhere), or (unless `allowFinalSymlink`)
 * a symlink as the final component. Never throws.
 */
export function pathProblem(root: string, relPath: string, options: InsideOptions = {}): string | undefined {
  return relativePathProblem(relPath) ?? walkInside(root, relPath, options);
}

/**
 * Resolve `relPath` under `root`, refusing (unsafe-path) anything that could land outside it; see
 * pathProblem.
 */
export function resolveInside(root: string, relPath: string, options: InsideOptions = {}): string {
  const problem = pathProblem(root, relPath, options);
  if (problem) throw unsafePathError(relPath, problem);
  return path.join(realRoot(root), ...relPath.split('/'));
}

/** Whether `relPath` exists under `root`, without following a final symlink (a dangling one exists). */
export function existsInside(root: string, relPath: string): boolean {
  try {
    fs.lstatSync(path.join(root, ...relPath.split('/')));
    return true;
  } catch {
    return false;
  }
}

/**
 * Remove a file or folder inside the root (a staging folder create-squad made itself); quiet when
 * it is already gone. Refuses paths that leave the root.
 */
export function removeInside(root: string, relPath: string): void {
  const target = resolveInside(root, relPath, { allowFinalSymlink: true });
  fs.rmSync(target, { recursive: true, force: true });
}

export interface WriteOptions {
  /** File mode, such as 0o755 for scripts. Default 0o644 (before umask). */
  mode?: number;
  /** Fail with file-exists instead of replacing an existing file. */
  exclusive?: boolean;
  /**
   * Remove the temporary files killed runs left in the target's folder (see sweepDebris) once the
   * write is done. Default true; false for a folder this run made itself (a staging folder).
   */
  sweep?: boolean;
}

/** What a file system entry is, for messages ("a FIFO (named pipe)"); undefined for a regular file. */
export function specialKind(stat: fs.Stats): string | undefined {
  if (stat.isFile()) return undefined;
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a symlink';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** The refusal to replace `shown`, which is `kind` (see specialKind), not a regular file. */
export function notRegularFileError(shown: string, kind: string): SquadError {
  return new SquadError('unsafe-path', `refusing to replace ${shown}: it is ${kind}, not a regular file`, {
    hint: `create-squad only ever replaces regular files, with or without --force: move ${shown} aside, or write somewhere else`,
  });
}

/** Refuse (unsafe-path) when something other than a regular file is at `absPath`; nothing there is fine. */
export function requireRegularOrMissing(absPath: string, shown: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(absPath);
  } catch {
    return;
  }
  const kind = specialKind(stat);
  if (kind !== undefined) throw notRegularFileError(shown, kind);
}

/**
 * Atomically write `data` to `root/relPath`, creating folders as needed. What is at the target must
 * be a regular file (or nothing): checked before the temporary file is made, so a refusal writes
 * nothing.
 */
export function writeFileAtomic(root: string, relPath: string, data: string | Uint8Array, options: WriteOptions = {}): void {
  placeAtomically(root, relPath, options, (temp) => {
    fs.writeFileSync(temp, data, { flag: 'wx', mode: options.mode ?? 0o644 });
    if (options.mode !== undefined) fs.chmodSync(temp, options.mode);
  });
}

/**
 * Append one line to a log file inside the root (created when missing, with its folder only when
 * that exists): one write with O_APPEND, so concurrent appenders never interleave a line. Only a
 * regular file is appended to, never through a symlink. Not a state write: logs are not counted
 * by the write observer and are never part of a plan.
 */
export function appendLineInside(root: string, relPath: string, line: string): void {
  const abs = resolveInside(root, relPath);
  const noFollow = fs.constants.O_NOFOLLOW ?? 0;
  const fd = fs.openSync(abs, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NONBLOCK | noFollow, 0o644);
  try {
    if (!fs.fstatSync(fd).isFile()) throw unsafePathError(relPath, 'it is not a regular file');
    fs.writeSync(fd, line.endsWith('\n') ? line : `${line}\n`);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Atomically copy the file at `source` (an absolute path, anywhere) to `root/relPath`, as
 * writeFileAtomic writes: the system copies it into the temporary file (fs.copyFile: streamed, never
 * held in memory, whatever its size), which is given `mode` (default 0o644) and renamed into place.
 */
export function copyFileAtomic(root: string, relPath: string, source: string, options: WriteOptions = {}): void {
  placeAtomically(root, relPath, options, (temp) => {
    fs.copyFileSync(source, temp, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(temp, options.mode ?? 0o644);
  });
}

function changedWhileCopied(relPath: string, change: string): SquadError {
  return new SquadError('invalid-input', `${relPath}: its source ${change} while it was copied`, { hint: 'run the command again once nothing changes the source' });
}

/**
 * As copyFileAtomic, from a file the caller has open (`fd`, opened without following a link and
 * checked, see tree.ts openWalkedFile): exactly `bytes` bytes, a chunk at a time, never whole in
 * memory. A file that is shorter or longer than that now is refused (invalid-input), nothing placed.
 */
export function copyOpenFileAtomic(root: string, relPath: string, fd: number, bytes: number, options: WriteOptions = {}): void {
  placeAtomically(root, relPath, options, (temp) => {
    const out = fs.openSync(temp, 'wx', options.mode ?? 0o644);
    try {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(bytes, 1), 1024 * 1024));
      let done = 0;
      for (;;) {
        const read = fs.readSync(fd, chunk, 0, chunk.length, done);
        if (read === 0) break;
        if (done + read > bytes) throw changedWhileCopied(relPath, `grew past ${bytes} bytes`);
        for (let written = 0; written < read; ) written += fs.writeSync(out, chunk, written, read - written);
        done += read;
      }
      if (done !== bytes) throw changedWhileCopied(relPath, `shrank to ${done} of ${bytes} bytes`);
    } finally {
      fs.closeSync(out);
    }
    fs.chmodSync(temp, options.mode ?? 0o644);
  });
}

/**
 * Flush a file's content, or a folder's entries, to the disk: the content before the rename that
 * publishes it, and the folder after, so a power loss leaves the old file or the new one, never an
 * empty one. A file system that cannot sync a folder (EINVAL, EISDIR, EPERM on some platforms) is
 * left as it is: the rename is still atomic there.
 */
function syncToDisk(absPath: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(absPath, 'r');
    fs.fsyncSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'EBADF') throw error;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The temporary file and rename of writeFileAtomic and copyFileAtomic: `fill` creates the temporary file. */
function placeAtomically(root: string, relPath: string, options: WriteOptions, fill: (temp: string) => void): void {
  const target = resolveInside(root, relPath);
  requireRegularOrMissing(target, relPath);
  const dir = path.dirname(target);
  mkdirOrThrow(dir, relPath);
  const temp = path.join(dir, tempFileName(path.basename(target)));
  try {
    fill(temp);
    faultBeforeWrite();
    syncToDisk(temp);
    if (options.exclusive) {
      // link() fails if the target exists, so "create only if missing" stays atomic.
      fs.linkSync(temp, target);
      fs.unlinkSync(temp);
    } else {
      fs.renameSync(temp, target);
    }
    syncToDisk(dir);
  } catch (error) {
    removeQuietly(temp);
    throw toWriteError(error, relPath);
  }
  if (options.sweep !== false) sweepDebris(dir, TEMP_FILE_PATTERN, 'file');
  countWrite();
}

/** Writes new files into a private staging folder (see stagingWriter). */
export interface StagingWriter {
  /** Create `relPath` (inside the staging folder) with `data`; refused if anything stands there. */
  write(relPath: string, data: string | Uint8Array, options?: Pick<WriteOptions, 'mode'>): void;
  /** Flush every file and folder written to the disk, before the staging folder is renamed into place (see flushStaged). */
  flush(): void;
}

/**
 * What flushStaged runs to flush a whole file system at once (a test points it at a missing command
 * to take the fallback), and whether a file system in memory is skipped (a test turns it off).
 */
export const stagingFlushSeams: { syncCommand: string | undefined; skipMemoryFileSystems: boolean } = { syncCommand: undefined, skipMemoryFileSystems: true };

/** Where `sync` lives: named by its full path, never looked up in PATH, where a repository's own file could stand. */
const SYNC_COMMANDS = ['/bin/sync', '/usr/bin/sync'];

/** Linux's magic numbers of file systems kept in memory (tmpfs, ramfs): nothing there outlives a power loss to flush. */
const MEMORY_FILE_SYSTEMS: ReadonlySet<number> = new Set([0x01021994, 0x858458f6]);

function inMemory(absPath: string): boolean {
  try {
    return MEMORY_FILE_SYSTEMS.has(fs.statfsSync(absPath).type);
  } catch {
    return false;
  }
}

type ChildProcess = typeof import('node:child_process');
let childProcessModule: ChildProcess | undefined;

/**
 * Flush a staging folder's files and folders to the disk, so the folder renamed into place after
 * a power loss holds what was written, never empty files. On Linux one `sync -f` flushes the
 * folder's file system (syncfs: one call for thousands of files, where a flush per file would cost
 * an import more than the rest of its work; docs/budgets.md); elsewhere, or when that fails, each
 * file and folder is flushed on its own.
 */
function flushStaged(base: string, files: readonly string[], folders: readonly string[]): void {
  if (files.length === 0 && folders.length === 0) return;
  if (process.platform === 'linux') {
    if (stagingFlushSeams.skipMemoryFileSystems && inMemory(base)) return;
    childProcessModule ??= createRequire(import.meta.url)('node:child_process') as ChildProcess;
    const command = stagingFlushSeams.syncCommand ?? SYNC_COMMANDS.find((file) => fs.existsSync(file));
    if (command !== undefined) {
      const result = childProcessModule.spawnSync(command, ['-f', base], { stdio: 'ignore' });
      if (result.error === undefined && result.status === 0) return;
    }
  }
  for (const file of files) syncToDisk(file);
  for (const folder of folders) syncToDisk(folder);
}

/** A checked repo-relative path with the platform's separators. */
function nativeSeparators(relPath: string): string {
  return path.sep === '/' ? relPath : relPath.split('/').join(path.sep);
}

function isRealFolder(absPath: string): boolean {
  try {
    return fs.lstatSync(absPath).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Create new files inside a private staging folder `stagingRel`: one this process creates and
 * nobody reads until it is moved into place (import builds a whole squad this way). Its place is
 * checked once (resolveInside), it is made on the first write, and every folder in it is made
 * once by this writer (or found a real folder, never a link), so nothing on the way is a symlink:
 * a file is then written directly, without the temporary file and rename, created exclusively
 * (never through a link, never over anything). Each file counts as one write, as writeFileAtomic's
 * do. Anything a reader may see goes through writeFileAtomic instead.
 */
export function stagingWriter(root: string, stagingRel: string): StagingWriter {
  let base: string | undefined;
  /** Folders this writer made, relative to the staging folder ('' for the folder itself), and their absolute paths. */
  const made = new Map<string, string>();
  const makeFolder = (rel: string, shown: string): string => {
    const known = made.get(rel);
    if (known !== undefined) return known;
    base ??= resolveInside(root, stagingRel);
    // Joined as strings: the segments are checked (relativePathProblem), nothing to normalise.
    const abs = rel === '' ? base : `${base}${path.sep}${nativeSeparators(rel)}`;
    if (rel === '') mkdirOrThrow(path.dirname(base), shown);
    else makeFolder(rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '', shown);
    try {
      fs.mkdirSync(abs);
    } catch (error) {
      // Already there: fine when it is a real folder (not a link), else a file is in the way.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw toWriteError(error, shown);
      if (!isRealFolder(abs)) throw toWriteError(Object.assign(new Error(''), { code: 'ENOTDIR' }), shown);
    }
    made.set(rel, abs);
    return abs;
  };
  const written: string[] = [];
  return {
    flush() {
      if (base !== undefined) flushStaged(base, written, [...made.values()]);
    },
    write(relPath, data, options = {}) {
      const shown = `${stagingRel}/${relPath}`;
      const problem = relativePathProblem(relPath);
      if (problem !== undefined) throw unsafePathError(shown, problem);
      const slash = relPath.lastIndexOf('/');
      const dir = makeFolder(slash === -1 ? '' : relPath.slice(0, slash), shown);
      const target = `${dir}${path.sep}${relPath.slice(slash + 1)}`;
      try {
        faultBeforeWrite();
        // 'wx': O_CREAT | O_EXCL, which never follows a link and fails on anything standing there.
        const fd = fs.openSync(target, 'wx', options.mode ?? 0o644);
        try {
          fs.writeFileSync(fd, data);
          // The mode as asked, whatever the umask took from it (a script stays executable).
          if (options.mode !== undefined) fs.fchmodSync(fd, options.mode);
        } finally {
          fs.closeSync(fd);
        }
      } catch (error) {
        throw toWriteError(error, shown);
      }
      written.push(target);
      countWrite();
    },
  };
}

/** Rename within the root (a backup, an archive, a staging swap). Counts as one write. */
export function moveInside(root: string, fromRel: string, toRel: string): void {
  const from = resolveInside(root, fromRel, { allowFinalSymlink: true });
  const to = resolveInside(root, toRel);
  mkdirOrThrow(path.dirname(to), toRel);
  if (fs.existsSync(to)) {
    throw new SquadError('file-exists', `cannot move ${fromRel} to ${toRel}: ${toRel} already exists`, {
      hint: 'move or remove it yourself, then run the command again',
    });
  }
  try {
    faultBeforeWrite();
    fs.renameSync(from, to);
  } catch (error) {
    throw toWriteError(error, toRel);
  }
  // The folder that now names it, on the disk: a power loss after the move keeps the move.
  syncToDisk(path.dirname(to));
  countWrite();
}

/**
 * Remove a regular file inside the root that is part of the state (import's marker): one counted
 * write, so a kill just before or after it is a crash point like any other. Quiet when it is gone.
 */
export function removeFileInside(root: string, relPath: string): void {
  const target = resolveInside(root, relPath);
  requireRegularOrMissing(target, relPath);
  try {
    faultBeforeWrite();
    fs.rmSync(target, { force: true });
  } catch (error) {
    throw toWriteError(error, relPath);
  }
  countWrite();
}

function removeQuietly(absPath: string): void {
  try {
    fs.rmSync(absPath, { force: true });
  } catch {
    // Nothing was created there (a file stands in the way of the folder): nothing to clean.
  }
}

/** Create `absDir` and its missing parents, recording in `created` each folder made (outermost first). */
function mkdirLevels(absDir: string, created: string[] = []): string[] {
  const missing: string[] = [];
  for (let dir = path.resolve(absDir); !fs.existsSync(dir); dir = path.dirname(dir)) {
    missing.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  // One level at a time: a recursive mkdir never returns under /proc on Node 20.
  for (const dir of missing) {
    fs.mkdirSync(dir);
    created.push(dir);
  }
  return created;
}

function mkdirOrThrow(absDir: string, relPath: string): void {
  try {
    mkdirLevels(absDir);
  } catch (error) {
    // mkdir reports a file standing where a folder must go as EEXIST (or ENOTDIR below it).
    const code = (error as NodeJS.ErrnoException).code;
    throw toWriteError(code === 'EEXIST' ? Object.assign(new Error(''), { code: 'ENOTDIR' }) : error, relPath);
  }
}

function toWriteError(error: unknown, relPath: string): SquadError {
  if (error instanceof SquadError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST') {
    return new SquadError('file-exists', `${relPath} already exists`, {
      hint: 'create-squad never overwrites it; move it aside if you want it recreated',
    });
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new SquadError('not-writable', `cannot write ${relPath}: permission denied (${code})`, {
      hint: 'check the folder permissions, or choose another target directory',
    });
  }
  if (code === 'ENOTDIR' || code === 'EISDIR') {
    return new SquadError('not-writable', `cannot write ${relPath}: a file is in the way of a folder (${code})`, {
      hint: 'move the conflicting file aside and run the command again',
    });
  }
  if (code === 'ENOSPC') {
    return new SquadError('not-writable', `cannot write ${relPath}: the disk is full`, { hint: 'free some space and run the command again' });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SquadError('not-writable', `cannot write ${relPath}: ${message}`, { cause: error });
}

/** The largest state file (roster, routing, charter, history, casting, manifest, coordinator) read whole: one constant with import's check (base/limits.ts). */
export { STATE_FILE_MAX_BYTES };

/**
 * File content as bytes, or undefined when the file does not exist, cannot be read, or is not a
 * regular file (a FIFO or a device such as /dev/zero, even behind a symlink: it is never opened, so
 * it cannot block or stream forever). A file over `maxBytes` is refused (invalid-input) rather than
 * read in part: a caller may write what it read back. `open` opens the file for the read (confined.ts
 * passes the one that refuses, unsafe-path, a file whose opened self is outside the repository).
 */
export function readBytesIfExists(absPath: string, maxBytes: number = STATE_FILE_MAX_BYTES, open?: (absPath: string) => number): Buffer | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absPath);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) return undefined;
  if (stat.size > maxBytes) {
    throw new SquadError('invalid-input', `${absPath} is ${(stat.size / 1024 / 1024).toFixed(1)} MB, more than create-squad reads (${maxBytes / 1024 / 1024} MB)`, {
      hint: 'shrink the file (move long notes elsewhere), or move it aside',
    });
  }
  let fd: number;
  try {
    fd = open === undefined ? fs.openSync(absPath, 'r') : open(absPath);
  } catch (error) {
    if (error instanceof SquadError) throw error;
    return undefined;
  }
  try {
    // What was opened may not be what was measured: it is read only if it is a file within the limit too.
    const opened = fs.fstatSync(fd);
    return opened.isFile() && opened.size <= maxBytes ? fs.readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** File content as UTF-8, or undefined (see readBytesIfExists, which also refuses a file that is too large). */
export function readTextIfExists(absPath: string, maxBytes?: number): string | undefined {
  return readBytesIfExists(absPath, maxBytes)?.toString('utf8');
}

export function isDirectory(absPath: string): boolean {
  try {
    return fs.statSync(absPath).isDirectory();
  } catch {
    return false;
  }
}

export function isFile(absPath: string): boolean {
  try {
    return fs.statSync(absPath).isFile();
  } catch {
    return false;
  }
}

export function sha256(data: string | Uint8Array): string {
  return crypto().createHash('sha256').update(data).digest('hex');
}

/**
 * Check, without writing, that `absDir` is (or can become) a writable folder: it is not a file,
 * nothing on the way to it is a file, and its nearest existing folder is writable. Throws
 * invalid-input when `absDir` is a file, not-writable otherwise.
 */
export function checkWritableDir(absDir: string, options: { write?: boolean } = {}): void {
  let probe = path.resolve(absDir);
  while (!fs.existsSync(probe)) {
    const parent = path.dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  if (!isDirectory(probe)) {
    if (probe === path.resolve(absDir)) {
      throw new SquadError('invalid-input', `${absDir} is a file, not a folder`, { hint: 'give the folder of the repository instead' });
    }
    throw new SquadError('not-writable', `cannot create ${absDir}: ${probe} is a file, not a folder`, {
      hint: 'choose a target directory whose parents are folders',
    });
  }
  if (options.write === false) return;
  try {
    fs.accessSync(probe, fs.constants.W_OK);
  } catch (error) {
    const readOnly = (error as NodeJS.ErrnoException).code === 'EROFS';
    throw new SquadError('not-writable', `cannot write to ${probe}: ${readOnly ? 'the file system is read-only' : 'permission denied'}`, {
      hint: readOnly ? 'choose a target directory on a writable file system' : 'check the folder permissions, or choose another target directory',
    });
  }
}

/**
 * Make sure `absDir` exists and really accepts files (creating it if needed), before the first
 * real write: a read-only file system or a place like /proc fails here, with nothing written.
 * Folders are created one level at a time (a recursive mkdir never returns under /proc on Node 20),
 * and the ones this created are removed again when a step fails.
 */
export function ensureWritableDir(absDir: string): void {
  checkWritableDir(absDir);
  const target = path.resolve(absDir);
  const created: string[] = [];
  const undo = () => {
    for (const dir of created.reverse()) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    mkdirLevels(target, created);
    const probe = path.join(target, `.create-squad-probe-${workId()}`);
    fs.writeFileSync(probe, '', { flag: 'wx' });
    fs.rmSync(probe, { force: true });
  } catch (error) {
    undo();
    throw notWritable(absDir, error);
  }
}

function notWritable(absDir: string, error: unknown): SquadError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  return new SquadError('not-writable', `cannot write to ${absDir} (${code})`, {
    hint: 'check that the location exists and is writable, or choose another target directory',
    cause: error,
  });
}

/**
 * Entries of a folder, without ignored ones (unless `includeIgnored`: dot- and underscore-entries
 * too), sorted by name (code points); [] when it does not exist or cannot be read.
 */
export function readDirEntries(absDir: string, options: { includeIgnored?: boolean } = {}): fs.Dirent[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(absDir, { withFileTypes: true });
  } catch {
    return [];
  }
  const kept = options.includeIgnored ? entries : entries.filter((entry) => !isIgnoredEntry(entry.name));
  return kept.sort((a, b) => compareCodePoints(a.name, b.name));
}

/** Entry names of a folder, without ignored ones, sorted by code point; [] when it does not exist. */
export function readDirNames(absDir: string): string[] {
  return readDirEntries(absDir).map((entry) => entry.name);
}
