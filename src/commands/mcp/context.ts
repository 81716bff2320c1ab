/**
 * What every tool of the MCP server works with: the squad it serves, as a command context, and the
 * rules that hold across calls.
 */
import { usageError } from '../../core/base/errors.js';
import type { ScriptLimits } from '../../core/skills/skill-scripts.js';
import type { CommandContext } from '../context.js';

export interface ToolContext {
  /** The context each tool call runs commands with: the squad's repository, JSON, no questions, no stdin. */
  command: CommandContext;
  scriptLimits: ScriptLimits;
  /** Calls that write run one at a time: each holds the squad lock from its first read to its last write. */
  oneAtATime<T>(work: () => Promise<T>): Promise<T>;
}

/** A writing tool waits this long for the squad lock another create-squad holds (a CLI run, another server). */
export const TOOL_LOCK_WAIT_MS = 10_000;

/**
 * The command context for tool calls: stdin belongs to the protocol, paths are relative to the
 * repository, and a writing tool waits a little for the squad lock rather than failing at once.
 */
export function toolCommandContext(ctx: CommandContext): CommandContext {
  return {
    ...ctx,
    lockWaitMs: ctx.lockWaitMs ?? TOOL_LOCK_WAIT_MS,
    invocationDir: ctx.cwd,
    json: true,
    interactive: false,
    via: 'mcp',
    readStdin: () => Promise.reject(usageError('"-" reads the task from stdin on the command line; give the task itself', 'pass the text of the task')),
  };
}

/** A queue of one: each piece of work starts when the one before it has finished, whatever its outcome. */
export function serialQueue(): ToolContext['oneAtATime'] {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = last.then(work, work);
    last = next.catch(() => undefined);
    return next;
  };
}

export { findSkill, skillsSeenBy, type SkillView } from '../skill-view.js';
