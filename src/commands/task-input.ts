/**
 * The task text of `prompt` and `route`: given inline, read from stdin with "-", or read from a
 * file with `--task-file <path>` (no shell quoting at all: the same on bash, PowerShell and cmd).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MAX_STDIN_BYTES } from '../core/fs/bounded-read.js';
import { SquadError, usageError } from '../core/base/errors.js';
import { specialKind } from '../core/fs/fs-safe.js';
import type { CommandContext } from './context.js';

export interface TaskInput {
  /** The task as typed; "-" reads stdin. */
  task: string | undefined;
  /** A file holding the task, relative to where the command runs. */
  taskFile?: string | undefined;
}

export async function readTaskInput(input: TaskInput, usage: string, ctx: CommandContext): Promise<string> {
  const { task, taskFile } = input;
  if (task !== undefined && taskFile !== undefined) throw usageError('give the task once: inline or --task-file, not both', usage);
  if (taskFile !== undefined) {
    const text = readTaskFile(taskFile, ctx.invocationDir).trim();
    if (!text) throw usageError(`the task file ${taskFile} is empty`, usage);
    return text;
  }
  if (task === undefined) throw usageError('missing the task', usage);
  const text = (task === '-' ? await ctx.readStdin() : task).trim();
  if (!text) throw usageError(task === '-' ? 'the task read from stdin is empty' : 'the task is empty', usage);
  return text;
}

/**
 * The file's text, read only when it is a regular file (a FIFO or a device is never opened, so it
 * cannot block or stream forever) and never more than a task may hold (MAX_STDIN_BYTES).
 */
function readTaskFile(given: string, invocationDir: string): string {
  if (!given) throw usageError('--task-file is empty', 'give the path of a file holding the task');
  const absPath = path.resolve(invocationDir, given);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absPath);
  } catch {
    throw new SquadError('not-found', `task file not found: ${given}`, { hint: 'write the task to that file first; a relative path starts where the command runs' });
  }
  const kind = specialKind(stat);
  if (kind !== undefined) {
    throw new SquadError('invalid-input', `the task file ${given} is ${kind}, not a regular file`, { hint: 'write the task to a regular file and pass its path' });
  }
  const tooLarge = () =>
    new SquadError('invalid-input', `the task file ${given} holds more than ${MAX_STDIN_BYTES / (1024 * 1024)} MB`, {
      hint: 'a task is a sentence or a page: put long material in a file and name that file in the task',
    });
  if (stat.size > MAX_STDIN_BYTES) throw tooLarge();
  // Bounded even if the file grows between the stat and the read.
  const buffer = Buffer.alloc(MAX_STDIN_BYTES + 1);
  let size = 0;
  try {
    const fd = fs.openSync(absPath, 'r');
    try {
      while (size < buffer.length) {
        const read = fs.readSync(fd, buffer, size, buffer.length - size, null);
        if (read === 0) break;
        size += read;
      }
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new SquadError('invalid-input', `cannot read the task file ${given} (${reason})`, { hint: 'check that the file is readable' });
  }
  if (size > MAX_STDIN_BYTES) throw tooLarge();
  return buffer.subarray(0, size).toString('utf8');
}
