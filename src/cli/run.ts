/**
 * Running one command: build its context, call it, print its result as text or JSON, and set the
 * exit code. Errors are left to `main`, which owns the error policy.
 */
import os from 'node:os';
import path from 'node:path';
import type { CommandContext, CommandResult } from '../commands/context.js';
import type { Ui } from './ui.js';

export interface CommonOptions {
  cwd?: string;
  json?: boolean;
  yes?: boolean;
}

export function buildContext(options: CommonOptions, env: NodeJS.ProcessEnv = process.env): CommandContext {
  const invocationDir = process.cwd();
  const interactive =
    process.stdin.isTTY === true && process.stdout.isTTY === true && !isCi(env) && !options.yes && !options.json;
  return {
    cwd: path.resolve(invocationDir, options.cwd ?? '.'),
    invocationDir,
    json: options.json === true,
    interactive,
    env,
    home: env.HOME ?? env.USERPROFILE ?? os.homedir(),
    readStdin,
  };
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Print a command's result and record its exit code. */
export function report(result: CommandResult, ctx: CommandContext, ui: Ui): void {
  if (ctx.json) {
    ui.write(`${JSON.stringify({ ok: result.exitCode === 0, ...result.data }, null, 2)}\n`);
  } else {
    result.render(ui);
  }
  process.exitCode = result.exitCode;
}

export async function execute(
  options: CommonOptions,
  ui: Ui,
  command: (ctx: CommandContext) => Promise<CommandResult>,
): Promise<void> {
  const ctx = buildContext(options);
  report(await command(ctx), ctx, ui);
}
