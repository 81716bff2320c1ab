/**
 * Moving a squad out of `.squad/` (squad-dir.ts), decided: what the move, the renames and the
 * roster's new Charter cells are, from what squad-dir.ts readSquadDirState read. Reads nothing.
 */
import { SquadError } from '../../base/errors.js';
import { folderNameProblem, slugify } from '../../base/names.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR, backupPathFor, folderTimestamp, squadPaths } from '../../base/paths.js';
import type { Change, Plan } from '../../base/plan.js';
import { retargetRosterCharters } from '../../roster/roster.js';

export interface FolderMove {
  from: string;
  to: string;
}

export interface SquadDirMigration extends Plan {
  /** `.squad/` → `.ai-team/`, while the squad is still in `.squad/`. */
  move?: FolderMove;
  /** Member folders renamed to valid names (paths as they are once the squad is in `.ai-team/`). */
  renames: FolderMove[];
  /** team.md with its Charter cells pointed at `.ai-team/`: the old text (`base`) is backed up first. */
  roster?: { path: string; backup: string; content: string; base: string };
  /** What the user should know: folders left as they are, files outside the squad that name `.squad/`. */
  notes: string[];
  /** The above as changes, in order (squadDirChanges). */
  changes: Change[];
}

/** The `.ai-team/` path of a path in the squad folder `dir`. */
function inAiTeam(dir: string, relPath: string): string {
  return `${AI_TEAM_DIR}${relPath.slice(dir.length)}`;
}

/** What moving the squad out of `.squad/` decides from, read once. */
export interface SquadDirState {
  /** The original Squad's `.squad/` holds a squad. */
  original: boolean;
  /** `.ai-team/` holds one. */
  ours: boolean;
  /** The member folders in the squad folder's `agents/` (folders only). */
  agentFolders: string[];
  /** The squad folder's team.md; undefined when missing or unreadable. */
  teamText: string | undefined;
  /** Files outside the squad that may name `.squad/`, with their texts (read only while the squad is in `.squad/`). */
  outside: { path: string; text: string | undefined }[];
}

/** planSquadDirMigration from what readSquadDirState read: decides without touching the disk. */
export function decideSquadDirMigration(state: SquadDirState, now: Date = new Date()): SquadDirMigration {
  const { original, ours } = state;
  if (original && ours) throw twoSquadsError();
  const dir = original ? ORIGINAL_SQUAD_DIR : AI_TEAM_DIR;
  const plan: SquadDirMigration = { renames: [], notes: [], changes: [] };
  if (original) plan.move = { from: ORIGINAL_SQUAD_DIR, to: AI_TEAM_DIR };
  else if (!ours) return plan;

  const agents = `${dir}/agents`;
  const folders = state.agentFolders;
  for (const name of folders) {
    if (folderNameProblem(name) === undefined) continue;
    const to = slugify(name);
    const taken = to === '' || folderNameProblem(to) !== undefined || folders.includes(to);
    if (taken) {
      plan.notes.push(`${inAiTeam(dir, `${agents}/${name}`)}/ keeps its name, which no command reads (a folder name is lowercase letters, digits and hyphens): rename it by hand`);
      continue;
    }
    plan.renames.push({ from: inAiTeam(dir, `${agents}/${name}`), to: inAiTeam(dir, `${agents}/${to}`) });
  }

  const teamPath = `${dir}/team.md`;
  const team = state.teamText;
  const retargeted = team === undefined ? undefined : retargetRosterCharters(team);
  if (team !== undefined && retargeted !== undefined && retargeted !== team) {
    plan.roster = { path: squadPaths.team, backup: backupPathFor(folderTimestamp(now), teamPath), content: retargeted, base: team };
  }
  if (original) plan.notes.push(...outsideMentions(state.outside));
  plan.changes = squadDirChanges(plan);
  return plan;
}

/** The move as the one plan type's changes, in its order: the move, the renames, then team.md (its backup first). */
export function squadDirChanges(plan: Omit<SquadDirMigration, 'changes'>): Change[] {
  const { roster } = plan;
  return [
    ...(plan.move === undefined ? [] : [{ kind: 'move' as const, ...plan.move }]),
    ...plan.renames.map((rename): Change => ({ kind: 'move', ...rename })),
    ...(roster === undefined
      ? []
      : [
          { kind: 'backup' as const, path: roster.backup, of: roster.path, content: roster.base },
          { kind: 'replace' as const, path: roster.path, content: roster.content, base: roster.base },
        ]),
  ];
}

/** Whether the plan has nothing left to write. */
export function isSquadDirMigrationDone(plan: SquadDirMigration): boolean {
  return plan.changes.length === 0;
}

function twoSquadsError(): SquadError {
  return new SquadError('conflict', `this repository has two squads: ${ORIGINAL_SQUAD_DIR}/ (made by the original Squad) and ${AI_TEAM_DIR}/`, {
    hint: `keep one: move ${AI_TEAM_DIR}/ aside (e.g. to ${AI_TEAM_DIR}-old/) and run upgrade again to move ${ORIGINAL_SQUAD_DIR}/ in its place, or move ${ORIGINAL_SQUAD_DIR}/ out of the repository to keep ${AI_TEAM_DIR}/; nothing was written`,
  });
}

/** One note per file outside the squad that names `.squad/`: the user updates it. */
function outsideMentions(files: readonly { path: string; text: string | undefined }[]): string[] {
  const naming = files.filter((file) => (file.text ?? '').includes(`${ORIGINAL_SQUAD_DIR}/`)).map((file) => file.path);
  if (naming.length === 0) return [];
  const shown = naming.slice(0, 5).join(', ') + (naming.length > 5 ? ` and ${naming.length - 5} more` : '');
  return [
    `${naming.length} file${naming.length === 1 ? '' : 's'} outside the squad still name${naming.length === 1 ? 's' : ''} ${ORIGINAL_SQUAD_DIR}/ (${shown}): point ${naming.length === 1 ? 'it' : 'them'} at ${AI_TEAM_DIR}/, or remove what belonged to the original Squad`,
  ];
}
