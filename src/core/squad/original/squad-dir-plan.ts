/**
 * Moving a squad out of `.squad/` (squad-dir.ts), decided: what the move, the renames and the
 * roster's new Charter cells are, from what squad-dir.ts readSquadDirState read. Reads nothing.
 */
import { SquadError } from '../../base/errors.js';
import { folderNameProblem, slugify } from '../../base/names.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR, backupPathFor, folderTimestamp, squadPaths } from '../../base/paths.js';
import type { Change, Plan } from '../../base/plan.js';
import { retargetRosterCharters, sdkModeError } from '../../roster/roster.js';
import { hasStaleSquadPath, rewriteSquadPaths } from './stale-paths.js';
import { fitRosterToAgents } from './roster-fit.js';
import { charterIdentity } from '../../roster/members.js';
import type { CastEntry } from '../../roster/casting.js';
import { STATE_BRANCH, type StateBranch } from './state-branch.js';

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
  /**
   * Histories and decisions brought from squad-cli's `squad-state` branch (with the user's
   * consent): created where `.ai-team/` lacks them, replaced (backed up first) where the branch
   * continues what `.ai-team/` holds; `copy` is a branch version set down in the backups beside a
   * file both changed. Paths as they are once moved.
   */
  fromBranch: BranchFile[];
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

/** A file of the `squad-state` branch brought into the squad. */
export interface BranchFile {
  /** Its path on the branch. */
  from: string;
  /** Where it lands: in `.ai-team/`, or (`kept`) in the backups beside a file both changed. */
  path: string;
  action: 'created' | 'replaced' | 'kept';
  content: string;
  /** replaced: the text it replaces, and where that goes. */
  base?: string;
  backup?: string;
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
  /** Each member folder's charter (by the folder's name on disk; undefined: none, or unreadable): the roster is fitted to them (roster-fit.ts). */
  charters?: Record<string, string | undefined>;
  /** The casting registry's members (an original registry's `agents` too). */
  registered?: CastEntry[];
  /** The team's text in the squad folder (stale-paths.ts isTeamTextPath, SKILL.md files left to upgrade's skill step), by path in that folder. */
  teamTexts: { path: string; text: string | undefined }[];
  /**
   * With both folders: the files of a `.squad/` that holds no team.md, recreated beside the moved
   * squad (a member followed a stale `.squad/` path); undefined when `.squad/` is a team of its own.
   */
  recreated?: string[];
  /** A squad in `.ai-team/` that came from `.squad/` (stale-paths.ts): its text is pointed at `.ai-team/` too. */
  cameFromSquadDir?: boolean;
  /** squad-cli's SDK config at the repository root (`squad.config.ts`), when the squad is still in `.squad/`. */
  sdkConfig?: string;
  /** squad-cli's `squad-state` branch (state-branch.ts), read when its config names that backend or the user asked. */
  stateBranch?: StateBranch;
  /** The texts in the squad folder at the paths the branch's files land on, by path on the branch (undefined: no file there). */
  branchTargets?: Record<string, string | undefined>;
  /** The user consented to bringing the branch's histories and decisions (`--from-state-branch`). */
  fromStateBranch?: boolean;
  /** squad-cli's git hooks (state-branch.ts readSquadCliHooks), repo-relative. */
  squadCliHooks?: string[];
}

/** planSquadDirMigration from what readSquadDirState read: decides without touching the disk. */
export function decideSquadDirMigration(state: SquadDirState, now: Date = new Date()): SquadDirMigration {
  const { original, ours } = state;
  if (original && ours) throw state.recreated === undefined ? twoSquadsError() : recreatedSquadDirError(state.recreated);
  if (original && state.sdkConfig !== undefined) throw sdkModeError(state.sdkConfig);
  const dir = original ? ORIGINAL_SQUAD_DIR : AI_TEAM_DIR;
  const plan: SquadDirMigration = { renames: [], rewrites: [], fromBranch: [], notes: [], changes: [] };
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
  let rosterText = teamRewrite === undefined || teamRewrite.count === 0 ? retargeted : teamRewrite.text;
  // The roster fitted to the member folders, once: while the squad moves (or a killed move left team.md naming .squad/).
  if (team !== undefined && (original || hasStaleSquadPath(team))) {
    const fitted = fitRoster(rosterText ?? team, state, memberFolder, plan.notes);
    if (fitted !== (rosterText ?? team)) rosterText = fitted;
  }
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
  if (state.stateBranch !== undefined) decideFromBranch(state, plan, { memberFolder, timestamp });
  if (original) plan.notes.push(...outsideMentions(state.outside));
  if ((original || state.fromStateBranch === true) && (state.squadCliHooks ?? []).length > 0) plan.notes.push(hooksNote(state.squadCliHooks!));
  plan.changes = squadDirChanges(plan);
  return plan;
}

/**
 * The branch's histories and decisions brought into the squad (with consent), or a note of what
 * is there and how to bring it. A file lands at its path in the squad folder (a member folder by
 * its new name; its `.squad/` paths pointed at `.ai-team/`, as all the team's text): created where
 * there is none; replacing (backed up first) a file the branch's version continues (squad-cli
 * copied the working tree's files onto the branch, then wrote only there); left alone where it
 * already holds the branch's version, or continues it (brought by an earlier run); where both
 * changed, the branch's version is set down in the backups, to merge by hand. A history of a
 * member with no folder here stays on the branch, named in a note.
 */
function decideFromBranch(state: SquadDirState, plan: SquadDirMigration, { memberFolder, timestamp }: { memberFolder: (name: string) => string; timestamp: string }): void {
  const branch = state.stateBranch!;
  const folders = new Set(state.agentFolders.map(memberFolder));
  const homeless: string[] = [];
  const wanted: BranchFile[] = [];
  for (const file of branch.files) {
    const segments = file.path.split('/');
    const isHistory = segments[0] === 'agents';
    if (isHistory && !folders.has(memberFolder(segments[1]!))) {
      homeless.push(file.path);
      continue;
    }
    const target = isHistory ? `${AI_TEAM_DIR}/agents/${memberFolder(segments[1]!)}/${segments.slice(2).join('/')}` : `${AI_TEAM_DIR}/${file.path}`;
    const content = rewriteSquadPaths(file.text, memberFolder).text;
    const rewrite = plan.rewrites.find((r) => r.path === target);
    const onDisk = state.branchTargets?.[file.path];
    const ours = rewrite?.content ?? onDisk;
    if (ours === undefined) wanted.push({ from: file.path, path: target, action: 'created', content });
    else if (ours === content || ours.startsWith(content)) continue;
    else if (content.startsWith(ours))
      wanted.push({ from: file.path, path: target, action: 'replaced', content, base: rewrite?.base ?? onDisk!, backup: backupPathFor(timestamp, target) });
    else wanted.push({ from: file.path, path: backupPathFor(timestamp, `${STATE_BRANCH}/${file.path}`), action: 'kept', content });
  }
  const shown = (paths: readonly string[]) => paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
  if (state.fromStateBranch !== true) {
    if (wanted.length > 0) {
      plan.notes.push(
        `squad-cli keeps ${wanted.length} file${wanted.length === 1 ? '' : 's'} of this team's histories and decisions on the ${STATE_BRANCH} branch (${shown(wanted.map((w) => w.from))}), which ${AI_TEAM_DIR}/ does not have: run "create-squad upgrade --from-state-branch" to bring ${wanted.length === 1 ? 'it' : 'them'} into ${AI_TEAM_DIR}/ (read with git, no checkout; every file it replaces is backed up first)`,
      );
    }
    return;
  }
  for (const file of wanted) {
    if (file.action === 'replaced') plan.rewrites = plan.rewrites.filter((r) => r.path !== file.path);
  }
  plan.fromBranch = wanted;
  const kept = wanted.filter((w) => w.action === 'kept');
  if (kept.length > 0) {
    plan.notes.push(
      `${kept.length} file${kept.length === 1 ? '' : 's'} of the ${STATE_BRANCH} branch and ${AI_TEAM_DIR}/ both changed (${shown(kept.map((k) => k.from))}): ${AI_TEAM_DIR}/ keeps its own, and the branch's version is in ${backupPathFor(timestamp, STATE_BRANCH)}/ to merge by hand`,
    );
  }
  if (homeless.length > 0) {
    plan.notes.push(
      `the ${STATE_BRANCH} branch holds the histories of members with no folder here (${shown(homeless)}): they stay on the branch (git show ${STATE_BRANCH}:<path> prints one)`,
    );
  }
  if (branch.unread.length > 0) plan.notes.push(`${shown(branch.unread)} on the ${STATE_BRANCH} branch could not be read as text (too large, or not a file): left on the branch`);
}

/** squad-cli's git hooks stay: they are the repository's, and harmless once the squad is in `.ai-team/`. */
function hooksNote(hooks: readonly string[]): string {
  return `squad-cli's git hooks stay in place (${hooks.join(', ')}): they sync the ${STATE_BRANCH} branch and guard ${ORIGINAL_SQUAD_DIR}/ paths, and call squad-cli when it is installed; delete them once you no longer use squad-cli`;
}

/**
 * The roster fitted to the member folders as they are once renamed (roster-fit.ts, the rule import
 * follows): a member the roster leaves out (squad-cli's `Rai`) gets a row with its name and its
 * charter's role; a row naming a renamed folder is pointed at it. Each change noted.
 */
function fitRoster(teamMd: string, state: SquadDirState, memberFolder: (name: string) => string, notes: string[]): string {
  const agents: Record<string, { charter?: string }> = {};
  const displayNames = new Map<string, string>();
  for (const name of state.agentFolders) {
    const folder = memberFolder(name);
    if (name.startsWith('_') || name.startsWith('.') || folderNameProblem(folder) !== undefined) continue;
    const charter = state.charters?.[name];
    agents[folder] = charter === undefined ? {} : { charter };
    // The name the squad gave the folder: its own (before the rename), else its charter's when that is the same member.
    const named = name !== folder ? name : charterIdentity(charter ?? '').name;
    displayNames.set(folder, named !== undefined && slugify(named) === folder ? named : folder);
  }
  const fitted = fitRosterToAgents(teamMd, agents, state.registered ?? [], (folder) => displayNames.get(folder) ?? folder);
  if (fitted.ambiguous !== undefined) {
    const { member, folders } = fitted.ambiguous;
    notes.push(`the roster names ${member}, whose folder is not here, and ${folders.join(' and ')} are each ${member}: point the roster row at the right one by hand`);
    return teamMd;
  }
  for (const fit of fitted.fits) {
    notes.push(
      fit.added
        ? `${squadPaths.team}: ${displayNames.get(fit.folder) ?? fit.folder} was not in the roster: it has a row now, as ${fit.added.name} (${fit.added.role}, from its charter)`
        : `${squadPaths.team}: ${fit.repointedFrom!.member}'s row named ${fit.repointedFrom!.charter}, which is not here; ${fit.folder} holds ${fit.repointedFrom!.member}'s charter, so the row names its charter`,
    );
  }
  return fitted.text;
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
    ...plan.fromBranch.flatMap((file): Change[] =>
      file.action === 'replaced'
        ? [
            { kind: 'backup', path: file.backup!, of: file.path, content: file.base! },
            { kind: 'replace', path: file.path, content: file.content, base: file.base! },
          ]
        : [{ kind: 'create', path: file.path, content: file.content }],
    ),
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
