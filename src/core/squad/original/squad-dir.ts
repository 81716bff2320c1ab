/**
 * Moving a squad the original Squad keeps in `.squad/` (its v0.5 and later, squad-cli) to
 * `.ai-team/`, where create-squad reads it; `upgrade` runs it before refreshing what create-squad
 * owns.
 *
 * Steps, each one write, so that a kill between two leaves a squad every command can read, and
 * the next upgrade finishes the job from what it finds on disk:
 *   1. `.squad/` → `.ai-team/`: one rename; every file keeps its bytes;
 *   2. each member folder whose name is no valid folder name (`agents/Rai`) → its normalised name
 *      (`agents/rai`), one rename each, when that name is free;
 *   3. team.md, when its Charter cells name `.squad/` or such a folder: the old text copied to the
 *      backups first (`.ai-team/backups/{timestamp}/{path as it was}`), then the cells rewritten
 *      (every other byte kept).
 * Steps 2 and 3 are planned from the squad as it is, in either folder, so a squad moved by a killed
 * run still gets them. A repository with both folders holds two teams: refused, nothing written.
 * Files outside the squad that still name `.squad/` (workflows, `.gitignore`) are reported, never
 * edited: they are the user's.
 */
import fs from 'node:fs';
import { SquadError } from '../../base/errors.js';
import { existsInside, isDirectory, moveInside, readDirEntries, readTextIfExists, writeFileAtomic } from '../../fs/fs-safe.js';
import { folderNameProblem, slugify } from '../../base/names.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR, backupPathFor, folderTimestamp, resolveIn, squadPaths } from '../../base/paths.js';
import { hasOriginalSquadDir, hasSquad, retargetRosterCharters } from '../roster.js';

export interface FolderMove {
  from: string;
  to: string;
}

export interface SquadDirMigration {
  /** `.squad/` → `.ai-team/`, while the squad is still in `.squad/`. */
  move?: FolderMove;
  /** Member folders renamed to valid names (paths as they are once the squad is in `.ai-team/`). */
  renames: FolderMove[];
  /** team.md with its Charter cells pointed at `.ai-team/`: the old text is backed up first. */
  roster?: { path: string; backup: string; content: string };
  /** What the user should know: folders left as they are, files outside the squad that name `.squad/`. */
  notes: string[];
}

/** Files outside the squad, by repo-relative path or folder, that may name `.squad/`. */
const OUTSIDE_FILES = ['.gitignore', '.gitattributes', '.github/copilot-instructions.md', '.github/workflows'];

/** The `.ai-team/` path of a path in the squad folder `dir`. */
function inAiTeam(dir: string, relPath: string): string {
  return `${AI_TEAM_DIR}${relPath.slice(dir.length)}`;
}

/**
 * What moving the squad out of `.squad/` still needs; empty (no move, no renames, no roster) when
 * there is nothing left to do. Reads only. Throws conflict when `.squad/` and `.ai-team/` both hold
 * a squad.
 */
export function planSquadDirMigration(root: string, now: Date = new Date()): SquadDirMigration {
  const original = hasOriginalSquadDir(root);
  const ours = hasSquad(root);
  if (original && ours) throw twoSquadsError();
  const dir = original ? ORIGINAL_SQUAD_DIR : AI_TEAM_DIR;
  const plan: SquadDirMigration = { renames: [], notes: [] };
  if (original) plan.move = { from: ORIGINAL_SQUAD_DIR, to: AI_TEAM_DIR };
  else if (!ours) return plan;

  const agents = `${dir}/agents`;
  const folders = readDirEntries(resolveIn(root, agents))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
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
  const team = readTextIfExists(resolveIn(root, teamPath));
  const retargeted = team === undefined ? undefined : retargetRosterCharters(team);
  if (retargeted !== undefined && retargeted !== team) {
    plan.roster = { path: squadPaths.team, backup: backupPathFor(folderTimestamp(now), teamPath), content: retargeted };
  }
  if (original) plan.notes.push(...outsideMentions(root));
  return plan;
}

/** Whether the plan has nothing left to write. */
export function isSquadDirMigrationDone(plan: SquadDirMigration): boolean {
  return plan.move === undefined && plan.renames.length === 0 && plan.roster === undefined;
}

/** Carry out a plan in its order: the move, the renames, then team.md (its backup first). */
export function applySquadDirMigration(root: string, plan: SquadDirMigration): void {
  if (plan.move) moveInside(root, plan.move.from, plan.move.to);
  for (const rename of plan.renames) moveInside(root, rename.from, rename.to);
  if (plan.roster) {
    const current = fs.readFileSync(resolveIn(root, plan.roster.path));
    writeFileAtomic(root, plan.roster.backup, current, { exclusive: true });
    writeFileAtomic(root, plan.roster.path, plan.roster.content);
  }
}

function twoSquadsError(): SquadError {
  return new SquadError('conflict', `this repository has two squads: ${ORIGINAL_SQUAD_DIR}/ (made by the original Squad) and ${AI_TEAM_DIR}/`, {
    hint: `keep one: move ${AI_TEAM_DIR}/ aside (e.g. to ${AI_TEAM_DIR}-old/) and run upgrade again to move ${ORIGINAL_SQUAD_DIR}/ in its place, or move ${ORIGINAL_SQUAD_DIR}/ out of the repository to keep ${AI_TEAM_DIR}/; nothing was written`,
  });
}

/** One note per file outside the squad that names `.squad/`: the user updates it. */
function outsideMentions(root: string): string[] {
  const files: string[] = [];
  for (const relPath of OUTSIDE_FILES) {
    const abs = resolveIn(root, relPath);
    if (isDirectory(abs)) {
      for (const entry of readDirEntries(abs)) if (entry.isFile()) files.push(`${relPath}/${entry.name}`);
    } else if (existsInside(root, relPath)) {
      files.push(relPath);
    }
  }
  const naming = files.filter((relPath) => (readTextIfExists(resolveIn(root, relPath)) ?? '').includes(`${ORIGINAL_SQUAD_DIR}/`));
  if (naming.length === 0) return [];
  const shown = naming.slice(0, 5).join(', ') + (naming.length > 5 ? ` and ${naming.length - 5} more` : '');
  return [
    `${naming.length} file${naming.length === 1 ? '' : 's'} outside the squad still name${naming.length === 1 ? 's' : ''} ${ORIGINAL_SQUAD_DIR}/ (${shown}): point ${naming.length === 1 ? 'it' : 'them'} at ${AI_TEAM_DIR}/, or remove what belonged to the original Squad`,
  ];
}
