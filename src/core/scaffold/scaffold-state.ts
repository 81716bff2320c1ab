/**
 * What the scaffold planner (scaffold-plan.ts decideScaffold) decides from, read once: from a
 * repository (`readScaffoldState`), or from the files of a squad being imported
 * (`scaffoldStateFromFiles`), so import plans from its document without writing a copy anywhere.
 * The planner itself never touches the disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { GITIGNORE_PATH, TEMPLATES_COPY_DIR, isIgnoredEntry, resolveIn, squadPaths } from '../base/paths.js';
import { compareCodePoints } from '../base/util.js';
import { readStateText } from '../fs/confined.js';
import { pathProblem, readBytesIfExists, readTextIfExists, unsafePathError } from '../fs/fs-safe.js';
import { AGENTS_DIR } from '../squad/agents/member-profile.js';
import { readSquadSkills, type SquadSkills } from '../squad/agents/profile-input.js';
import { castingFromTexts, readCasting, type CastingState } from '../roster/casting.js';
import type { OwnedFile } from '../squad/owned.js';
import { refuseBesideOriginalSquad, refuseInsideSquad } from '../roster/roster.js';
import type { EntryKind } from '../squad/state.js';

/** What stands where the owned files go, and their bytes. */
export interface OwnedState {
  /** What stands at each path read (absent: nothing), by repo-relative path. */
  entries: ReadonlyMap<string, Exclude<EntryKind, 'missing'>>;
  /** Symlinked folders met on the way, with why writing below them is refused (undefined: they stay inside). */
  links: ReadonlyMap<string, string | undefined>;
  /** The bytes of each owned file already there (undefined: unreadable, or too large to be one), by path. */
  ownedBytes: ReadonlyMap<string, Buffer | undefined>;
}

export interface ScaffoldState extends OwnedState {
  root: string;
  /** team.md's text; undefined when it is missing or not a readable file. */
  teamText: string | undefined;
  casting: CastingState;
  /** The names in `.ai-team/agents/`, as commands list them. */
  agentFolders: string[];
  squadSkills: SquadSkills;
  /** `.gitattributes` as it is: what stands there, and its text when it is a readable file. */
  gitattributes: AppendTarget;
  /** `.gitignore` likewise. */
  gitignore: AppendTarget;
}

const NO_SKILLS: SquadSkills = { team: [], hiddenTeam: [], own: new Map() };

/**
 * Whether something stands at `relPath` (a dangling link counts); unsafe-path when a folder on the
 * way is a link leading outside the repository or nowhere.
 */
export function existsIn(state: OwnedState, relPath: string): boolean {
  const segments = relPath.split('/');
  for (let i = 1; i < segments.length; i += 1) {
    const problem = state.links.get(segments.slice(0, i).join('/'));
    if (problem !== undefined) throw unsafePathError(relPath, problem);
  }
  return state.entries.has(relPath);
}

function kindOf(stat: fs.Stats): Exclude<EntryKind, 'missing'> {
  return stat.isSymbolicLink() ? 'symlink' : stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : 'other';
}

/** What stands at a shared file (.gitattributes, .gitignore) and its text: '' when missing, undefined when not a readable file. */
export interface AppendTarget {
  kind: EntryKind;
  text: string | undefined;
}

/** The AppendTarget at `relPath`, given what stands there. */
function appendTargetOf(root: string, relPath: string, kind: EntryKind): AppendTarget {
  return { kind, text: kind === 'missing' ? '' : kind === 'file' ? readTextIfExists(resolveIn(root, relPath)) : undefined };
}

/** Read what stands at `relPath`, for the planner of appended lines. */
export function readAppendTarget(root: string, relPath: string): AppendTarget {
  let kind: EntryKind;
  try {
    kind = kindOf(fs.lstatSync(resolveIn(root, relPath)));
  } catch {
    kind = 'missing';
  }
  return appendTargetOf(root, relPath, kind);
}

/** The names in `.ai-team/agents/` among `paths`, as commands list them. */
function agentFoldersIn(paths: Iterable<string>): string[] {
  return [...paths]
    .filter((rel) => path.posix.dirname(rel) === squadPaths.agents && !isIgnoredEntry(path.posix.basename(rel)))
    .map((rel) => path.posix.basename(rel))
    .sort(compareCodePoints);
}

/** Reads entries and links below a repository, once each. */
class TreeReader {
  readonly entries = new Map<string, Exclude<EntryKind, 'missing'>>();
  readonly links = new Map<string, string | undefined>();
  private readonly walked = new Set<string>();

  constructor(private readonly root: string) {}

  /** Record what stands at `relPath`; a symlink also gets its verdict. Returns the kind, or undefined when nothing is there. */
  probe(relPath: string): Exclude<EntryKind, 'missing'> | undefined {
    if (this.entries.has(relPath)) return this.entries.get(relPath);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(resolveIn(this.root, relPath));
    } catch {
      return undefined;
    }
    const kind = kindOf(stat);
    this.entries.set(relPath, kind);
    if (kind === 'symlink') this.links.set(relPath, pathProblem(this.root, relPath, { allowFinalSymlink: true }));
    return kind;
  }

  /** Probe `relPath` and each folder on the way to it. */
  probeWithParents(relPath: string): void {
    const segments = relPath.split('/');
    for (let i = 1; i <= segments.length; i += 1) {
      const at = segments.slice(0, i).join('/');
      const kind = this.probe(at);
      if (kind === undefined) return;
      if (kind === 'symlink' && this.links.get(at) !== undefined) return; // nothing below a refused link is read
    }
  }

  /** Everything below `relDir` (dot-entries included), through links to folders inside the repository. */
  walk(relDir: string): void {
    this.probeWithParents(relDir);
    this.walkBelow(relDir);
  }

  private walkBelow(relDir: string): void {
    const kind = this.entries.get(relDir);
    if (kind === 'symlink' && this.links.get(relDir) !== undefined) return;
    let real: string;
    try {
      real = fs.realpathSync(resolveIn(this.root, relDir));
    } catch {
      return;
    }
    if (this.walked.has(real)) return; // a link back up: once is enough
    this.walked.add(real);
    let names: string[];
    try {
      names = fs.readdirSync(resolveIn(this.root, relDir));
    } catch {
      return; // not a folder
    }
    for (const name of names.sort(compareCodePoints)) {
      const child = `${relDir}/${name}`;
      const childKind = this.probe(child);
      if (childKind === 'folder' || childKind === 'symlink') this.walkBelow(child);
    }
  }
}

/** What stands where `owned` go, and the bytes of those already there (`tree`: a reader to add to). */
export function readOwnedState(root: string, owned: readonly OwnedFile[], tree = new TreeReader(root)): OwnedState {
  const ownedBytes = new Map<string, Buffer | undefined>();
  for (const file of owned) {
    tree.probeWithParents(file.path);
    if (!tree.entries.has(file.path)) continue;
    let bytes: Buffer | undefined;
    try {
      bytes = readBytesIfExists(resolveIn(root, file.path));
    } catch {
      bytes = undefined; // too large to be what this version ships
    }
    ownedBytes.set(file.path, bytes);
  }
  return { entries: tree.entries, links: tree.links, ownedBytes };
}

/** Read what decideScaffold needs from the repository at `root` (refusing a root inside a squad, or beside the original Squad's). */
export function readScaffoldState(root: string, owned: readonly OwnedFile[]): ScaffoldState {
  refuseInsideSquad(root);
  refuseBesideOriginalSquad(root);
  return readSquadTree(root, owned);
}

/**
 * Why a regular file cannot be written at `relPath` (a folder on the way is a link leading outside
 * the repository or nowhere, or the file itself is a symlink): unsafe-path, as the writer would
 * refuse it, but before the first write.
 */
export function refuseUnwritable(state: OwnedState, relPath: string): void {
  existsIn(state, relPath);
  if (state.entries.get(relPath) === 'symlink') throw unsafePathError(relPath, `${relPath} is a symlink`);
}

/** The squad's tree and state files as readScaffoldState reads them, without its refusals (hire, which needs a squad). */
export function readSquadTree(root: string, owned: readonly OwnedFile[] = []): ScaffoldState {
  const tree = new TreeReader(root);
  tree.walk(squadPaths.root);
  tree.walk(AGENTS_DIR);
  tree.walk(TEMPLATES_COPY_DIR);
  tree.probeWithParents(squadPaths.gitattributes);
  tree.probeWithParents(GITIGNORE_PATH);
  const { ownedBytes } = readOwnedState(root, owned, tree);
  const teamKind = tree.entries.get(squadPaths.team);
  return {
    root,
    entries: tree.entries,
    links: tree.links,
    teamText: teamKind === undefined ? undefined : readStateText(root, squadPaths.team),
    casting: readCasting(root),
    agentFolders: agentFoldersIn(tree.entries.keys()),
    squadSkills: readSquadSkills(root),
    ownedBytes,
    gitattributes: appendTargetOf(root, squadPaths.gitattributes, tree.entries.get(squadPaths.gitattributes) ?? 'missing'),
    gitignore: appendTargetOf(root, GITIGNORE_PATH, tree.entries.get(GITIGNORE_PATH) ?? 'missing'),
  };
}

/**
 * The state of a squad made of `files` only (repo-relative paths and their bytes), as if they were
 * all a repository held: what import plans from. Its skills are not among them (a squad's skills
 * are written by import itself).
 */
export function scaffoldStateFromFiles(root: string, files: readonly { path: string; data: string | Buffer }[]): ScaffoldState {
  const entries = new Map<string, Exclude<EntryKind, 'missing'>>();
  const text = new Map<string, string>();
  for (const file of files) {
    const segments = file.path.split('/');
    for (let i = 1; i < segments.length; i += 1) entries.set(segments.slice(0, i).join('/'), 'folder');
    entries.set(file.path, 'file');
    text.set(file.path, typeof file.data === 'string' ? file.data : file.data.toString('utf8'));
  }
  return {
    root,
    entries,
    links: new Map(),
    teamText: text.get(squadPaths.team),
    casting: castingFromTexts((relPath) => text.get(relPath)),
    agentFolders: agentFoldersIn(entries.keys()),
    squadSkills: NO_SKILLS,
    ownedBytes: new Map(),
    gitattributes: { kind: 'missing', text: '' },
    gitignore: { kind: 'missing', text: '' },
  };
}
