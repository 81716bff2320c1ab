/**
 * Helpers for end-to-end tests: run the CLI in temporary git repositories.
 *
 * `runCli` runs a command in-process, through the same `main(argv, ui, io)` the executable calls,
 * with its own working folder, environment and stdin and its output captured: milliseconds instead
 * of a Node process per call. `runCliProcess` starts the built executable as a user would, for the
 * few tests where the process itself matters (exit codes, signals, start-up, a hang).
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { JSON_SCHEMA_VERSION, type JsonEnvelope, type JsonError } from '../../src/cli/envelope.js';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { createUi } from '../../src/cli/ui.js';
import { CRASH_AFTER_WRITES_ENV, FAULT_AT_WRITE_ENV, injectWriteFault, observeWrites, parseWriteFault } from '../../src/core/fs/fs-safe.js';
import { LOCK_FILE } from '../../src/core/fs/lock.js';
import type { Warning } from '../../src/core/base/warnings.js';
import { spawnAsync } from './spawn.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = path.join(REPO_ROOT, 'bin', 'create-squad.cjs');

export interface CliResult {
  /** The exit code; -1 when the run was killed (CREATE_SQUAD_CRASH_AFTER_WRITES or a timeout). */
  code: number;
  stdout: string;
  stderr: string;
  /** The whole JSON document on stdout (`--json`): the envelope, or any JSON a command prints (`mcp --print-config`). */
  json<T = Record<string, unknown>>(): T;
  /** The `--json` envelope on stdout, checked to be one (schemaVersion, ok, data or error, warnings). */
  envelope<T extends object = Record<string, unknown>>(): JsonEnvelope<T>;
  /** The command's data in the `--json` envelope; throws when the envelope holds an error instead. */
  data<T = Record<string, unknown>>(): T;
  /** The error in the `--json` envelope; throws when it holds data instead. */
  error(): JsonError;
  /** The warnings in the `--json` envelope. */
  warnings(): Warning[];
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  input?: string;
}

export interface ProcessRunOptions extends RunOptions {
  /** Kill the process after this many milliseconds (a test of something that must not hang). */
  timeout?: number;
}

/** The environment a run sees: the test's, without colour or debug settings, plus `extra`. */
function runEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, DEBUG: undefined, ...extra };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return env as NodeJS.ProcessEnv;
}

/** A run's outcome, as the helpers give it. */
export function cliResult(code: number, stdout: string, stderr: string): CliResult {
  return {
    code,
    stdout,
    stderr,
    json<T>() {
      return JSON.parse(stdout) as T;
    },
    envelope<T extends object>() {
      return parseEnvelope<T>(stdout);
    },
    data<T>() {
      const envelope = parseEnvelope(stdout);
      if (!('data' in envelope)) throw new Error(`the --json envelope holds an error, not data: ${JSON.stringify(envelope.error)}`);
      return envelope.data as T;
    },
    error() {
      const envelope = parseEnvelope(stdout);
      if (!('error' in envelope)) throw new Error(`the --json envelope holds data, not an error (ok: ${envelope.ok})`);
      return envelope.error;
    },
    warnings() {
      return parseEnvelope(stdout).warnings;
    },
  };
}

/** stdout as the `--json` envelope; throws when it is not one (the shape test/e2e/json-envelope.test.ts checks in full). */
function parseEnvelope<T extends object = Record<string, unknown>>(stdout: string): JsonEnvelope<T> {
  const value = JSON.parse(stdout) as Record<string, unknown>;
  if (value.schemaVersion !== JSON_SCHEMA_VERSION || typeof value.ok !== 'boolean' || !Array.isArray(value.warnings) || 'data' in value === 'error' in value) {
    throw new Error(`not a --json envelope: ${stdout.slice(0, 200)}`);
  }
  return value as unknown as JsonEnvelope<T>;
}

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** Thrown by the write observer to stop a command where a kill would have. */
class SimulatedKill extends Error {}

/**
 * Run `create-squad …` in-process, as a user would from `options.cwd`: no TTY, colours off by
 * default. With CREATE_SQUAD_CRASH_AFTER_WRITES=k in `options.env` the run is stopped right after
 * its k-th write and the working folder is put back exactly as it was at that moment (the disk a
 * SIGKILL there leaves), whatever the command did while unwinding; the code is then -1. With
 * CREATE_SQUAD_FAULT_AT_WRITE=k:CODE its k-th write fails with that error code instead (ENOSPC: a
 * full disk), and the command handles it as it would a real one.
 */
export async function runCli(args: string[], options: RunOptions): Promise<CliResult> {
  const env = runEnv(options.env);
  const crashAfter = env[CRASH_AFTER_WRITES_ENV] === undefined ? undefined : Number(env[CRASH_AFTER_WRITES_ENV]);
  delete env[CRASH_AFTER_WRITES_ENV];
  const fault = env[FAULT_AT_WRITE_ENV] === undefined ? undefined : parseWriteFault(env[FAULT_AT_WRITE_ENV]);
  delete env[FAULT_AT_WRITE_ENV];
  const stdout = new Capture();
  const stderr = new Capture();
  const ui = createUi({ stdout, stderr, env });
  const io: Io = { cwd: options.cwd, env, stdinIsTTY: false, stdoutIsTTY: false, readStdin: async () => options.input ?? '' };
  if (fault !== undefined) {
    injectWriteFault(fault);
    try {
      return cliResult(await main(args, ui, io), stdout.text, stderr.text);
    } finally {
      injectWriteFault(undefined);
    }
  }
  if (crashAfter === undefined) return cliResult(await main(args, ui, io), stdout.text, stderr.text);

  let snapshot: Snapshot | undefined;
  observeWrites((count) => {
    if (snapshot === undefined && count === crashAfter) snapshot = takeSnapshot(options.cwd);
    if (snapshot !== undefined) throw new SimulatedKill(`killed after write ${crashAfter}`);
  });
  let code: number;
  try {
    code = await main(args, ui, io);
  } finally {
    observeWrites(undefined);
  }
  if (snapshot === undefined) return cliResult(code, stdout.text, stderr.text);
  restoreSnapshot(options.cwd, snapshot);
  markLockOwnerDead(options.cwd);
  return cliResult(-1, stdout.text, stderr.text);
}

/** One entry of a folder tree as a snapshot holds it. */
type SnapshotEntry = { kind: 'dir'; mode: number } | { kind: 'file'; mode: number; content: Buffer } | { kind: 'link'; target: string };
/** Every entry below a folder (relative path → entry), parents before children. */
type Snapshot = Map<string, SnapshotEntry>;

function entryOf(abs: string, withContent: boolean): SnapshotEntry | undefined {
  const stat = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isSymbolicLink()) return { kind: 'link', target: fs.readlinkSync(abs) };
  if (stat.isDirectory()) return { kind: 'dir', mode: stat.mode & 0o7777 };
  if (!stat.isFile()) throw new Error(`runCli: cannot snapshot ${abs}, neither a file, a folder nor a link`);
  return { kind: 'file', mode: stat.mode & 0o7777, content: withContent ? fs.readFileSync(abs) : Buffer.alloc(0) };
}

/**
 * The tree below `root` in memory (files with their modes and bytes, links as links): what a kill
 * at this moment leaves on disk. Held in memory rather than copied to disk, since on a busy disk
 * removing a copied tree again costs more than the command it belongs to.
 */
function takeSnapshot(root: string): Snapshot {
  const snapshot: Snapshot = new Map();
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(root, rel)).sort()) {
      const childRel = rel ? `${rel}/${name}` : name;
      const entry = entryOf(path.join(root, childRel), true)!;
      snapshot.set(childRel, entry);
      if (entry.kind === 'dir') walk(childRel);
    }
  };
  walk('');
  return snapshot;
}

/**
 * Put `root` back exactly as `snapshot` holds it (entries, file bytes and modes, link targets),
 * touching only what the command changed after the snapshot while it unwound.
 */
function restoreSnapshot(root: string, snapshot: Snapshot): void {
  const same = (now: SnapshotEntry, then: SnapshotEntry) => now.kind === then.kind && (now.kind !== 'link' || now.target === (then as typeof now).target);
  const prune = (rel: string) => {
    for (const name of fs.readdirSync(path.join(root, rel))) {
      const childRel = rel ? `${rel}/${name}` : name;
      const abs = path.join(root, childRel);
      const then = snapshot.get(childRel);
      const now = entryOf(abs, false)!;
      if (then === undefined || !same(now, then)) fs.rmSync(abs, { recursive: true, force: true });
      else if (now.kind === 'dir') prune(childRel);
    }
  };
  prune('');
  for (const [rel, then] of snapshot) {
    const abs = path.join(root, rel);
    const now = entryOf(abs, true);
    if (then.kind === 'link') {
      if (now === undefined) fs.symlinkSync(then.target, abs);
      continue;
    }
    if (then.kind === 'dir' && now === undefined) fs.mkdirSync(abs);
    if (then.kind === 'file' && (now?.kind !== 'file' || !now.content.equals(then.content))) fs.writeFileSync(abs, then.content);
    if ((entryOf(abs, false) as { mode: number }).mode !== then.mode) fs.chmodSync(abs, then.mode);
  }
}

let deadPid: number | undefined;

/**
 * A squad lock the simulated kill left names this (still running) test process: give it the pid of
 * a process that has exited, as a real kill would leave it, so the next command takes it over.
 */
function markLockOwnerDead(root: string): void {
  const lockPath = path.join(root, LOCK_FILE);
  if (!fs.existsSync(lockPath)) return;
  deadPid ??= spawnSync(process.execPath, ['-e', '0']).pid;
  const owner = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(lockPath, `${JSON.stringify({ ...owner, pid: deadPid })}\n`);
}

/** Run a command in `root` that must succeed; its failure throws with the command and its stderr. */
export async function runOk(root: string, args: string[]): Promise<CliResult> {
  const result = await runCli(args, { cwd: root });
  if (result.code !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  return result;
}

/** Run the built executable (`bin/create-squad.cjs`) in a separate Node process. */
export function runCliProcess(args: string[], options: ProcessRunOptions): CliResult {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: runEnv(options.env),
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout, killSignal: 'SIGKILL' as const }),
  });
  if (run.error) throw run.error;
  return cliResult(run.status ?? -1, run.stdout, run.stderr);
}

/**
 * `runCliProcess` without blocking the test: the built executable in a separate Node process,
 * so that independent processes of a test file can run at the same time.
 */
export async function runCliProcessAsync(args: string[], options: ProcessRunOptions): Promise<CliResult> {
  const run = await spawnAsync(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: runEnv(options.env),
    input: options.input ?? '',
    ...(options.timeout === undefined ? {} : { timeout: options.timeout, killSignal: 'SIGKILL' as const }),
  });
  return cliResult(run.status ?? -1, run.stdout, run.stderr);
}

const made: string[] = [];

/** A fresh temporary folder, removed after the test run. */
export function tempDir(prefix = 'squad-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return fs.realpathSync(dir);
}

let emptyRepo: string | undefined;

/**
 * A fresh temporary git repository: a copy of one `git init` made once per test file (the same
 * files a `git init` of its own writes, without starting git for every repository).
 */
export function tempRepo(): string {
  if (emptyRepo === undefined) {
    const template = tempDir('squad-git-init-');
    const result = spawnSync('git', ['init', '-q', template], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git init failed: ${result.stderr}`);
    emptyRepo = template;
  }
  const dir = tempDir('squad-repo-');
  copyTree(emptyRepo, dir);
  return dir;
}

const initialised = new Map<string, string>();

/**
 * A fresh temporary git repository holding the squad `create-squad init …args` makes: `init` runs
 * once per test file for each `args`, and each call returns a copy of that squad. For tests that
 * need a squad to start from; tests of `init` itself run it.
 */
export async function initSquad(args: string[] = ['--yes']): Promise<string> {
  const key = JSON.stringify(args);
  let template = initialised.get(key);
  if (template === undefined) {
    template = tempRepo();
    await runOk(template, ['init', ...args]);
    initialised.set(key, template);
  }
  const dir = tempDir('squad-repo-');
  copyTree(template, dir);
  return dir;
}

/**
 * Copy a folder tree into `to` (made when missing): files with their modes, folders with theirs,
 * symlinks as links (never followed); anything else is refused. What fs.cpSync does with
 * `verbatimSymlinks`, in about two thirds of its time (it checks both ends of every entry): most
 * tests start from such a copy.
 */
export function copyTree(from: string, to: string): void {
  if (!fs.existsSync(to)) {
    fs.mkdirSync(to);
    fs.chmodSync(to, fs.statSync(from).mode & 0o7777);
  }
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    // copyFile gives the copy the source's mode.
    if (entry.isFile()) fs.copyFileSync(source, target, fs.constants.COPYFILE_EXCL);
    else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
    else if (entry.isDirectory()) copyTree(source, target);
    else throw new Error(`copyTree: ${source} is neither a file, a folder nor a link`);
  }
}

/**
 * Remove every temporary folder made so far. The removals run side by side: on a busy disk each
 * file removed waits on the disk, and one after the other they cost seconds per test file.
 */
export async function cleanupTempDirs(): Promise<void> {
  emptyRepo = undefined;
  initialised.clear();
  await Promise.all(made.splice(0).map((dir) => fs.promises.rm(dir, { recursive: true, force: true })));
}

/** Write files (path → content) under `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** A SKILL.md text with the given frontmatter lines and body. */
export function skillMd(frontmatter: string, body = '# Skill\n\nDo the thing.\n'): string {
  return `---\n${frontmatter.trim()}\n---\n\n${body}`;
}

/** A valid SKILL.md for `name`. */
export function validSkill(name: string, description = `Use when working on ${name}.`, extra = ''): string {
  return skillMd(`name: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}`);
}

/** sha256 over every file (path, mode, content) below `dir`: equal hashes mean identical trees. */
export function hashTree(dir: string): string {
  const hash = crypto.createHash('sha256');
  const walk = (abs: string, rel: string) => {
    for (const name of fs.readdirSync(abs).sort()) {
      const childAbs = path.join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      const stat = fs.lstatSync(childAbs);
      if (stat.isDirectory()) {
        if (name === '.git') continue;
        hash.update(`d ${childRel}\n`);
        walk(childAbs, childRel);
      } else if (stat.isSymbolicLink()) {
        hash.update(`l ${childRel} ${fs.readlinkSync(childAbs)}\n`);
      } else if (!stat.isFile()) {
        // A FIFO, socket or device is named, never opened: reading one could block the test.
        hash.update(`special ${childRel}\n`);
      } else {
        hash.update(`f ${childRel} ${(stat.mode & 0o111) !== 0 ? 'x' : '-'} `);
        hash.update(fs.readFileSync(childAbs));
        hash.update('\n');
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir, '');
  return hash.digest('hex');
}

/** Every file below `root` (repo-relative, forward slashes, `.git` excluded), sorted. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of fs.readdirSync(dir)) {
      if (name === '.git') continue;
      const abs = path.join(dir, name);
      const childRel = rel ? `${rel}/${name}` : name;
      if (fs.statSync(abs).isDirectory()) walk(abs, childRel);
      else out.push(childRel);
    }
  };
  walk(root, '');
  return out.sort();
}

/** Every file's text (path → text), with the times of casting events left out: equal squads compare equal. */
export function filesWithoutTimes(root: string): Record<string, string> {
  return Object.fromEntries(listFiles(root).map((rel) => [rel, fs.readFileSync(path.join(root, rel), 'utf8').replace(/"at": "[^"]+"/g, '"at": "…"')]));
}
