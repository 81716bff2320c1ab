/**
 * The parts of `upgrade` for squads made by the original Squad, run under the squad lock before the
 * usual upgrade: moving a squad out of `.squad/` (core/original/squad-dir.ts), then making its
 * skills in the original's style standard (core/original/skill-migration.ts).
 */
import type { Ui } from '../cli/ui.js';
import { ensureWritableDir } from '../core/fs/fs-safe.js';
import { applyOriginalSkillConversions, planOriginalSkillConversions } from '../core/squad/original/skill-migration.js';
import { applySquadDirMigration, isSquadDirMigrationDone, planSquadDirMigration, type FolderMove } from '../core/squad/original/squad-dir.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR } from '../core/base/paths.js';
import { hasOriginalSquadDir, hasSquad } from '../core/squad/roster.js';
import { packageVersion } from '../core/fs/version.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './pipeline.js';
import type { UpgradeData } from './upgrade.js';

/** What the move did (or, in a dry run, would do). */
export interface SquadDirReport {
  /** `.squad/` → `.ai-team/`. */
  moved?: FolderMove;
  renamed: FolderMove[];
  /** team.md, its Charter cells rewritten, and where its old text went. */
  roster?: { path: string; backup: string };
  notes: string[];
}

/** A skill made standard: its SKILL.md, where the old text went, and what changed. */
export interface SkillConversionReport {
  path: string;
  backup: string;
  changes: string[];
}

/**
 * Move the squad out of `.squad/` (or finish a move a killed run left), unless there is nothing to
 * do (undefined). A dry run writes nothing and takes no lock.
 */
export async function migrateSquadDir(ctx: CommandContext, dryRun: boolean): Promise<SquadDirReport | undefined> {
  const first = planSquadDirMigration(ctx.cwd);
  if (isSquadDirMigrationDone(first)) return undefined;
  return underSquadLock(ctx, 'upgrade', dryRun, async () => {
    const plan = planSquadDirMigration(ctx.cwd);
    if (!dryRun && !isSquadDirMigrationDone(plan)) {
      ensureWritableDir(ctx.cwd);
      applySquadDirMigration(ctx.cwd, plan);
    }
    return {
      ...(plan.move === undefined ? {} : { moved: plan.move }),
      renamed: plan.renames,
      ...(plan.roster === undefined ? {} : { roster: { path: plan.roster.path, backup: plan.roster.backup } }),
      notes: plan.notes,
    };
  });
}

/**
 * Make the squad's skills in the original Squad's style standard, each backed up first; [] when
 * there are none. Read from `.squad/` while the squad is still there (a dry run of the move).
 */
export async function migrateOriginalSkills(ctx: CommandContext, dryRun: boolean): Promise<SkillConversionReport[]> {
  if (!hasSquad(ctx.cwd) && !hasOriginalSquadDir(ctx.cwd)) return [];
  const dir = hasSquad(ctx.cwd) ? AI_TEAM_DIR : ORIGINAL_SQUAD_DIR;
  if (planOriginalSkillConversions(ctx.cwd, { dir }).length === 0) return [];
  return underSquadLock(ctx, 'upgrade', dryRun, async () => {
    const conversions = planOriginalSkillConversions(ctx.cwd, { dir });
    if (!dryRun && conversions.length > 0) {
      ensureWritableDir(ctx.cwd);
      applyOriginalSkillConversions(ctx.cwd, conversions);
    }
    return conversions.map(({ path, backup, changes }) => ({ path, backup, changes }));
  });
}

/**
 * A dry run of a squad still in `.squad/`: the move and the skills are all that can be planned
 * before the move happens (the rest of the upgrade reads `.ai-team/`).
 */
export function squadDirDryRun(report: SquadDirReport, skills: readonly SkillConversionReport[], ctx: CommandContext): CommandResult<UpgradeData> {
  // The lists of the usual upgrade are empty, and those this command's plan may add later absent.
  const data = {
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
    learnedSkillsUntouched: 0,
    notes: report.notes,
    dryRun: true,
    squadDir: report,
    originalSkills: skills,
  } as unknown as UpgradeData;
  return {
    data,
    exitCode: 0,
    render: (ui) => {
      renderSquadDirMigration(ui, report, true);
      renderSkillConversions(ui, skills, true);
      ui.out(
        `Then the usual upgrade: the coordinator replaced (the original one backed up), the built-in skills installed, team skills moved to .github/skills/. Run "create-squad upgrade --dry-run" again after the move to see it file by file.`,
      );
      ui.out('Dry run: nothing was written.');
    },
  };
}

export function renderSquadDirMigration(ui: Ui, report: SquadDirReport, dryRun: boolean): void {
  const verb = (past: string, base: string) => (dryRun ? `Would ${base}` : past);
  if (report.moved) {
    ui.success(`${verb('Moved', 'move')} the squad the original Squad kept in ${ORIGINAL_SQUAD_DIR}/ to ${AI_TEAM_DIR}/ (one rename: every file as it was)`);
  }
  for (const rename of report.renamed) ui.out(`  ${verb('Renamed', 'rename')} ${rename.from}/ → ${rename.to}/ (a folder name is lowercase letters, digits and hyphens)`);
  if (report.roster)
    ui.out(
      `  ${verb('Pointed', 'point')} the roster's Charter cells at ${AI_TEAM_DIR}/ in ${report.roster.path} (the old text ${dryRun ? 'would go' : 'is'} in ${report.roster.backup})`,
    );
  for (const note of report.notes) ui.warn(note);
}

/** One line per converted SKILL.md: what changed, and where its old text is. */
export function renderSkillConversions(ui: Ui, skills: readonly SkillConversionReport[], dryRun: boolean): void {
  if (skills.length === 0) return;
  ui.out(
    `${dryRun ? 'Would make' : 'Made'} ${skills.length} skill${skills.length === 1 ? '' : 's'} in the original Squad's style standard (the old SKILL.md ${dryRun ? 'would be' : 'is'} in the backups):`,
  );
  for (const skill of skills) ui.out(`  ${skill.path}: ${skill.changes.join('; ')} (was: ${skill.backup})`);
}
