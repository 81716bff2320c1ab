/**
 * Moving a squad out of `.squad/` (squad-dir.ts), decided: what the move, the renames and the
 * roster's new Charter cells are, from what squad-dir.ts readSquadDirState read. Reads nothing.
 */
import { SquadError } from '../../base/errors.js';
import { folderNameProblem, slugify } from '../../base/names.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR, backupPathFor, folderTimestamp, squadPaths } from '../../base/paths.js';
import type { Change, Plan } from '../../base/plan.js';
import { retargetRosterCharters } from '../../roster/roster.js';
import { rewriteSquadPaths } from './stale-paths.js';

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
  /**
   * The team's text pointed at `.ai-team/` (stale-paths.ts): each file backed up first (team.md's
   * stale paths are rewritten with its Charter cells, in `roster`). Paths as they are once moved.
   */
  rewrites: TextRewrite[];
  /** What the user should know: folders left as they are, files outside the squad that name `.squad/`. */
  notes: string[];
  /** The above as changes, in order (squadDirChanges). */
  changes: Change[];
}

/** A file of the team's whose `.squad/` paths are rewritten: its old text (`base`) is backed up first. */
export interface TextRewrite {
  path: string;
  backup: string;
  content: string;
  base: string;
  /** How many `.squad/` paths were rewritten. */
  paths: number;
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
  /** The team's text in the squad folder (stale-paths.ts isTeamTextPath, SKILL.md files left to upgrade's skill step), by path in that folder. */
  teamTexts: { path: string; text: string | undefined }[];
  /**
   * With both folders: the files of a `.squad/` that holds no team.md, recreated beside the moved
   * squad (a member followed a stale `.squad/` path); undefined when `.squad/` is a team of its own.
   */
  recreated?: string[];
  /** A squad in `.ai-team/` that came from `.squad/` (stale-paths.ts): its text is pointed at `.ai-team/` too. */
  cameFromSquadDir?: boolean;
}

/** planSquadDirMigration from what readSquadDirState read: decides without touching the disk. */
export function decideSquadDirMigration(state: SquadDirState, now: Date = new Date()): SquadDirMigration {
  const { original, ours } = state;
  if (original && ours) throw state.recreated === undefined ? twoSquadsError() : recreatedSquadDirError(state.recreated);
  const dir = original ? ORIGINAL_SQUAD_DIR : AI_TEAM_DIR;
  const plan: SquadDirMigration = { renames: [], rewrites: [], notes: [], changes: [] };
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
  const timestamp = folderTimestamp(now);
  // A member folder as it is once renamed, by this run or by a killed one (then only its new name is on disk).
  const renamed = new Map(plan.renames.map((rename) => [rename.from.split('/').at(-1)!, rename.to.split('/').at(-1)!]));
  const memberFolder = (name: string) => renamed.get(name) ?? (folderNameProblem(name) !== undefined && folders.includes(slugify(name)) ? slugify(name) : name);
  // Only a squad that came from .squad/ has its text pointed at .ai-team/ (stale-paths.ts).
  const rewriting = original || state.cameFromSquadDir === true;
  const teamRewrite = team === undefined || !rewriting ? undefined : rewriteSquadPaths(retargeted ?? team, memberFolder);
  const rosterText = teamRewrite === undefined || teamRewrite.count === 0 ? retargeted : teamRewrite.text;
  if (team !== undefined && rosterText !== undefined && rosterText !== team) {
    plan.roster = { path: squadPaths.team, backup: backupPathFor(timestamp, teamPath), content: rosterText, base: team };
  }
  for (const file of rewriting ? state.teamTexts : []) {
    if (file.text === undefined || file.path === teamPath) continue;
    const { text, count } = rewriteSquadPaths(file.text, memberFolder);
    if (count === 0) continue;
    const target = afterRenames(inAiTeam(dir, file.path), plan.renames);
    plan.rewrites.push({ path: target, backup: backupPathFor(timestamp, target), content: text, base: file.text, paths: count });
  }
  if (original) plan.notes.push(...outsideMentions(state.outside));
  plan.changes = squadDirChanges(plan);
  return plan;
}

/** `relPath` (in `.ai-team/`) once the member folders are renamed. */
function afterRenames(relPath: string, renames: readonly FolderMove[]): string {
  const rename = renames.find((r) => relPath.startsWith(`${r.from}/`));
  return rename === undefined ? relPath : `${rename.to}${relPath.slice(rename.from.length)}`;
}

/** The move as the one plan type's changes, in its order: the move, the renames, team.md, then the team's other text (each backup first). */
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
    ...plan.rewrites.flatMap((rewrite): Change[] => [
      { kind: 'backup', path: rewrite.backup, of: rewrite.path, content: rewrite.base },
      { kind: 'replace', path: rewrite.path, content: rewrite.content, base: rewrite.base },
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

/** Files of a recreated `.squad/` named in a message; the rest are counted. */
const SHOWN_FILES = 10;

/**
 * What a `.squad/` recreated beside the squad in `.ai-team/` is, and its fix, which never
 * discards the squad: `files` are its files (repo-relative), to merge into `.ai-team/` by hand.
 * Shared by upgrade's refusal and doctor's finding.
 */
export function recreatedSquadDir(files: readonly string[]): { message: string; fix: string } {
  const shown = files.slice(0, SHOWN_FILES).join(', ') + (files.length > SHOWN_FILES ? ` and ${files.length - SHOWN_FILES} more` : '');
  const listed = files.length === 0 ? 'no files' : `${files.length} file${files.length === 1 ? '' : 's'}: ${shown}`;
  return {
    message: `${ORIGINAL_SQUAD_DIR}/ was recreated beside the squad in ${AI_TEAM_DIR}/ (${listed}), most likely by a member following a ${ORIGINAL_SQUAD_DIR}/ path left in the team's text; it holds no team.md, so ${AI_TEAM_DIR}/ is the team`,
    fix: `keep ${AI_TEAM_DIR}/: move each file of ${ORIGINAL_SQUAD_DIR}/ to the same path in ${AI_TEAM_DIR}/ (${ORIGINAL_SQUAD_DIR}/decisions/inbox/x.md → ${AI_TEAM_DIR}/decisions/inbox/x.md; merge by hand a file both have), delete ${ORIGINAL_SQUAD_DIR}/, then run "create-squad upgrade" to point the team's text at ${AI_TEAM_DIR}/`,
  };
}

function recreatedSquadDirError(files: readonly string[]): SquadError {
  const { message, fix } = recreatedSquadDir(files);
  return new SquadError('conflict', message, { hint: `${fix}; nothing was written` });
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
