/**
 * What `init` writes, decided in one plan from what init-state.ts readInitState read: the scaffold
 * (scaffold-plan.ts), then the project context an existing squad's flags change (context-plan.ts),
 * then the squad's MCP server for the hosts `--mcp` picks (mcp-register.ts), in that order. The
 * report, the dry run and the commit hint all come from this plan's changes. No disk access
 * (test/unit/decide-init.test.ts runs it with node:fs off).
 */
import { squadPaths } from '../base/paths.js';
import type { Change, Plan } from '../base/plan.js';
import type { McpHostId } from '../skills/mcp.js';
import { decideContextChange, type ContextChange } from './context-plan.js';
import type { InitState } from './init-state.js';
import { decideMcpRegistration, type McpRegistrationPlan } from './mcp-register.js';
import { decideScaffold, plannedChanges, type ProjectContext, type ScaffoldOptions, type ScaffoldPlan } from './scaffold-plan.js';

export interface InitInput {
  /** The answers: flags, and on a terminal what the questions were answered (the stack defaults to the one read). */
  scaffold: Omit<ScaffoldOptions, 'version'>;
  /** --project, --stack and --owner as given: the change they make to an existing squad's context. */
  context: Partial<ProjectContext>;
  /** `--mcp`: the hosts to register the squad's MCP server with (undefined: none). */
  mcpHosts?: readonly McpHostId[];
  /** Time of the casting events and of team.md's backup (default: now). */
  now?: Date;
}

/** With --mcp: what the entries run (the repository's install), the entry for each host, the files written. */
export type InitMcp = McpRegistrationPlan;

export interface InitPlan extends Plan {
  root: string;
  scaffold: ScaffoldPlan;
  /** The change to an existing squad's project context (undefined: none to make). */
  context: ContextChange | undefined;
  /** With --mcp: the server entry for each host. */
  mcp: InitMcp | undefined;
  /** What the user should know: the stack read, options that did not apply, lines changed by hand. */
  notes: string[];
  /** The scaffold's changes (team.md last), the context's (team.md last), the MCP files'. */
  changes: Change[];
}

/** Decide everything init writes from what was read; throws what the scaffold and the MCP registration refuse. */
export async function decideInit(state: InitState, input: InitInput): Promise<InitPlan> {
  const now = input.now ?? new Date();
  const detected = state.detectedStack?.stack ? state.detectedStack : undefined;
  const stack = input.scaffold.stack ?? detected?.stack;
  const scaffold = await decideScaffold(state.scaffold, { ...input.scaffold, ...(stack === undefined ? {} : { stack }), version: state.version, now }, state.owned);
  // A team.md this plan creates gets the context as it is written; an existing one is changed.
  const createsTeam = scaffold.files.some((file) => file.path === squadPaths.team);
  const context = createsTeam || state.context === undefined ? undefined : decideContextChange(state.context, input.context, now);
  const mcp: InitMcp | undefined = input.mcpHosts === undefined ? undefined : decideMcpRegistration(state.mcp, input.mcpHosts);
  return {
    root: state.root,
    scaffold,
    context,
    mcp,
    notes: [...(detected ? [`stack read from ${detected.from.join(', ')}: ${detected.stack} (give another with --stack)`] : []), ...scaffold.notes, ...(context?.notes ?? [])],
    changes: [...plannedChanges(scaffold.files), ...(context?.changes ?? []), ...(mcp?.changes ?? [])],
  };
}
