/**
 * Moving a squad the original Squad keeps in `.squad/` (its v0.5 and later, squad-cli) to
 * `.ai-team/`, where create-squad reads it: `readSquadDirState` reads, squad-dir-plan.ts decides,
 * and `upgrade` applies it (as changes, squadDirChanges) before it plans the rest of the upgrade.
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
import { existsInside, isDirectory, readDirEntries, readTextIfExists } from '../../fs/fs-safe.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR, resolveIn } from '../../base/paths.js';
import { hasOriginalSquadDir, hasSquad } from '../../roster/roster.js';
import { decideSquadDirMigration, type SquadDirMigration, type SquadDirState } from './squad-dir-plan.js';

export { decideSquadDirMigration, isSquadDirMigrationDone, squadDirChanges, type FolderMove, type SquadDirMigration, type SquadDirState } from './squad-dir-plan.js';

/** Files outside the squad, by repo-relative path or folder, that may name `.squad/`. */
const OUTSIDE_FILES = ['.gitignore', '.gitattributes', '.github/copilot-instructions.md', '.github/workflows'];

/** Read what planSquadDirMigration decides from. Reads nothing more once it knows there are two squads, or none. */
export function readSquadDirState(root: string): SquadDirState {
  const original = hasOriginalSquadDir(root);
  const ours = hasSquad(root);
  const state: SquadDirState = { original, ours, agentFolders: [], teamText: undefined, outside: [] };
  if ((original && ours) || (!original && !ours)) return state;
  const dir = original ? ORIGINAL_SQUAD_DIR : AI_TEAM_DIR;
  state.agentFolders = readDirEntries(resolveIn(root, `${dir}/agents`))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  state.teamText = readTextIfExists(resolveIn(root, `${dir}/team.md`));
  if (original) state.outside = readOutsideFiles(root);
  return state;
}

/**
 * What moving the squad out of `.squad/` still needs; empty (no move, no renames, no roster) when
 * there is nothing left to do. Reads only. Throws conflict when `.squad/` and `.ai-team/` both hold
 * a squad.
 */
export function planSquadDirMigration(root: string, now: Date = new Date()): SquadDirMigration {
  return decideSquadDirMigration(readSquadDirState(root), now);
}

/** The files outside the squad that may name `.squad/`, with their texts. */
function readOutsideFiles(root: string): { path: string; text: string | undefined }[] {
  const files: string[] = [];
  for (const relPath of OUTSIDE_FILES) {
    const abs = resolveIn(root, relPath);
    if (isDirectory(abs)) {
      for (const entry of readDirEntries(abs)) if (entry.isFile()) files.push(`${relPath}/${entry.name}`);
    } else if (existsInside(root, relPath)) {
      files.push(relPath);
    }
  }
  return files.map((relPath) => ({ path: relPath, text: readTextIfExists(resolveIn(root, relPath)) }));
}
