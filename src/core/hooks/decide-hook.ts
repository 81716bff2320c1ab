/**
 * What a hook answers, decided from the host's payload and what was read of the squad. Pure: the
 * command reads (hook-state.ts), this decides, the command renders the one spawn prompt a decision
 * may need and prints the answer.
 */
import path from 'node:path';
import { AI_TEAM_DIR } from '../base/paths.js';
import { FILE_CHANGING_TOOLS, SPAWN_TOOL, type GuardMode, type HookHost } from '../base/hook-events.js';
import type { ModelChoice } from '../roster/models.js';

/** The squad as a hook sees it. */
export interface HookFacts {
  /** The repository's root (absolute). */
  root: string;
  /** Member folders on the roster (Scribe included), whose agents `task` may start. */
  members: ReadonlySet<string>;
  /** Whether the session's own agent is the squad's coordinator (read from the session's transcript). */
  coordinatorActive: boolean;
  guard: GuardMode;
  /** The model each member a call may start runs on (roster/models.ts resolveModel); absent: the session's. */
  models: ReadonlyMap<string, ModelChoice>;
}

/** A preToolUse payload, in either host's field names. */
export interface ToolUse {
  tool: string;
  args: Record<string, unknown>;
  /** The subagent making the call (its custom agent); undefined for the session's own agent. */
  agentType: string | undefined;
  cwd: string;
}

export type HookDecision =
  | { kind: 'pass' }
  | { kind: 'guard'; mode: GuardMode; reason: string }
  /**
   * A member started without its spawn prompt or its model: `task` (the coordinator's words) goes
   * into its spawn prompt, undefined when the prompt is one already; `set` holds the `model` and
   * `reasoning_effort` the call gains.
   */
  | { kind: 'complete-spawn'; member: string; task: string | undefined; set: SpawnModelArgs; args: Record<string, unknown> };

/** What the Copilot CLI's `task` takes to pick a spawn's model: one name (a string, not a list) and an effort. */
export interface SpawnModelArgs {
  model?: string;
  reasoning_effort?: string;
}

/** The fields of a preToolUse payload, wherever each host puts them; undefined when it is not one. */
export function toolUseOf(payload: Record<string, unknown>): ToolUse | undefined {
  const tool = payload.toolName ?? payload.tool_name;
  let args = payload.toolArgs ?? payload.tool_input;
  if (typeof tool !== 'string') return undefined;
  // Some Copilot CLI versions send the arguments as a JSON string.
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown;
    } catch {
      args = {};
    }
  }
  const agentType = payload.agentType ?? payload.agent_type;
  return {
    tool,
    args: typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
    agentType: typeof agentType === 'string' && agentType !== '' ? agentType : undefined,
    cwd: typeof payload.cwd === 'string' ? payload.cwd : '',
  };
}

/** The marker a spawn prompt of create-squad carries for member `folder` (its charter heading). */
export function spawnPromptMarker(folder: string): string {
  return `YOUR CHARTER (${AI_TEAM_DIR}/agents/${folder}/charter.md)`;
}

/**
 * Whether a tool call can concern the coordinator at all (the session's own agent starting a member
 * or changing a file): for any other call a hook reads nothing and answers `{}`.
 */
export function mayConcernCoordinator(use: ToolUse): boolean {
  // Members, and any agent other than the session's own, are never limited.
  return use.agentType === undefined && (use.tool === SPAWN_TOOL || FILE_CHANGING_TOOLS.has(use.tool));
}

export function decidePreToolUse(use: ToolUse, facts: HookFacts): HookDecision {
  if (!mayConcernCoordinator(use) || !facts.coordinatorActive) return { kind: 'pass' };
  if (use.tool === SPAWN_TOOL) {
    const member = typeof use.args.agent_type === 'string' ? use.args.agent_type : undefined;
    const prompt = typeof use.args.prompt === 'string' ? use.args.prompt : '';
    if (member === undefined || !facts.members.has(member)) return { kind: 'pass' };
    const task = prompt.includes(spawnPromptMarker(member)) ? undefined : prompt.trim() || String(use.args.description ?? '').trim() || 'the task the coordinator gives you';
    const set = spawnModelArgs(use.args, facts.models.get(member));
    if (task === undefined && Object.keys(set).length === 0) return { kind: 'pass' };
    return { kind: 'complete-spawn', member, task, set, args: use.args };
  }
  const target = [use.args.path, use.args.filePath, use.args.file_path].find((value): value is string => typeof value === 'string');
  const absolute = target === undefined ? undefined : path.resolve(use.cwd || facts.root, target);
  if (absolute !== undefined && insideSquadState(facts.root, absolute)) return { kind: 'pass' };
  const what = absolute === undefined ? 'this change' : `a change to ${path.relative(facts.root, absolute) || target}`;
  return {
    kind: 'guard',
    mode: facts.guard,
    reason: `The Squad coordinator delegates: ${what} is a member's work. Run \`create-squad route "<the task>"\` to pick the member, then start it with the task tool (agent_type = its folder); the coordinator writes only in ${AI_TEAM_DIR}/.`,
  };
}

/**
 * The member's recorded model for a `task` call that names none: its first choice (`task` takes one
 * name; the CLI also starts a listed agent on the first) and its effort. What the call gives is kept,
 * each on its own: a model or effort the coordinator (or the user through it) chose wins.
 */
export function spawnModelArgs(args: Record<string, unknown>, choice: ModelChoice | undefined): SpawnModelArgs {
  const given = (key: string) => typeof args[key] === 'string' && (args[key] as string).trim() !== '';
  const model = choice?.models[0];
  return {
    ...(model !== undefined && !given('model') ? { model } : {}),
    ...(choice?.effort !== undefined && !given('reasoning_effort') ? { reasoning_effort: choice.effort } : {}),
  };
}

function insideSquadState(root: string, absolute: string): boolean {
  const relative = path.relative(path.join(root, AI_TEAM_DIR), absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Which host sent a payload: VS Code's carries snake_case tool fields, whatever event name its hooks file used. */
export function hostOf(payload: Record<string, unknown>, named: HookHost): HookHost {
  return 'tool_name' in payload || 'hook_event_name' in payload ? 'vscode' : named;
}

/** The answer a host reads on stdout: the Copilot CLI's fields, or VS Code's `hookSpecificOutput`. */
export function hookAnswer(decision: HookDecision, host: HookHost, prompt?: string): Record<string, unknown> {
  if (decision.kind === 'pass') return {};
  const permission =
    decision.kind === 'guard'
      ? { permissionDecision: decision.mode === 'warn' ? 'allow' : decision.mode, permissionDecisionReason: decision.reason }
      : { permissionDecision: 'allow' };
  const args = decision.kind === 'complete-spawn' ? { ...decision.args, ...decision.set, ...(prompt === undefined ? {} : { prompt }) } : undefined;
  if (host === 'copilot-cli') return { ...permission, ...(args === undefined ? {} : { modifiedArgs: args }) };
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', ...permission, ...(args === undefined ? {} : { updatedInput: args }) } };
}
