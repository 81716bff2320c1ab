/**
 * `create-squad upgrade [--dry-run] [--json]`: refresh the files create-squad owns (coordinator,
 * `.ai-team-templates/`, built-in skills), run the additive migrations, and report what changed,
 * what was backed up and where, and that the learned skills were left alone.
 */
import type { Ui } from '../cli/ui.js';
import { ensureWritableDir } from '../core/fs/fs-safe.js';
import { COORDINATOR_PATH, TEMPLATES_COPY_DIR, commitPaths, squadPaths } from '../core/base/paths.js';
import { requireSquad } from '../core/squad/roster.js';
import { NEVER_WRITTEN, obstacleFix } from '../core/fs/obstacles.js';
import { applyUpgrade, planUpgrade, type UpgradePlan } from '../core/squad/upgrade.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './pipeline.js';
import { groupPaths, plural } from './format.js';
import {
  migrateOriginalSkills,
  migrateSquadDir,
  renderSkillConversions,
  renderSquadDirMigration,
  squadDirDryRun,
  type SkillConversionReport,
  type SquadDirReport,
} from './upgrade-original.js';

export interface UpgradeCommandOptions {
  dryRun: boolean;
}

/** The --json document: the plan's lists as they are, plus where, whether adopted, and the count of learned skills. */
export type UpgradeData = Pick<
  UpgradePlan,
  'from' | 'to' | 'upToDate' | 'created' | 'replaced' | 'backedUp' | 'skipped' | 'notUpgraded' | 'migrations' | 'agentProfiles' | 'notes'
> & {
  dir: string;
  /** The squad had no install record (original Squad layout, or made by hand). */
  adopted: boolean;
  learnedSkillsUntouched: number;
  dryRun: boolean;
  /** A squad the original Squad kept in .squad/, moved to .ai-team/ first. */
  squadDir?: SquadDirReport;
  /** Skills in the original Squad's style made standard, each backed up first. */
  originalSkills?: SkillConversionReport[];
};

export async function upgrade(options: UpgradeCommandOptions, ctx: CommandContext): Promise<CommandResult<UpgradeData>> {
  const squadDir = await migrateSquadDir(ctx, options.dryRun);
  const originalSkills = await migrateOriginalSkills(ctx, options.dryRun);
  if (squadDir?.moved !== undefined && options.dryRun) return squadDirDryRun(squadDir, originalSkills, ctx);
  requireSquad(ctx.cwd);
  const plan = await underSquadLock(ctx, 'upgrade', options.dryRun, async () => {
    requireSquad(ctx.cwd);
    const planned = await planUpgrade(ctx.cwd);
    // What can be written is written even when some files cannot be (they are reported, exit 1).
    if (!options.dryRun && planned.writes.length > 0) {
      ensureWritableDir(ctx.cwd);
      applyUpgrade(planned);
    }
    return planned;
  });
  const data: UpgradeData = {
    dir: ctx.cwd,
    from: plan.from,
    to: plan.to,
    upToDate: plan.upToDate,
    adopted: plan.adopting && plan.writes.length > 0,
    created: plan.created,
    replaced: plan.replaced,
    backedUp: plan.backedUp,
    skipped: plan.skipped,
    notUpgraded: plan.notUpgraded,
    migrations: plan.migrations,
    agentProfiles: plan.agentProfiles,
    learnedSkillsUntouched: plan.learnedSkills,
    notes: plan.notes,
    dryRun: options.dryRun,
    ...(squadDir === undefined ? {} : { squadDir }),
    ...(originalSkills.length === 0 ? {} : { originalSkills }),
  };
  // Files that needed an upgrade and could not get one: the job is not done.
  return {
    data,
    exitCode: plan.notUpgraded.length > 0 ? 1 : 0,
    render: (ui) => {
      if (squadDir) renderSquadDirMigration(ui, squadDir, options.dryRun);
      renderSkillConversions(ui, originalSkills, options.dryRun);
      renderUpgrade(ui, plan, data);
    },
  };
}

/** Replaced files one per line, except the template copies: one line for all of them. */
function replacedLines(paths: readonly string[]): string[] {
  const templates = paths.filter((p) => p.startsWith(`${TEMPLATES_COPY_DIR}/`));
  if (templates.length < 2) return [...paths];
  return [`${TEMPLATES_COPY_DIR}/ (${plural(templates.length, 'file')})`, ...paths.filter((p) => !templates.includes(p))];
}

/** Created files as init shows them: one line per skill folder and for the template copies. */
function createdLines(paths: readonly string[]): string[] {
  return groupPaths(paths).map(({ label, count }) => (label.endsWith('/') ? `${label} (${plural(count, 'file')})` : label));
}

function renderUpgrade(ui: Ui, plan: UpgradePlan, data: UpgradeData): void {
  for (const note of data.notes) ui.warn(note);
  const verb = (past: string, base: string) => (data.dryRun ? `Would ${base}` : past);
  const section = (title: string, lines: readonly string[]) => {
    if (lines.length === 0) return;
    ui.out(`${title}:`);
    for (const line of lines) ui.out(`  ${line}`);
  };

  const onlyMigrations = plan.writes.every((w) => w.role === 'migration');
  const migrations = () =>
    section(
      verb('Ran migrations', 'run migrations'),
      data.migrations.map((m) => `${m.version} ${m.id}: ${m.paths.join(', ')}`),
    );
  if (data.upToDate) {
    ui.success(`Already up to date with create-squad ${data.to}: nothing was changed`);
  } else if (plan.writes.length === 0) {
    // Only files that cannot be written stand between the squad and this version: reported below.
  } else if (onlyMigrations) {
    ui.success(`Already up to date with create-squad ${data.to}; ${data.dryRun ? 'would run' : 'ran'} the missing migrations in ${data.dir}`);
    migrations();
  } else {
    const versions = data.from === data.to ? `at ${data.to}` : `from ${data.from} to ${data.to}`;
    ui.success(`${data.dryRun ? 'Would upgrade' : 'Upgraded'} the squad ${versions} in ${data.dir}`);
    if (data.adopted) {
      ui.out(
        `  No install record was found (a squad from the original Squad, or made by hand): every file create-squad owns that differs from the shipped one is treated as your edit, so it is backed up before it is replaced.`,
      );
    }
    section(verb('Replaced', 'replace'), replacedLines(data.replaced));
    section(verb('Created', 'create'), createdLines(data.created));
    if (data.backedUp.length > 0) {
      section(
        `${verb('Backed up', 'back up')} your edits to ${plan.backupDir}/`,
        data.backedUp.map((b) => b.path),
      );
    }
    section(
      verb('Moved', 'move'),
      data.agentProfiles.filter((a) => a.to !== undefined).map((a) => `${a.path} → ${a.to}`),
    );
    migrations();
    if (!plan.writes.some((w) => w.role !== 'manifest')) ui.out(`  Only the install record (${squadPaths.manifest}) needed an update.`);
  }
  section(
    'Left as they are',
    data.skipped.map((s) => `${s.path} — ${s.reason}`),
  );
  ui.out(`learned skills untouched: ${data.learnedSkillsUntouched}`);
  for (const blocked of data.notUpgraded) {
    const reason = blocked.reason.startsWith(`${blocked.path} `) ? `it${blocked.reason.slice(blocked.path.length)}` : blocked.reason;
    ui.warn(`${blocked.path} was not upgraded: ${reason} (${NEVER_WRITTEN})`);
    ui.note(`  fix: ${obstacleFix(blocked.reason)}`);
  }
  if (data.notUpgraded.length > 0) {
    const rest = plan.writes.length === 0 ? 'nothing else needs a change' : `everything else ${data.dryRun ? 'would be' : 'was'} done`;
    ui.error(`Not up to date with create-squad ${data.to}: ${plural(data.notUpgraded.length, 'file')} cannot be upgraded (above); ${rest}`);
  }

  if (data.upToDate || plan.writes.length === 0) return;
  if (data.dryRun) {
    ui.out('Dry run: nothing was written.');
    return;
  }
  if (data.replaced.includes(COORDINATOR_PATH) || data.created.includes(COORDINATOR_PATH)) {
    ui.out('The coordinator changed: start a new Copilot session so the squad runs on the new instructions.');
  }
  ui.out(
    `Commit it on its own: git add -A -- ${commitPaths(plan.writes.flatMap((w) => (w.moveFrom === undefined ? [w.path] : [w.path, w.moveFrom]))).join(' ')} && git commit -m "chore(squad): upgrade create-squad to ${data.to}"`,
  );
}
