/**
 * Running one command: build its context, call it, print its result as text or JSON, and return
 * the exit code. Errors are left to `main`, which owns the error policy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CommandContext, CommandResult } from '../commands/context.js';
import { usageError } from '../core/base/errors.js';
import { dataEnvelope } from './envelope.js';
import { findGitRoot, findSquadRoot } from '../core/fs/locate.js';
import type { Io } from './io.js';
import type { Ui } from './ui.js';

export interface CommonOptions {
  cwd?: string;
  json?: boolean;
  yes?: boolean;
  /** `--wait [seconds]`: true without a number. */
  wait?: string | boolean;
}

/** How long `--wait` waits when no number is given. */
export const DEFAULT_LOCK_WAIT_SECONDS = 60;

function lockWaitMs(wait: string | boolean | undefined): number | undefined {
  if (wait === undefined || wait === false) return undefined;
  if (wait === true) return DEFAULT_LOCK_WAIT_SECONDS * 1000;
  const seconds = Number(wait);
  if (!/^\d+(\.\d+)?$/.test(wait.trim()) || !Number.isFinite(seconds)) {
    throw usageError(`--wait takes a number of seconds, not "${wait}"`, `for example --wait 30, or --wait alone for ${DEFAULT_LOCK_WAIT_SECONDS} s`);
  }
  return seconds * 1000;
}

/** Questions may be asked: stdin and stdout are terminals, not in CI, and neither --yes nor --json. */
export function isInteractive(options: Pick<CommonOptions, 'yes' | 'json'>, io: Io): boolean {
  // Cheapest first: whether stdin is a terminal is asked last (it may load node:tty).
  return !options.yes && !options.json && !isCi(io.env) && io.stdoutIsTTY && io.stdinIsTTY;
}

export function buildContext(options: CommonOptions, io: Io): CommandContext {
  const { env } = io;
  if (options.cwd === '') throw usageError('--cwd is empty', 'give the folder of the repository, e.g. --cwd . for the current one');
  const waitMs = lockWaitMs(options.wait);
  const interactive = isInteractive(options, io);
  const start = path.resolve(io.cwd, options.cwd ?? '.');
  return {
    ...locateRepository(start),
    invocationDir: io.cwd,
    json: options.json === true,
    interactive,
    env,
    home: env.HOME ?? env.USERPROFILE ?? os.homedir(),
    readStdin: io.readStdin,
    ...(waitMs === undefined ? {} : { lockWaitMs: waitMs }),
  };
}

/**
 * Where a command acts, from the folder it was pointed at: the enclosing squad, else the
 * enclosing repository's root, else that folder (see core/fs/locate.ts). A folder that does not exist
 * is kept as given, so the command can say so.
 */
function locateRepository(start: string): Pick<CommandContext, 'cwd' | 'startDir' | 'gitRoot'> {
  let isDir = false;
  try {
    isDir = fs.statSync(start).isDirectory();
  } catch {
    // missing: reported by the command
  }
  if (!isDir) return { cwd: start, startDir: start };
  const gitRoot = findGitRoot(start);
  return { cwd: findSquadRoot(start) ?? gitRoot ?? start, startDir: start, ...(gitRoot === undefined ? {} : { gitRoot }) };
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
}

/** Print a command's result; returns its exit code. */
export function report(result: CommandResult, ctx: CommandContext, ui: Ui): 0 | 1 {
  if (ctx.json) {
    ui.json(dataEnvelope(result));
  } else {
    // The command's warnings first, on stderr as they are in the envelope; then what it renders.
    for (const warning of result.warnings ?? []) ui.warn(warning.message);
    result.render(ui);
  }
  return result.exitCode;
}

export async function execute(options: CommonOptions, io: Io, ui: Ui, command: (ctx: CommandContext) => Promise<CommandResult>): Promise<0 | 1> {
  const ctx: CommandContext = { ...buildContext(options, io), note: (text) => ui.note(text) };
  return report(await command(ctx), ctx, ui);
}
