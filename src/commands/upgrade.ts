/**
 * `create-squad upgrade [--dry-run] [--json]`: refresh the files create-squad owns (coordinator,
 * `.ai-team-templates/`, built-in skills), run the additive migrations, make skills in the original
 * Squad's style standard, and report what changed, what was backed up and where, and which learned
 * skills were left alone.
 *
 * One lock, two plans: first the move of a squad the original Squad keeps in `.squad/` (nothing
 * for any other squad), then the upgrade read from the tree that move leaves. The upgrade reads
 * the squad where it is (the roster, the skills its agents are generated from, the manifest), so
 * it is decided on the moved tree rather than on a view of the move: a dry run of a squad still in
 * `.squad/` lists the move and the skills it would make standard, and says the rest follows.
 */
import type { Ui } from '../cli/ui.js';
import { type Change, type Plan, changeLines, commitHint } from '../core/base/plan.js';
import { COORDINATOR_PATH, ORIGINAL_SQUAD_DIR, squadPaths } from '../core/base/paths.js';
import { NEVER_WRITTEN, obstacleFix } from '../core/fs/obstacles.js';
import { packageVersion } from '../core/fs/version.js';
import { conversionChanges, decideOriginalSkillConversions, readOriginalSkillFiles, type OriginalSkillFile, type SkillConversion } from '../core/squad/original/skill-migration.js';
import { decideSquadDirMigration, type SquadDirMigration } from '../core/squad/original/squad-dir.js';
import { decideUpgrade, type UpgradePlan } from '../core/scaffold/upgrade.js';
import { readUpgradeState, type UpgradeState } from '../core/scaffold/upgrade-state.js';
import type { CommandContext, CommandResult } from './context.js';
import { plural } from './format.js';
import { type ChangeReport, type NextPlan, changeReport, runPlanThen } from './pipeline.js';
import {
  readSquadDir,
  renderSkillConversions,
  renderSquadDirMigration,
  skillConversionReports,
  squadDirReport,
  type SkillConversionReport,
  type SquadDirReport,
} from './upgrade-original.js';

export interface UpgradeCommandOptions {
  dryRun: boolean;
  /** Bring the histories and decisions of squad-cli's `squad-state` branch into `.ai-team/`. */
  fromStateBranch?: boolean;
}

/** The --json document: the plan's lists, plus where, whether adopted, the learned skills left alone, and every change. */
export type UpgradeData = Pick<
  UpgradePlan,
  'from' | 'to' | 'upToDate' | 'created' | 'replaced' | 'backedUp' | 'skipped' | 'notUpgraded' | 'migrations' | 'agentProfiles' | 'notes'
> &
  ChangeReport & {
    dir: string;
    /** The squad had no install record (original Squad layout, or made by hand). */
    adopted: boolean;
    learnedSkillsUntouched: number;
    /** A squad the original Squad kept in .squad/, moved to .ai-team/ first. */
    squadDir?: SquadDirReport;
    /** Skills in the original Squad's style made standard, each backed up first. */
    originalSkills?: SkillConversionReport[];
  };

/** The second plan: the upgrade, or (a dry run of a squad still to be moved) only the skills it would make standard. */
interface UpgradeStage extends Plan {
  upgrade: UpgradePlan | undefined;
  conversions: SkillConversion[];
}

/** What the second plan decides from: the upgrade's state, or the skills of a squad a dry run did not move. */
type StageState = { upgrade: UpgradeState } | { skills: OriginalSkillFile[]; dir: string | undefined };

/**
 * Read for the second plan; `unmoved` is the first plan when a dry run left it unapplied, `moving`
 * the first plan (a squad it moves, or whose text it points at `.ai-team/`, came from `.squad/`).
 */
async function readStage(root: string, now: Date, unmoved: SquadDirMigration | undefined, moving: SquadDirMigration): Promise<StageState> {
  if (unmoved === undefined) {
    const upgrade = await readUpgradeState(root, { now });
    return { upgrade: { ...upgrade, cameFromSquadDir: upgrade.cameFromSquadDir || moving.move !== undefined || moving.rewrites.length > 0 } };
  }
  // Not moved yet: the skills are read where they are, and named as they will be.
  const dir = unmoved.move === undefined ? undefined : ORIGINAL_SQUAD_DIR;
  return { skills: readOriginalSkillFiles(root, dir), dir };
}

async function decideStage(state: StageState, now: Date): Promise<UpgradeStage> {
  if ('upgrade' in state) {
    const plan = await decideUpgrade(state.upgrade, { now });
    return { upgrade: plan, conversions: plan.originalSkills, changes: plan.changes };
  }
  const conversions = decideOriginalSkillConversions(state.skills, { ...(state.dir === undefined ? {} : { dir: state.dir, cameFromSquadDir: true }), now });
  return { upgrade: undefined, conversions, changes: conversionChanges(conversions) };
}

export async function upgrade(options: UpgradeCommandOptions, ctx: CommandContext): Promise<CommandResult<UpgradeData>> {
  const { dryRun } = options;
  const now = new Date();
  const root = ctx.cwd;
  const { first: squadDir, second } = await runPlanThen(
    ctx,
    {
      command: 'upgrade',
      activity: 'upgrading',
      dryRun,
      read: () => readSquadDir(root, { fromStateBranch: options.fromStateBranch === true }),
      decide: (state) => decideSquadDirMigration(state, now),
    },
    (moving): NextPlan<StageState, UpgradeStage> => ({
      // Only the move and the renames change where files are; a dry run without them plans the whole upgrade.
      read: () => readStage(root, now, dryRun && (moving.move !== undefined || moving.renames.length > 0) ? moving : undefined, moving),
      decide: (state) => decideStage(state, now),
    }),
  );
  const stage = second!;
  const plan: Plan = { changes: [...squadDir.changes, ...stage.changes] };
  const moved = squadDirReport(squadDir);
  const skills = skillConversionReports(stage.conversions);
  const extra = { ...(moved === undefined ? {} : { squadDir: moved }), ...(skills.length === 0 ? {} : { originalSkills: skills }) };
  const report = changeReport(plan, dryRun);
  const { upgrade: upgraded } = stage;
  if (upgraded === undefined) return squadDirDryRun(ctx, plan, report, moved!, skills);

  const data: UpgradeData = {
    dir: root,
    from: upgraded.from,
    to: upgraded.to,
    upToDate: plan.changes.length === 0 && upgraded.notUpgraded.length === 0,
    adopted: upgraded.adopting && upgraded.changes.length > 0,
    created: upgraded.created,
    replaced: upgraded.replaced,
    backedUp: upgraded.backedUp,
    skipped: upgraded.skipped,
    notUpgraded: upgraded.notUpgraded,
    migrations: upgraded.migrations,
    agentProfiles: upgraded.agentProfiles,
    learnedSkillsUntouched: upgraded.learnedSkills,
    notes: upgraded.notes,
    ...report,
    ...extra,
  };
  // Files that needed an upgrade and could not get one: the job is not done.
  return {
    data,
    exitCode: upgraded.notUpgraded.length > 0 ? 1 : 0,
    render: (ui) => renderUpgrade(ui, plan, upgraded, data),
  };
}

/**
 * A dry run of a squad still in `.squad/`: the move and the skills are all that can be planned
 * before the move is made (the rest of the upgrade reads `.ai-team/`).
 */
function squadDirDryRun(ctx: CommandContext, plan: Plan, report: ChangeReport, moved: SquadDirReport, skills: SkillConversionReport[]): CommandResult<UpgradeData> {
  const data: UpgradeData = {
    dir: ctx.cwd,
    from: 'original Squad',
    to: packageVersion(),
    upToDate: false,
    adopted: true,
    created: [],
    replaced: [],
    backedUp: [],
    skipped: [],
    notUpgraded: [],
    migrations: [],
    agentProfiles: [],
    learnedSkillsUntouched: 0,
    notes: moved.notes,
    ...report,
    squadDir: moved,
    ...(skills.length === 0 ? {} : { originalSkills: skills }),
  };
  return {
    data,
    exitCode: 0,
    render: (ui) => {
      renderSquadDirMigration(ui, moved, true);
      for (const line of changeLines(plan.changes, true)) ui.out(`  ${line}`);
      renderSkillConversions(ui, skills, true);
      ui.out(
        `Then the usual upgrade: the coordinator replaced (the original one backed up), the built-in skills installed, team skills moved to .github/skills/. Run "create-squad upgrade --dry-run" again after the move to see it file by file.`,
      );
      ui.out('Dry run: nothing was written.');
    },
  };
}

function renderUpgrade(ui: Ui, plan: Plan, upgraded: UpgradePlan, data: UpgradeData): void {
  const { dryRun } = data;
  for (const note of data.notes) ui.warn(note);
  const section = (title: string, lines: readonly string[]) => {
    if (lines.length === 0) return;
    ui.out(`${title}:`);
    for (const line of lines) ui.out(`  ${line}`);
  };
  if (data.squadDir) renderSquadDirMigration(ui, data.squadDir, dryRun);

  const { owned, manifest } = upgraded.parts;
  const conversions = data.originalSkills ?? [];
  if (plan.changes.length === 0) {
    // Up to date, or only files that cannot be written stand between the squad and this version: reported below.
    if (data.upToDate) ui.success(`Already up to date with create-squad ${data.to}: nothing was changed`);
  } else if (owned.length === 0 && manifest.length === 0 && data.squadDir === undefined) {
    const done = [
      ...(data.migrations.length > 0 ? [`${dryRun ? 'would run' : 'ran'} the missing migrations`] : []),
      ...(conversions.length > 0 ? [`${dryRun ? 'would make' : 'made'} ${plural(conversions.length, 'skill')} in the original Squad's style standard`] : []),
    ];
    ui.success(`Already up to date with create-squad ${data.to}; ${done.join(' and ')} in ${data.dir}`);
  } else {
    const versions = data.from === data.to ? `at ${data.to}` : `from ${data.from} to ${data.to}`;
    ui.success(`${dryRun ? 'Would upgrade' : 'Upgraded'} the squad ${versions} in ${data.dir}`);
    if (data.adopted) {
      ui.out(
        `  No install record was found (a squad from the original Squad, or made by hand): every file create-squad owns that differs from the shipped one is treated as your edit, so it is backed up (to ${upgraded.backupDir}/) before it is replaced.`,
      );
    }
    if (owned.length === 0 && manifest.length > 0) ui.out(`  Only the install record (${squadPaths.manifest}) needed an update.`);
  }
  // Every change, one line each: what the run wrote (or would write), derived from the plan.
  for (const line of changeLines(plan.changes, dryRun)) ui.out(`  ${line}`);
  renderSkillConversions(ui, conversions, dryRun);
  section(
    dryRun ? 'Would run migrations' : 'Ran migrations',
    data.migrations.map((m) => `${m.version} ${m.id}: ${m.paths.join(', ')}`),
  );
  section(
    'Left as they are',
    data.skipped.map((s) => `${s.path} — ${s.reason}`),
  );
  ui.out(`learned skills untouched: ${data.learnedSkillsUntouched}${conversions.length > 0 ? ` (${conversions.length} more made standard, above)` : ''}`);
  for (const blocked of data.notUpgraded) {
    const reason = blocked.reason.startsWith(`${blocked.path} `) ? `it${blocked.reason.slice(blocked.path.length)}` : blocked.reason;
    ui.warn(`${blocked.path} was not upgraded: ${reason} (${NEVER_WRITTEN})`);
    ui.note(`  fix: ${obstacleFix(blocked.reason)}`);
  }
  if (data.notUpgraded.length > 0) {
    const rest = plan.changes.length === 0 ? 'nothing else needs a change' : `everything else ${dryRun ? 'would be' : 'was'} done`;
    ui.error(`Not up to date with create-squad ${data.to}: ${plural(data.notUpgraded.length, 'file')} cannot be upgraded (above); ${rest}`);
  }

  if (plan.changes.length === 0) return;
  if (dryRun) {
    ui.out('Dry run: nothing was written.');
    return;
  }
  if (changedCoordinator(plan.changes)) ui.out('The coordinator changed: start a new Copilot session so the squad runs on the new instructions.');
  const hint = commitHint(plan.changes, `chore(squad): upgrade create-squad to ${data.to}`);
  if (hint !== undefined) ui.out(`Commit it on its own: ${hint}`);
}

function changedCoordinator(changes: readonly Change[]): boolean {
  return changes.some((change) => (change.kind === 'create' || change.kind === 'replace') && change.path === COORDINATOR_PATH);
}
