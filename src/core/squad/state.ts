/**
 * The squad, read once. `readSquadState` reads everything the squad's planners and checks decide
 * from: what stands at each path of the layout and at each member's files (a file, a folder, a
 * symlink and what it points to, whether a command may read it, whether a regular file may be
 * written there), team.md and its roster, the casting files, the manifest and the member folders.
 * Code that decides takes this value and never touches the disk itself; what a check needs beyond
 * it is read by its own read step (doctor's `readDoctorState`).
 */
import fs from 'node:fs';
import { isSquadError, type SquadError } from '../base/errors.js';
import { SCRIBE_AGENT, charterPath, historyPath, isIgnoredEntry, resolveIn, squadPaths } from '../base/paths.js';
import { stateReadProblem } from '../fs/confined.js';
import { readDirEntries, readTextIfExists } from '../fs/fs-safe.js';
import { blockedReason } from '../fs/obstacles.js';
import { readCasting, type CastingState } from '../roster/casting.js';
import { readManifest, type ManifestRead } from './manifest.js';
import { agentsOf, hasOriginalSquadDir, parseRoster, requireSquad, type Agent, type RosterMember } from '../roster/roster.js';

/** What stands at a path: nothing, a file, a folder, a symlink or something else (a socket, a device). */
export type EntryKind = 'missing' | 'file' | 'folder' | 'symlink' | 'other';

export interface PathFacts {
  kind: EntryKind;
  /** For a symlink: what it points to. */
  target?: 'file' | 'folder' | 'other' | 'dangling';
  /** Why commands refuse to read it (a link on the way out of the repository), when they would. */
  readProblem?: string;
  /** Why create-squad cannot write a regular file there (see fs/obstacles.ts), when it cannot. */
  writeObstacle?: string;
}

/** An entry of a folder, as listed: its name and whether it is a folder (symlinks are not followed). */
export interface FolderEntry {
  name: string;
  folder: boolean;
  file: boolean;
}

export interface SquadState {
  root: string;
  /** Why this is not a squad commands can use (no `.ai-team/`, or one only in `.squad/`), else undefined. */
  missing: SquadError | undefined;
  /** The original Squad's `.squad/` folder is there too. */
  originalSquadDir: boolean;
  /** What stands at every path read (the layout, the state files, each member's charter and history). */
  paths: ReadonlyMap<string, PathFacts>;
  /** team.md's text, when it is a file commands may read. */
  teamText: string | undefined;
  /** The roster rows of team.md (the Scribe included), empty without a readable team.md. */
  roster: RosterMember[];
  casting: CastingState;
  manifest: ManifestRead;
  /** Entries of `.ai-team/agents/`, dot-entries included. */
  agentEntries: FolderEntry[];
  /** Every member the squad knows of (listAgents, from what was read). */
  agents: Agent[];
}

/** Facts about one path, read from the disk. */
export function probePath(root: string, relPath: string): PathFacts {
  const abs = resolveIn(root, relPath);
  const readProblem = stateReadProblem(root, relPath);
  const writeObstacle = blockedReason(root, relPath);
  const extra = { ...(readProblem === undefined ? {} : { readProblem }), ...(writeObstacle === undefined ? {} : { writeObstacle }) };
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(abs);
  } catch {
    return { kind: 'missing', ...extra };
  }
  if (stat.isSymbolicLink()) {
    let target: PathFacts['target'];
    try {
      const to = fs.statSync(abs);
      target = to.isFile() ? 'file' : to.isDirectory() ? 'folder' : 'other';
    } catch {
      target = 'dangling';
    }
    return { kind: 'symlink', target, ...extra };
  }
  return { kind: stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : 'other', ...extra };
}

/** A regular file there, directly or through a link (as `fs.statSync` sees it). */
export function isFileFact(facts: PathFacts): boolean {
  return facts.kind === 'file' || (facts.kind === 'symlink' && facts.target === 'file');
}

/** A folder there, directly or through a link. */
export function isFolderFact(facts: PathFacts): boolean {
  return facts.kind === 'folder' || (facts.kind === 'symlink' && facts.target === 'folder');
}

/** The facts of a path the state read; reading one it did not is a bug of the caller, not of the squad. */
export function factsAt(state: { paths: ReadonlyMap<string, PathFacts> }, relPath: string): PathFacts {
  const facts = state.paths.get(relPath);
  if (facts === undefined) throw new Error(`squad state: ${relPath} was not read`);
  return facts;
}

/** The entries of a folder (dot-entries included), as FolderEntry. */
export function listFolder(root: string, relDir: string): FolderEntry[] {
  return readDirEntries(resolveIn(root, relDir), { includeIgnored: true }).map((entry) => ({ name: entry.name, folder: entry.isDirectory(), file: entry.isFile() }));
}

/** The paths every squad has or may have, whose facts every reader of the state needs. */
export const STATE_FILES = [
  squadPaths.team,
  squadPaths.routing,
  squadPaths.decisions,
  squadPaths.decisionsInbox,
  squadPaths.ceremonies,
  squadPaths.agents,
  squadPaths.log,
  squadPaths.orchestrationLog,
  squadPaths.castingPolicy,
  squadPaths.castingRegistry,
  squadPaths.castingHistory,
  squadPaths.manifest,
  charterPath(SCRIBE_AGENT),
] as const;

/**
 * Read the squad at `root` once. `extraPaths`: further paths whose facts the caller's decisions
 * need (each member's charter and history are always read).
 */
export function readSquadState(root: string, extraPaths: readonly string[] = []): SquadState {
  let missing: SquadError | undefined;
  try {
    requireSquad(root);
  } catch (error) {
    if (!isSquadError(error)) throw error;
    missing = error;
  }
  const originalSquadDir = hasOriginalSquadDir(root);
  const agentEntries = missing ? [] : listFolder(root, squadPaths.agents);
  const paths = new Map<string, PathFacts>();
  const probe = (relPath: string) => {
    if (!paths.has(relPath)) paths.set(relPath, probePath(root, relPath));
  };
  if (!missing) {
    for (const relPath of STATE_FILES) probe(relPath);
    for (const entry of agentEntries) {
      if (entry.name.startsWith('.')) continue;
      probe(charterPath(entry.name));
      probe(historyPath(entry.name));
    }
    for (const relPath of extraPaths) probe(relPath);
  }
  const team = paths.get(squadPaths.team);
  const teamText = team !== undefined && team.readProblem === undefined ? readTextIfExists(resolveIn(root, squadPaths.team)) : undefined;
  const roster = teamText === undefined ? [] : parseRoster(teamText);
  for (const member of roster) {
    probe(charterPath(member.name));
    probe(historyPath(member.name));
  }
  const folderNames = agentEntries.filter((entry) => !isIgnoredEntry(entry.name)).map((entry) => entry.name);
  return {
    root,
    missing,
    originalSquadDir,
    paths,
    teamText,
    roster,
    casting: missing ? { policy: { state: 'missing' }, registry: { state: 'missing' }, history: { state: 'missing' } } : readCasting(root),
    manifest: missing ? { state: 'missing' } : readManifest(root),
    agentEntries,
    agents: agentsOf(roster, folderNames),
  };
}
