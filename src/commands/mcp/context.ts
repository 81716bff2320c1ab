/**
 * What every tool of the MCP server works with: the squad it serves, as a command context, and the
 * rules that hold across calls.
 */
import { closestMatch } from '../../core/base/edit-distance.js';
import { discoverSkills, type DiscoveredSkill } from '../../core/squad/discover.js';
import { SquadError, usageError } from '../../core/base/errors.js';
import { requireAgent } from '../../core/squad/roster.js';
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

export interface SkillView {
  /** The member's folder name, when the view is one member's. */
  agent?: string;
  skills: DiscoveredSkill[];
  warnings: string[];
}

/**
 * The skills one member sees (built-in, team and its own, after precedence), or without a member
 * the skills every member sees (built-in and team).
 */
export function skillsSeenBy(root: string, agent: string | undefined): SkillView {
  const name = agent === undefined ? undefined : requireAgent(root, agent).name;
  const discovery = discoverSkills(root, name === undefined ? {} : { agent: name });
  const skills = name === undefined ? discovery.skills.filter((skill) => skill.agent === undefined) : discovery.skills;
  const warnings = discovery.warnings.filter((w) => w.code !== 'skill-invalid').map((w) => w.message);
  return { ...(name === undefined ? {} : { agent: name }), skills, warnings };
}

/** One skill of a view by its name; NOT_FOUND naming the closest one, or where else it is. */
export function findSkill(root: string, view: SkillView, name: string): DiscoveredSkill {
  const wanted = name.trim();
  const found = view.skills.find((skill) => skill.dirName === wanted) ?? view.skills.find((skill) => skill.dirName.toLowerCase() === wanted.toLowerCase());
  if (found) return found;
  const seen = view.agent === undefined ? 'the team' : view.agent;
  const owner = view.agent === undefined ? discoverSkills(root).skills.find((skill) => skill.dirName === wanted && skill.agent !== undefined)?.agent : undefined;
  const close = closestMatch(wanted, view.skills.map((skill) => skill.dirName));
  const hint =
    owner !== undefined
      ? `it is ${owner}'s own skill: pass agent "${owner}"`
      : close !== undefined
        ? `did you mean "${close}"? list_skills lists the skills ${seen} sees`
        : `list_skills lists the skills ${seen} sees`;
  return notFound(`no skill "${wanted}" is visible to ${seen}`, hint);
}

function notFound(message: string, hint: string): never {
  throw new SquadError('NOT_FOUND', message, { hint });
}
