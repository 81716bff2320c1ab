/**
 * `create-squad init [dir]`: scaffold everything a squad needs that is missing (docs/state-layout.md), asking
 * on a terminal for the project, stack, owner, roles and universe; defaults otherwise. One plan
 * (core/scaffold/init-plan.ts) holds the scaffold, the project context change and the MCP files; the
 * report, the dry run and the commit hint are derived from it.
 */
import path from 'node:path';
import type { Ui } from '../cli/ui.js';
import { defaultUniverseName, universes } from '../core/roster/casting.js';
import { checkWritableDir, ensureWritableDir } from '../core/fs/fs-safe.js';
import { COORDINATOR_PATH, GITIGNORE_PATH, SCRIBE_AGENT, squadPaths } from '../core/base/paths.js';
import { changeLines, changedPaths, commitHint } from '../core/base/plan.js';
import { localCommand } from '../core/base/cli-invocation.js';
import { cliHint } from '../core/fs/version.js';
import type { ContextField } from '../core/scaffold/context-plan.js';
import { defaultRoles, isLeadRole, rolePresets, splitRoleList, type RolePreset } from '../core/roster/roles.js';
import { MCP_SERVER_COMMAND, parseMcpHosts, type McpRegistration, type McpRegistrationPlan } from '../core/scaffold/mcp-register.js';
import type { McpHostId } from '../core/skills/mcp.js';
import { decideInit, type InitInput, type InitPlan } from '../core/scaffold/init-plan.js';
import { readInitState, readLocalInstall, type InitRequest, type InitState } from '../core/scaffold/init-state.js';
import { HOOKS_FILE_PATH, HOOKS_NOT_INSTALLED, HOOKS_INSTALL_FIX, hooksCanRun } from '../core/base/hook-events.js';
import { existsInside } from '../core/fs/fs-safe.js';
import { plannedChanges, type ProjectContext } from '../core/scaffold/scaffold-plan.js';
import type { CommandContext, CommandResult } from './context.js';
import { sweepRepositoryDebris } from '../core/fs/debris.js';
import { clearStaleLock } from '../core/fs/lock.js';
import { type ChangeReport, changeReport, runPlan } from './pipeline.js';
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

export interface InitData extends ChangeReport {
  dir: string;
  /** The scaffold's files: created, or (.gitattributes, .gitignore) appended to; from the plan's changes. */
  created: string[];
  skipped: string[];
  members: { name: string; role: string; folder: string }[];
  universe: string;
  gitattributesAdded: string[];
  /** Lines appended to .gitignore: backups, interrupted runs' leftovers and the default export stay out of git. */
  gitignoreAdded: string[];
  /** The project context of an existing squad, changed by --project, --stack or --owner. */
  context?: {
    changed: { field: ContextField; from: string; to: string }[];
    /** team.md and the charters that said what team.md said, in the order written (team.md last). */
    updated: string[];
    /** Where team.md was backed up first. */
    backup?: string;
  };
  notes: string[];
  /** With --mcp: the server entry for each host picked, the create-squad it runs (the repository's install) and its version. */
  mcp?: { version?: string; install: McpRegistrationPlan['install']; command: string; registrations: McpRegistration[] };
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

/**
 * Said when init moved up on its own from the folder it was run in; a folder named on the command
 * line (`init <dir>`, the README's first command, often outside any repository) is where it was asked.
 */
function movedUpNote(options: InitOptions, root: string, ctx: CommandContext): string[] {
  if (options.dir !== undefined || root === ctx.startDir) return [];
  const where = root === ctx.gitRoot ? `the repository root ${root}` : `the folder of the enclosing squad ${root}`;
  return [`set up the squad at ${where}, where Copilot looks for .github/agents/; to make a separate squad in ${ctx.startDir}, run init --here`];
}

/** The context fields given as flags: what they change in an existing squad. */
function contextFlags(options: InitOptions): Partial<ProjectContext> {
  return {
    ...(options.project === undefined ? {} : { project: options.project }),
    ...(options.stack === undefined ? {} : { stack: options.stack }),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
  };
}

/** The questions that apply to what `preview` would create, asked; undefined when there is none to ask. */
async function askQuestions(options: InitOptions, state: InitState, preview: InitPlan, ask: AskInit): Promise<Partial<InitAnswers> | undefined> {
  const creates = (relPath: string) => preview.scaffold.files.some((file) => file.path === relPath);
  const newTeam = creates(squadPaths.team);
  const cast = preview.scaffold.teamSource === 'cast';
  const questions: InitQuestions = {
    defaults: {
      project: options.project ?? state.projectSuggestion,
      stack: options.stack ?? state.detectedStack?.stack ?? '',
      owner: options.owner ?? '',
      roles: defaultRoles(),
      universe: defaultUniverseName(),
    },
    ask: {
      project: newTeam && options.project === undefined,
      stack: newTeam && options.stack === undefined,
      owner: newTeam && options.owner === undefined,
      roles: cast && options.roles === undefined,
      universe: cast && creates(squadPaths.castingPolicy) && options.universe === undefined,
    },
    presets: rolePresets(),
    universes: universes().map((u) => u.name),
    allowDuplicateRoles: options.allowDuplicateRoles === true,
  };
  return Object.values(questions.ask).some(Boolean) ? ask(questions) : undefined;
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
  const request: InitRequest = { detectStack: options.stack === undefined, ...(mcpHosts === undefined ? {} : { mcpHosts }) };
  const flags: InitInput['scaffold'] = {
    team: options.team,
    ...(options.allowDuplicateRoles ? { allowDuplicateRoles: true } : {}),
    ...(options.roles === undefined ? {} : { roles: splitRoleList(options.roles) }),
    ...(options.universe === undefined ? {} : { universe: options.universe }),
    ...contextFlags(options),
  };
  const input = (scaffold: InitInput['scaffold']): InitInput => ({ scaffold, context: contextFlags(options), ...(mcpHosts === undefined ? {} : { mcpHosts }) });

  // Decided once before the lock: every flag (and --mcp's files) is checked, and the questions
  // known, before a question is asked or a file written.
  const previewState = await readInitState(root, request);
  const preview = await decideInit(previewState, input(flags));
  if (!options.dryRun && preview.changes.length > 0) checkWritableDir(root);
  const answers = ctx.interactive && preview.scaffold.files.length > 0 ? await askQuestions(options, previewState, preview, ask) : undefined;

  let plan: InitPlan;
  if (answers === undefined && (options.dryRun || preview.changes.length === 0)) {
    plan = preview;
    // Nothing to write takes no lock (a complete squad on a read-only disk still reports), but
    // clears the lock and the debris a killed run of this command may have left.
    if (!options.dryRun) {
      clearStaleLock(root);
      sweepRepositoryDebris(root);
    }
  } else {
    if (!options.dryRun) ensureWritableDir(root);
    // Read and decided again under the lock: another command may have written since the preview.
    plan = await runPlan(ctx, {
      command: 'init',
      activity: 'init was running',
      dryRun: options.dryRun,
      root,
      read: () => readInitState(root, request),
      decide: (state) => decideInit(state, input({ ...flags, ...answers })),
    });
  }

  const { scaffold, context, mcp } = plan;
  const data: InitData = {
    dir: root,
    created: changedPaths(plannedChanges(scaffold.files)),
    skipped: scaffold.skipped,
    members: scaffold.members.map(({ name, role, folder }) => ({ name, role, folder })),
    universe: scaffold.universe,
    gitattributesAdded: scaffold.gitattributesAdded,
    gitignoreAdded: scaffold.gitignoreAdded,
    ...(context
      ? {
          context: {
            changed: context.changed,
            updated: context.changes.flatMap((change) => (change.kind === 'replace' ? [change.path] : [])),
            ...(context.backup ? { backup: context.backup } : {}),
          },
        }
      : {}),
    notes: [...movedUpNote(options, root, ctx), ...plan.notes],
    ...(mcp === undefined
      ? {}
      : { mcp: { ...(mcp.version === undefined ? {} : { version: mcp.version }), install: mcp.install, command: MCP_SERVER_COMMAND.join(' '), registrations: mcp.registrations } }),
    ...changeReport(plan, options.dryRun),
  };
  // Read now, so the text names the install that is there when init ends.
  const hireCommand = cliHint(root, 'hire <role>');
  const hooksIdle = !options.dryRun && existsInside(root, HOOKS_FILE_PATH) && !hooksCanRun(readLocalInstall(root));
  return { data, exitCode: 0, render: (ui) => renderInit(ui, plan, data, hireCommand, hooksIdle) };
}

/** The commit message of what the plan writes. */
function commitMessage(plan: InitPlan): string {
  const done = [
    ...(plan.scaffold.files.some((file) => file.path === squadPaths.team) ? ['set up the squad'] : plan.scaffold.files.length > 0 ? ['complete the squad'] : []),
    ...(plan.context ? ['update the project context'] : []),
    ...(plan.mcp && plan.mcp.changes.length > 0 ? ["register the squad's MCP server"] : []),
  ];
  return `chore(squad): ${done.join(', ')}`;
}

const FIELD_LABELS: Record<ContextField, string> = { project: 'Project', stack: 'Stack', owner: 'Owner' };

function renderContext(ui: Ui, plan: InitPlan, data: InitData): void {
  const context = data.context;
  if (!context || !plan.context) return;
  ui.success(`${data.dryRun ? 'Would update' : 'Updated'} the project context in ${data.dir}`);
  for (const { field, from, to } of context.changed) ui.out(`  ${FIELD_LABELS[field]}: "${from}" → "${to}"`);
  for (const line of changeLines(plan.context.changes, data.dryRun)) ui.out(`  ${line}`);
  if (context.backup && !plan.context.changes.some((change) => change.kind === 'backup')) ui.out(`  ${squadPaths.team} as it was: ${context.backup}`);
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

/** What --mcp did (or would do) for each host, and the entry to paste for a host that reads no file here. */
function renderMcp(ui: Ui, data: InitData): void {
  if (!data.mcp) return;
  ui.out();
  const runs =
    data.mcp.install === 'declared'
      ? `create-squad ${data.mcp.version} from package.json, once installed`
      : `the repository's create-squad${data.mcp.version ? ` ${data.mcp.version}` : ''}`;
  ui.out(`MCP server (${runs}: ${data.mcp.command}):`);
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

/** The scaffold's files: headline, team, the files by group and the ones left as they are. */
function renderScaffold(ui: Ui, plan: InitPlan, data: InitData): void {
  const team = data.members.map((m) => `${m.name} (${m.role})`).join(', ');
  const already = `already complete in ${data.dir} (${plural(data.skipped.length, 'file')} already there)`;
  if (data.created.length === 0) {
    if (plan.changes.length === 0) ui.success(`Nothing to do: the squad is ${already}`);
    else if (!plan.context) ui.success(`The squad is ${already}`);
    ui.out(`  Team (${data.universe}): ${team}`);
    return;
  }
  ui.success(`${data.dryRun ? 'Would create' : 'Created'} ${plural(data.created.length, 'file')} in ${data.dir}`);
  ui.out(`  Team (${data.universe}): ${team}`);
  ui.out();
  ui.out(data.dryRun ? 'Would create:' : 'Created:');
  const lines: Record<string, string[]> = { [squadPaths.gitattributes]: data.gitattributesAdded, [GITIGNORE_PATH]: data.gitignoreAdded };
  const appended = new Set(plan.changes.flatMap((change) => (change.kind === 'replace' ? [change.path] : [])));
  renderGroups(ui, data.created, (label) => {
    const added = lines[label];
    if (added === undefined) return '';
    return appended.has(label) ? `+${plural(added.length, 'line')} appended` : plural(added.length, 'line');
  });
  if (data.skipped.length > 0) {
    ui.out();
    ui.out('Skipped (already there, left as they are):');
    renderGroups(ui, data.skipped);
  }
}

/**
 * After --mcp wrote host files: that the commit carries them (teammates get the server from it),
 * the Copilot CLI's trust step, the install the entries run, and how to check that the server starts.
 */
function mcpSteps(plan: InitPlan): string[] {
  const mcp = plan.mcp;
  const files = (mcp?.registrations ?? []).filter((r) => r.status === 'added' && r.path !== undefined);
  if (mcp === undefined || files.length === 0) return [];
  const cli = files.find((r) => r.host === 'copilot-cli');
  return [
    `${files.map((r) => r.path).join(' and ')} ${files.length > 1 ? 'are' : 'is'} in this commit: a clone gets the server once its dependencies are installed`,
    ...(cli ? [`Copilot CLI: it reads ${cli.path} only in a folder you trust; say yes when copilot asks whether you trust this folder`] : []),
    ...(mcp.install === 'declared' ? ['Run npm install first: package.json asks for create-squad, and the server runs that install'] : []),
    `Check that the server starts: ${localCommand('doctor')}`,
  ];
}

/** Where to go from a new squad; step 1 is the plan's commit hint (and what --mcp adds to it). */
function renderNextSteps(ui: Ui, plan: InitPlan, hint: string, hireCommand: string): void {
  const cast = plan.scaffold.members.filter((m) => m.folder !== SCRIBE_AGENT);
  const lead = cast.find((m) => isLeadRole(m.role)) ?? cast[0];
  ui.out('Next steps:');
  ui.out(`  1. Commit the squad: ${hint}`);
  for (const line of mcpSteps(plan)) ui.out(`     ${line}`);
  const agentId = path.posix.basename(COORDINATOR_PATH, '.agent.md');
  ui.out('  2. In GitHub Copilot, pick the "Squad" agent:');
  ui.out('     VS Code: the agent picker at the bottom of the Chat view');
  ui.out(`     Copilot CLI: /agent, or start it with: copilot --agent ${agentId} (a running copilot loads a new agent when restarted)`);
  ui.out(`     Cloud agent: merge ${COORDINATOR_PATH} into the default branch first, then pick Squad when you assign an issue or start a task`);
  ui.out(`  3. Say what you are building${lead ? `, e.g. "${lead.name}, set up the project structure for …"` : ''}`);
  if (!lead) ui.out(`  Add members first with: ${hireCommand}`);
}

/**
 * The report of a plan: notes, the context change, the scaffold, the MCP servers; then the dry
 * run's note, or the commit hint of exactly what was written (nothing of the kind when nothing was).
 */
function renderInit(ui: Ui, plan: InitPlan, data: InitData, hireCommand: string, hooksIdle: boolean): void {
  for (const note of data.notes) ui.warn(note);
  renderContext(ui, plan, data);
  renderScaffold(ui, plan, data);
  renderMcp(ui, data);
  if (plan.changes.length === 0) return;
  ui.out();
  if (data.dryRun) {
    ui.out('Dry run: nothing was written.');
    return;
  }
  const hint = commitHint(plan.changes, commitMessage(plan))!;
  if (data.created.length > 0) renderNextSteps(ui, plan, hint, hireCommand);
  else {
    ui.out(`  Commit it: ${hint}`);
    for (const line of mcpSteps(plan)) ui.out(`    ${line}`);
  }
  // The hooks hold the coordinator to delegating; one line, so a squad without them is not mistaken for a guarded one.
  if (hooksIdle) ui.out(`  Note: ${HOOKS_NOT_INSTALLED}; ${HOOKS_INSTALL_FIX}.`);
}
