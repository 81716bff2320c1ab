/** The task text of `prompt` and `route`: given inline, or read from stdin with "-". */
import { usageError } from '../core/errors.js';
import type { CommandContext } from './context.js';

export async function readTaskInput(value: string | undefined, usage: string, ctx: CommandContext): Promise<string> {
  if (value === undefined) throw usageError('missing the task', usage);
  const text = (value === '-' ? await ctx.readStdin() : value).trim();
  if (!text) {
    throw usageError(value === '-' ? 'the task read from stdin is empty' : 'the task is empty', usage);
  }
  return text;
}
