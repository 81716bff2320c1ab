/**
 * Running one command: build its context, call it, print its result as text or JSON, and return
 * the exit code. Errors are left to `main`, which owns the error policy.
 */
import os from 'node:os';
import path from 'node:path';
import type { CommandContext, CommandResult } from '../commands/context.js';
import type { Io } from './io.js';
import type { Ui } from './ui.js';

export interface CommonOptions {
  cwd?: string;
  json?: boolean;
  yes?: boolean;
}

export function buildContext(options: CommonOptions, io: Io): CommandContext {
  const { env } = io;
  const interactive = io.stdinIsTTY && io.stdoutIsTTY && !isCi(env) && !options.yes && !options.json;
  return {
    cwd: path.resolve(io.cwd, options.cwd ?? '.'),
    invocationDir: io.cwd,
    json: options.json === true,
    interactive,
    env,
    home: env.HOME ?? env.USERPROFILE ?? os.homedir(),
    readStdin: io.readStdin,
  };
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
}

/** Print a command's result; returns its exit code. */
export function report(result: CommandResult, ctx: CommandContext, ui: Ui): 0 | 1 {
  if (ctx.json) {
    ui.json({ ok: result.exitCode === 0, ...result.data });
  } else {
    result.render(ui);
  }
  return result.exitCode;
}

export async function execute(
  options: CommonOptions,
  io: Io,
  ui: Ui,
  command: (ctx: CommandContext) => Promise<CommandResult>,
): Promise<0 | 1> {
  const ctx = buildContext(options, io);
  return report(await command(ctx), ctx, ui);
}
