/**
 * `create-squad init [dir]`: scaffold everything a squad needs that is missing (docs/state-layout.md), asking
 * on a terminal for the project, stack, owner, roles and universe; defaults otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Ui } from '../cli/ui.js';
import { defaultUniverseName, universes } from '../core/squad/casting.js';
import { checkWritableDir, ensureWritableDir } from '../core/fs/fs-safe.js';
import { readStateText } from '../core/fs/confined.js';
import { applySteps, describeSteps } from '../core/squad/members.js';
import { COORDINATOR_PATH, GITIGNORE_PATH, SCRIBE_AGENT, commitPaths, squadPaths } from '../core/base/paths.js';
import { detectStack, planContextChange, type ContextChange, type ContextField } from '../core/squad/project-context.js';
import { defaultRoles, isLeadRole, rolePresets, splitRoleList, type RolePreset } from '../core/squad/roles.js';
import { applyMcpRegistration, parseMcpHosts, planMcpRegistration, type McpRegistration } from '../core/squad/mcp-register.js';
import type { McpHostId } from '../core/skills/mcp.js';
import { readCoordinatorStamp } from '../core/squad/coordinator.js';
import { packageVersion } from '../core/fs/version.js';
import { applyScaffold, planScaffold, type ScaffoldOptions, type ScaffoldPlan } from '../core/squad/scaffold.js';
import { compareCodePoints, isMapping } from '../core/base/util.js';
import type { CommandContext, CommandResult } from './context.js';
import { sweepRepositoryDebris } from '../core/fs/debris.js';
import { clearStaleLock } from '../core/fs/lock.js';
import { underSquadLock } from './pipeline.js';
import { groupPaths, plural } from './format.js';

export interface InitOptions {
  /** Target folder (relative to --cwd); default: --cwd itself. */
  dir?: string;
  /** Scaffold in the folder the command was pointed at, even inside a repository with its root elsewhere. */
  here?: boolean;
  /** Comma-separated roles, as typed. */
  roles?: string;
  universe?: string;
  project?: string;
  stack?: string;
  owner?: string;
  /** Cast several members in one role when --roles names it more than once. */
  allowDuplicateRoles?: boolean;
  /** false with --no-team. */
  team: boolean;
  dryRun: boolean;
  /** `--mcp [hosts]`: register the squad's MCP server for these hosts ("vscode,copilot-cli"; true or "all": every host). */
  mcp?: McpHostId[] | string | true;
}

export interface InitAnswers {
  project: string;
  stack: string;
  owner: string;
  roles: string[];
  universe: string;
}

export interface InitQuestions {
  /** Suggested answers (what --yes would use). */
  defaults: InitAnswers;
  /** Which questions apply: false when a flag answered it or the existing squad decides it. */
  ask: Record<keyof InitAnswers, boolean>;
  presets: RolePreset[];
  universes: string[];
  /** --allow-duplicate-roles: a role may be picked and typed again. */
  allowDuplicateRoles: boolean;
}

/** Asks the questions; resolves with the answers, or rejects (SquadError aborted) when cancelled. */
export type AskInit = (questions: InitQuestions) => Promise<Partial<InitAnswers>>;

export interface InitData {
  dir: string;
  created: string[];
  skipped: string[];
  members: { name: string; role: string; folder: string }[];
  universe: string;
  dryRun: boolean;
  gitattributesAdded: string[];
  /** Lines appended to .gitignore: backups, interrupted runs' leftovers and the default export stay out of git. */
  gitignoreAdded: string[];
  /** The project context of an existing squad, changed by --project, --stack or --owner. */
  context?: {
    changed: { field: ContextField; from: string; to: string }[];
    /** team.md and the charters that said what team.md said. */
    updated: string[];
    /** Where team.md was backed up first. */
    backup?: string;
  };
  notes: string[];
  /** With --mcp: the server entry for each host picked, and the create-squad version it runs. */
  mcp?: { version: string; registrations: McpRegistration[] };
}

/** The project's own description from its package.json, as a suggestion. */
function suggestedProject(root: string): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as unknown;
    if (isMapping(pkg) && typeof pkg.description === 'string') return pkg.description.trim();
  } catch {
    // no package.json: no suggestion
  }
  return '';
}

/**
 * Where init scaffolds: the folder given as `dir` (relative to where it was pointed), that folder
 * itself with `--here`, else the enclosing squad or repository root, where Copilot looks for
 * `.github/agents/` (a second squad in a subfolder would be invisible to it).
 */
function initRoot(options: InitOptions, ctx: CommandContext): string {
  if (options.dir !== undefined) return path.resolve(ctx.startDir, options.dir);
  return options.here ? ctx.startDir : ctx.cwd;
}

/** Said when init was run below the folder it scaffolds. */
function movedUpNote(root: string, ctx: CommandContext): string[] {
  if (root === ctx.startDir) return [];
  return [`set up the squad at the repository root ${root}, where Copilot looks for .github/agents/; to make a separate squad in ${ctx.startDir}, run init --here`];
}

/**
 * `ask` puts the questions to the user; the CLI passes its terminal questions (src/cli), tests
 * their own answers. It is called only when `ctx.interactive` and something is left to ask.
 */
export async function init(options: InitOptions, ctx: CommandContext, ask: AskInit): Promise<CommandResult<InitData>> {
  const root = initRoot(options, ctx);
  // A file where the folder should be is refused now; write access only matters if there is
  // something to write (a dry run, or a complete squad on a read-only disk, still report).
  checkWritableDir(root, { write: false });
  const mcpHosts = options.mcp === undefined ? undefined : Array.isArray(options.mcp) ? options.mcp : parseMcpHosts(options.mcp);

  // A new squad's stack, when not given, is read from the repository's manifest files.
  const teamExists = readStateText(root, squadPaths.team) !== undefined;
  const detected = options.stack === undefined && !teamExists ? detectStack(root) : undefined;
  const stackNote = detected?.stack ? [`stack read from ${detected.from.join(', ')}: ${detected.stack} (give another with --stack)`] : [];
  const flags: ScaffoldOptions = {
    team: options.team,
    ...(options.allowDuplicateRoles ? { allowDuplicateRoles: true } : {}),
    ...(detected?.stack ? { stack: detected.stack } : {}),
    ...(options.roles === undefined ? {} : { roles: splitRoleList(options.roles) }),
    ...(options.universe === undefined ? {} : { universe: options.universe }),
    ...(options.project === undefined ? {} : { project: options.project }),
    ...(options.stack === undefined ? {} : { stack: options.stack }),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
  };
  // Planning validates every flag before a question is asked or a file written.
  let chosen = flags;
  let plan = await planScaffold(root, chosen);
  if (!options.dryRun && plan.files.length > 0) checkWritableDir(root);

  if (ctx.interactive && plan.files.length > 0) {
    const creates = (relPath: string) => plan.files.some((file) => file.path === relPath);
    const newTeam = creates(squadPaths.team);
    const questions: InitQuestions = {
      defaults: {
        project: options.project ?? suggestedProject(root),
        stack: options.stack ?? detected?.stack ?? '',
        owner: options.owner ?? '',
        roles: defaultRoles(),
        universe: defaultUniverseName(),
      },
      ask: {
        project: newTeam && options.project === undefined,
        stack: newTeam && options.stack === undefined,
        owner: newTeam && options.owner === undefined,
        roles: plan.teamSource === 'cast' && options.roles === undefined,
        universe: plan.teamSource === 'cast' && creates(squadPaths.castingPolicy) && options.universe === undefined,
      },
      presets: rolePresets(),
      universes: universes().map((u) => u.name),
      allowDuplicateRoles: options.allowDuplicateRoles === true,
    };
    if (Object.values(questions.ask).some(Boolean)) {
      chosen = { ...flags, ...(await ask(questions)) };
      plan = await planScaffold(root, chosen);
    }
  }

  let context = contextChange(root, plan, options);
  // --mcp: refused here, before anything is written, when a host's file cannot take the entry.
  let mcpPlan = mcpHosts === undefined ? undefined : planMcpRegistration(root, mcpHosts, mcpVersion(root, plan));
  const mcpWrites = () => (mcpPlan?.writes.length ?? 0) > 0;
  // Nothing to write: still clear the lock and the debris a killed run of this command may have left.
  if (!options.dryRun && plan.files.length === 0 && !context && !mcpWrites()) {
    clearStaleLock(root);
    sweepRepositoryDebris(root);
  }
  if (!options.dryRun && (plan.files.length > 0 || context || mcpWrites())) {
    ensureWritableDir(root);
    // Planned again under the lock: another command may have written since the plan above.
    ({ plan, context } = await underSquadLock(
      ctx,
      'init',
      false,
      async () => {
        const fresh = await planScaffold(root, chosen);
        const freshContext = contextChange(root, fresh, options);
        if (fresh.files.length > 0) applyScaffold(fresh);
        if (freshContext) applySteps(root, freshContext.steps, 'init was running');
        if (mcpHosts !== undefined) {
          mcpPlan = planMcpRegistration(root, mcpHosts, mcpVersion(root, fresh));
          applyMcpRegistration(root, mcpPlan);
        }
        return { plan: fresh, context: freshContext };
      },
      root,
    ));
  }

  const created = plan.files.map((file) => file.path).sort(compareCodePoints);
  const data: InitData = {
    dir: root,
    created,
    skipped: plan.skipped,
    members: plan.members.map(({ name, role, folder }) => ({ name, role, folder })),
    universe: plan.universe,
    dryRun: options.dryRun,
    gitattributesAdded: plan.gitattributesAdded,
    gitignoreAdded: plan.gitignoreAdded,
    ...(context ? { context: { changed: context.changed, updated: describeSteps(context.steps).modified, ...(context.backup ? { backup: context.backup } : {}) } } : {}),
    notes: [...movedUpNote(root, ctx), ...stackNote, ...plan.notes, ...(context?.notes ?? [])],
    ...(mcpPlan === undefined ? {} : { mcp: { version: mcpVersion(root, plan), registrations: mcpPlan.registrations } }),
  };
  return {
    data,
    exitCode: 0,
    render: (ui) => {
      renderInit(ui, plan, data);
      renderMcp(ui, data);
    },
  };
}

/** The version the server entries pin: the coordinator's stamp, as its own npx lines (this version when init writes it). */
function mcpVersion(root: string, plan: ScaffoldPlan): string {
  const planned = plan.files.find((file) => file.path === COORDINATOR_PATH);
  const text = planned === undefined ? readStateText(root, COORDINATOR_PATH) : String(planned.content);
  return (text === undefined ? undefined : readCoordinatorStamp(text)) ?? packageVersion();
}

/**
 * The change --project, --stack and --owner make to the context of a squad whose team.md exists
 * (a team.md init creates gets them as it is written); undefined when there is none to make.
 */
function contextChange(root: string, plan: ScaffoldPlan, options: InitOptions): ContextChange | undefined {
  if (plan.files.some((file) => file.path === squadPaths.team)) return undefined;
  const teamText = readStateText(root, squadPaths.team);
  if (teamText === undefined) return undefined;
  const wanted = {
    ...(options.project === undefined ? {} : { project: options.project }),
    ...(options.stack === undefined ? {} : { stack: options.stack }),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
  };
  return planContextChange(root, teamText, wanted, new Date());
}

const FIELD_LABELS: Record<ContextField, string> = { project: 'Project', stack: 'Stack', owner: 'Owner' };

function renderContext(ui: Ui, data: InitData): void {
  const context = data.context;
  if (!context) return;
  ui.success(`${data.dryRun ? 'Would update' : 'Updated'} the project context in ${data.dir}`);
  for (const { field, from, to } of context.changed) ui.out(`  ${FIELD_LABELS[field]}: "${from}" → "${to}"`);
  for (const file of context.updated) ui.out(`  ${data.dryRun ? 'would update' : 'updated'}  ${file}`);
  if (context.backup) ui.out(`  ${squadPaths.team} as it was: ${context.backup}`);
}

function renderGroups(ui: Ui, paths: readonly string[], extra: (label: string) => string = () => ''): void {
  const groups = groupPaths(paths);
  const width = Math.max(...groups.map((g) => g.label.length));
  for (const { label, count } of groups) {
    const detail = label.endsWith('/') ? plural(count, 'file') : extra(label);
    if (detail) ui.out('  ', label.padEnd(width), '  ', ui.style.dim(detail));
    else ui.out('  ', label);
  }
}

/** What --mcp did for each host, and the entry to paste for a host that reads no file here. */
function renderMcp(ui: Ui, data: InitData): void {
  if (!data.mcp) return;
  ui.out();
  ui.out(`MCP server (create-squad@${data.mcp.version} mcp):`);
  for (const r of data.mcp.registrations) {
    const mark = r.status === 'added' ? ui.style.green(data.dryRun ? '+' : '✓') : r.status === 'kept' ? ui.style.dim('=') : ui.style.yellow('→');
    ui.out(
      '  ',
      mark,
      ' ',
      data.dryRun && r.status === 'added' ? r.note.replace(' added for ', ' would be added for ').replace(' created for ', ' would be created for ') : r.note,
    );
    if (r.status === 'manual') {
      for (const line of JSON.stringify({ mcpServers: { [r.name]: r.entry } }, null, 2).split('\n')) ui.out('      ', line);
    }
  }
  if (data.mcp.registrations.some((r) => r.status === 'added') && !data.dryRun)
    ui.out('  Restart the host (or reload its MCP servers) to start it; the coordinator uses its tools when they are there.');
}

function renderInit(ui: Ui, plan: ScaffoldPlan, data: InitData): void {
  const team = data.members.map((m) => `${m.name} (${m.role})`).join(', ');
  for (const note of data.notes) ui.warn(note);
  renderContext(ui, data);
  if (data.created.length === 0) {
    if (!data.context) ui.success(`Nothing to do: the squad is already complete in ${data.dir} (${plural(data.skipped.length, 'file')} already there)`);
    ui.out(`  Team (${data.universe}): ${team}`);
    if (data.dryRun && data.context) ui.out('Dry run: nothing was written.');
    return;
  }
  const verb = data.dryRun ? 'Would create' : 'Created';
  ui.success(`${verb} ${plural(data.created.length, 'file')} in ${data.dir}`);
  ui.out(`  Team (${data.universe}): ${team}`);
  ui.out();
  ui.out(data.dryRun ? 'Would create:' : 'Created:');
  const lines: Record<string, string[]> = { [squadPaths.gitattributes]: data.gitattributesAdded, [GITIGNORE_PATH]: data.gitignoreAdded };
  renderGroups(ui, data.created, (label) => {
    const added = lines[label];
    if (added === undefined) return '';
    const appended = plan.files.some((f) => f.path === label && f.update);
    return `${appended ? '+' : ''}${plural(added.length, 'line')}${appended ? ' appended' : ''}`;
  });
  if (data.skipped.length > 0) {
    ui.out();
    ui.out('Skipped (already there, left as they are):');
    renderGroups(ui, data.skipped);
  }
  ui.out();
  if (data.dryRun) {
    ui.out('Dry run: nothing was written.');
    return;
  }
  const cast = plan.members.filter((m) => m.folder !== SCRIBE_AGENT);
  const lead = cast.find((m) => isLeadRole(m.role)) ?? cast[0];
  ui.out('Next steps:');
  ui.out(`  1. Commit the squad: git add -A -- ${commitPaths(initChangedPaths(data)).join(' ')}`);
  const agentId = path.posix.basename(COORDINATOR_PATH, '.agent.md');
  ui.out('  2. In GitHub Copilot, pick the "Squad" agent:');
  ui.out('     VS Code: the agent picker at the bottom of the Chat view');
  ui.out(`     Copilot CLI: /agent, or start it with: copilot --agent ${agentId} (a running copilot loads a new agent when restarted)`);
  ui.out(`     Cloud agent: merge ${COORDINATOR_PATH} into the default branch first, then pick Squad when you assign an issue or start a task`);
  ui.out(`  3. Say what you are building${lead ? `, e.g. "${lead.name}, set up the project structure for …"` : ''}`);
  if (!lead) ui.out('  Add members first with: npx create-squad hire <role>');
}

/** Every path init wrote: its files, the lines it added to .gitattributes and .gitignore, the project context, the MCP files. */
function initChangedPaths(data: InitData): string[] {
  return [
    ...data.created,
    ...(data.gitattributesAdded.length > 0 ? [squadPaths.gitattributes] : []),
    ...(data.gitignoreAdded.length > 0 ? [GITIGNORE_PATH] : []),
    ...(data.context?.updated ?? []),
    ...(data.mcp?.registrations ?? []).flatMap((r) => (r.status === 'added' && r.path !== undefined ? [r.path] : [])),
  ];
}
