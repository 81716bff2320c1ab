/**
 * The parts of `upgrade` for squads made by the original Squad: moving a squad out of `.squad/`
 * (core/original/squad-dir.ts), the first plan of the upgrade's run, and the report of the skills
 * in the original's style it made standard (core/original/skill-migration.ts, changes of the
 * upgrade's own plan). What they say, in `--json` and as text.
 */
import type { Ui } from '../cli/ui.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR } from '../core/base/paths.js';
import type { SkillConversion } from '../core/squad/original/skill-migration.js';
import { readSquadDirState, type FolderMove, type SquadDirMigration, type SquadDirReadOptions, type SquadDirState } from '../core/squad/original/squad-dir.js';
import { STATE_BRANCH } from '../core/squad/original/state-branch.js';
import { requireSquad } from '../core/roster/roster.js';

/** What the move did (or, in a dry run, would do). */
export interface SquadDirReport {
  /** `.squad/` → `.ai-team/`. */
  moved?: FolderMove;
  renamed: FolderMove[];
  /** team.md, its Charter cells rewritten, and where its old text went. */
  roster?: { path: string; backup: string };
  /** The team's text whose `.squad/` paths were pointed at `.ai-team/`, each with where its old text went. */
  stalePaths: { path: string; backup: string; paths: number }[];
  /** Histories and decisions brought from squad-cli's `squad-state` branch (`--from-state-branch`). */
  fromStateBranch?: { from: string; path: string; action: 'created' | 'replaced' | 'kept'; backup?: string }[];
  notes: string[];
}

/** A skill made standard: its SKILL.md, where the old text went, and what changed. */
export interface SkillConversionReport {
  path: string;
  backup: string;
  changes: string[];
}

/** What the move decides from; no-squad (or the `.squad/` error) when there is no squad at all. */
export function readSquadDir(root: string, options: SquadDirReadOptions = {}): SquadDirState {
  const state = readSquadDirState(root, options);
  if (!state.original) requireSquad(root);
  return state;
}

/** The report of a move that has something to do; undefined when it has nothing. */
export function squadDirReport(plan: SquadDirMigration): SquadDirReport | undefined {
  if (plan.changes.length === 0 && plan.notes.length === 0) return undefined;
  return {
    ...(plan.move === undefined ? {} : { moved: plan.move }),
    renamed: plan.renames,
    ...(plan.roster === undefined ? {} : { roster: { path: plan.roster.path, backup: plan.roster.backup } }),
    stalePaths: plan.rewrites.map(({ path, backup, paths }) => ({ path, backup, paths })),
    ...(plan.fromBranch.length === 0
      ? {}
      : { fromStateBranch: plan.fromBranch.map(({ from, path, action, backup }) => ({ from, path, action, ...(backup === undefined ? {} : { backup }) })) }),
    notes: plan.notes,
  };
}

export function skillConversionReports(conversions: readonly SkillConversion[]): SkillConversionReport[] {
  return conversions.map(({ path, backup, changes }) => ({ path, backup, changes }));
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
  if (report.stalePaths.length > 0) {
    ui.out(
      `  ${verb('Pointed', 'point')} the ${ORIGINAL_SQUAD_DIR}/ paths in ${report.stalePaths.length} file${report.stalePaths.length === 1 ? '' : 's'} of the team's text at ${AI_TEAM_DIR}/ (the old text ${dryRun ? 'would go' : 'is'} in the backups):`,
    );
    for (const file of report.stalePaths) ui.out(`    ${file.path}: ${file.paths} path${file.paths === 1 ? '' : 's'} (was: ${file.backup})`);
  }
  const brought = report.fromStateBranch ?? [];
  if (brought.length > 0) {
    ui.out(
      `  ${verb('Brought', 'bring')} ${brought.length} file${brought.length === 1 ? '' : 's'} of histories and decisions from squad-cli's ${STATE_BRANCH} branch (read with git, no checkout):`,
    );
    for (const file of brought) {
      const how =
        file.action === 'created'
          ? 'new'
          : file.action === 'replaced'
            ? `the branch continues it; was: ${file.backup}`
            : 'both changed: the branch version set aside to merge by hand';
      ui.out(`    ${STATE_BRANCH}:${file.from} → ${file.path} (${how})`);
    }
  }
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
