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
 *      (every other byte kept);
 *   4. each other file of the team's text that names a `.squad/` path (stale-paths.ts: charters,
 *      ceremonies, policies, histories, decisions, …): backed up first, then its paths pointed at
 *      `.ai-team/`. The SKILL.md files are left to upgrade's skill step, which writes them once.
 * Steps 2 to 4 are planned from the squad as it is, in either folder, so a squad moved by a killed
 * run still gets them. A repository with both folders holds two teams: refused, nothing written.
 * Files outside the squad that still name `.squad/` (workflows, `.gitignore`) are reported, never
 * edited: they are the user's.
 */
import path from 'node:path';
import { existsInside, isDirectory, isFile, readDirEntries, readDirNames, readTextIfExists } from '../../fs/fs-safe.js';
import { readStateText } from '../../fs/confined.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR, SKILL_FILE, resolveIn, squadPaths } from '../../base/paths.js';
import { SQUAD_MAX_DEPTH, SQUAD_MAX_FILES } from '../../base/limits.js';
import { compareCodePoints } from '../../base/util.js';
import { hasStaleSquadPath, isInstructionPath, isTeamTextPath } from './stale-paths.js';
import { SDK_CONFIG_FILES, hasOriginalSquadDir, hasSquad } from '../../roster/roster.js';
import { decideSquadDirMigration, type SquadDirMigration, type SquadDirState } from './squad-dir-plan.js';
import { readSquadCliHooks, readStateBranch, usesStateBranch } from './state-branch.js';
import { slugify } from '../../base/names.js';
import { parseRegistry } from '../../roster/casting.js';

export {
  decideSquadDirMigration,
  isSquadDirMigrationDone,
  squadDirChanges,
  type BranchFile,
  type FolderMove,
  type SquadDirMigration,
  type SquadDirState,
} from './squad-dir-plan.js';

/** Files outside the squad, by repo-relative path or folder, that may name `.squad/`. */
const OUTSIDE_FILES = ['.gitignore', '.gitattributes', '.github/copilot-instructions.md', '.github/workflows'];

/** What reading the move needs of the command's options. */
export interface SquadDirReadOptions {
  /** Bring the histories and decisions of squad-cli's `squad-state` branch (`--from-state-branch`). */
  fromStateBranch?: boolean;
}

/** Read what planSquadDirMigration decides from. Reads nothing more once it knows there are two squads, or none. */
export function readSquadDirState(root: string, options: SquadDirReadOptions = {}): SquadDirState {
  const original = hasOriginalSquadDir(root);
  const ours = hasSquad(root);
  const state: SquadDirState = { original, ours, agentFolders: [], teamText: undefined, outside: [], teamTexts: [] };
  if (original && ours) return { ...state, recreated: readRecreatedSquadDir(root) };
  if (!original && !ours) return state;
  const dir = original ? ORIGINAL_SQUAD_DIR : AI_TEAM_DIR;
  state.agentFolders = readDirEntries(resolveIn(root, `${dir}/agents`))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  state.teamText = readTextIfExists(resolveIn(root, `${dir}/team.md`));
  state.charters = Object.fromEntries(state.agentFolders.map((name) => [name, readQuietly(root, `${dir}/agents/${name}/charter.md`)]));
  const registry = readQuietly(root, `${dir}/casting/registry.json`);
  const parsed = registry === undefined ? undefined : parseRegistry(registry, { legacy: true });
  state.registered = parsed?.state === 'ok' ? parsed.value.members : [];
  if (original) state.outside = readOutsideFiles(root);
  if (ours) state.cameFromSquadDir = cameFromSquadDir(root);
  if (original || state.cameFromSquadDir) state.teamTexts = readTeamTexts(root, dir).filter((file) => !isSkillFile(file.path));
  if (original) {
    const sdkConfig = SDK_CONFIG_FILES.find((file) => isFile(resolveIn(root, file)));
    if (sdkConfig !== undefined) return { ...state, sdkConfig };
  }
  const fromStateBranch = options.fromStateBranch === true;
  if (fromStateBranch || usesStateBranch(root)) {
    const branch = readStateBranch(root);
    if (branch !== undefined) {
      state.stateBranch = branch;
      state.branchTargets = Object.fromEntries(branch.files.map((file) => [file.path, readBranchTarget(root, dir, file.path)]));
    }
  }
  state.fromStateBranch = fromStateBranch;
  if (original || fromStateBranch) state.squadCliHooks = readSquadCliHooks(root);
  return state;
}

/** The text in the squad folder `dir` where a file of the `squad-state` branch lands (a member folder by either name), if any. */
function readBranchTarget(root: string, dir: string, branchPath: string): string | undefined {
  const segments = branchPath.split('/');
  const candidates =
    segments[0] === 'agents' ? [segments[1]!, slugify(segments[1]!)].map((folder) => `${dir}/agents/${folder}/${segments.slice(2).join('/')}`) : [`${dir}/${branchPath}`];
  for (const relPath of candidates) {
    const text = readQuietly(root, relPath);
    if (text !== undefined) return text;
  }
  return undefined;
}

/**
 * Whether the squad in `.ai-team/` came from `.squad/` (stale-paths.ts): its backups hold a
 * `.squad/` path, or its instructions name `.squad/` paths.
 */
export function cameFromSquadDir(root: string): boolean {
  const backups = resolveIn(root, squadPaths.backups);
  if (readDirNames(backups).some((run) => isDirectory(path.join(backups, run, ORIGINAL_SQUAD_DIR)))) return true;
  return readInstructions(root).some((file) => file.text !== undefined && hasStaleSquadPath(file.text));
}

/** team.md, routing.md, ceremonies.md and every charter in `.ai-team/`, with their texts. */
function readInstructions(root: string): { path: string; text: string | undefined }[] {
  const charters = readDirEntries(resolveIn(root, squadPaths.agents), { includeIgnored: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => `${squadPaths.agents}/${entry.name}/charter.md`);
  return [squadPaths.team, squadPaths.routing, squadPaths.ceremonies, ...charters]
    .filter((relPath) => isInstructionPath(relPath))
    .map((relPath) => ({ path: relPath, text: readQuietly(root, relPath) }));
}

/**
 * The files of a `.squad/` folder beside `.ai-team/` that holds no team.md (recreated after the
 * move: squad-dir-plan.ts recreatedSquadDir), repo-relative; undefined when `.squad/` has a
 * team.md (a team of its own). Links are listed, never followed.
 */
export function readRecreatedSquadDir(root: string): string[] | undefined {
  if (isFile(resolveIn(root, `${ORIGINAL_SQUAD_DIR}/team.md`))) return undefined;
  const files: string[] = [];
  const walk = (relDir: string, depth: number) => {
    if (depth > SQUAD_MAX_DEPTH) return;
    for (const entry of readDirEntries(resolveIn(root, relDir), { includeIgnored: true })) {
      if (files.length >= SQUAD_MAX_FILES) return;
      const relPath = `${relDir}/${entry.name}`;
      if (entry.isDirectory()) walk(relPath, depth + 1);
      else files.push(relPath);
    }
  };
  walk(ORIGINAL_SQUAD_DIR, 0);
  return files.sort(compareCodePoints);
}

/** A skill's SKILL.md (a team skill's or a member's): upgrade's skill step rewrites it. */
function isSkillFile(relPath: string): boolean {
  const segments = relPath.split('/');
  return segments.at(-1) === SKILL_FILE && segments.at(-3) === 'skills';
}

/**
 * The team's text in the squad folder `dir` (stale-paths.ts isTeamTextPath), with each file's text
 * (undefined when it cannot be read: too large, or a link out of the repository). Links are never
 * followed; at most SQUAD_MAX_FILES files, SQUAD_MAX_DEPTH levels down.
 */
export function readTeamTexts(root: string, dir: string = AI_TEAM_DIR): { path: string; text: string | undefined }[] {
  const paths: string[] = [];
  const walk = (relDir: string, depth: number) => {
    if (depth > SQUAD_MAX_DEPTH) return;
    for (const entry of readDirEntries(resolveIn(root, relDir), { includeIgnored: true })) {
      if (paths.length >= SQUAD_MAX_FILES) return;
      const relPath = `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && isTeamTextPath(`${relPath}/x.md`, dir)) walk(relPath, depth + 1);
      } else if (entry.isFile() && isTeamTextPath(relPath, dir)) paths.push(relPath);
    }
  };
  walk(dir, 0);
  return paths.sort(compareCodePoints).map((relPath) => ({ path: relPath, text: readQuietly(root, relPath) }));
}

function readQuietly(root: string, relPath: string): string | undefined {
  try {
    return readStateText(root, relPath);
  } catch {
    return undefined; // unreadable: never rewritten (doctor's other checks name links out and files too large)
  }
}

/**
 * What moving the squad out of `.squad/` still needs; empty (no move, no renames, no roster) when
 * there is nothing left to do. Reads only. Throws conflict when `.squad/` and `.ai-team/` both hold
 * a squad.
 */
export function planSquadDirMigration(root: string, now: Date = new Date(), options: SquadDirReadOptions = {}): SquadDirMigration {
  return decideSquadDirMigration(readSquadDirState(root, options), now);
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
