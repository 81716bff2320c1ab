/**
 * What a killed run of create-squad can leave behind, in one registry: every temporary name the
 * tool makes (atomic-write temporaries, writability probes, skill and import staging folders,
 * scratch folders in the repository's own temp folder), where it can be, and the sweep that
 * removes it. Each name records the pid of the process that made it, so a later run removes only
 * what a process that is gone left (fs-safe's isDebris): never the work of a create-squad running now.
 *
 * Every writing command sweeps once it holds the squad lock (`sweepRepositoryDebris`); `doctor`
 * only reports (`findDebris`); `.gitignore` ignores every pattern (`DEBRIS_KINDS[].ignoreRule`,
 * scaffold.ts GITIGNORE_PATTERNS). The sweep reads only the folders create-squad writes, never the
 * whole repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import {
  AI_TEAM_DIR,
  BUILTIN_SKILL_PREFIX,
  COORDINATOR_PATH,
  IMPORT_STAGING_PATTERN,
  IMPORT_STAGING_PREFIX,
  SKILL_STAGING_PATTERN,
  SKILL_STAGING_PREFIX,
  TEAM_SKILLS_DIR,
  TEMPLATES_COPY_DIR,
  resolveIn,
} from '../base/paths.js';
import { PROBE_PATTERN, TEMP_FILE_PATTERN, holdWorkPath, isDebris, readDirEntries, workId } from './fs-safe.js';

/**
 * The repository's own temp folder: scratch work (a clone, a plan's copy) goes here, never to the
 * system's temp folder, so it is on the repository's file system, a later run finds and removes
 * what a killed one left, and import's swap of `.ai-team/` never carries it away. Removed again
 * once empty.
 */
export const REPO_TEMP_DIR = '.create-squad-tmp';
/** A scratch folder in REPO_TEMP_DIR: `{purpose}-{pid}-{8 hex}` (the pid is the first group). */
export const SCRATCH_PATTERN = /^[a-z][a-z0-9-]*-(\d+)-[0-9a-f]{8}$/;

export type DebrisId = 'temp-file' | 'probe' | 'skill-staging' | 'import-staging' | 'scratch';

/** One kind of temporary name create-squad makes. */
export interface DebrisKind {
  id: DebrisId;
  /** Whether the name is a file or a folder (removed whole). */
  entry: 'file' | 'dir';
  /** Matches the names this kind makes; the first group is the pid of the process that made it. */
  pattern: RegExp;
  /** Names an older version made without a pid: whose they are cannot be told, so they are reported, never swept. */
  unowned?: (name: string) => boolean;
  /** The only folder (repo-relative, "." the root) it is made in; anywhere create-squad writes when absent. */
  only?: string;
  /** The `.gitignore` rule that keeps it out of git. */
  ignoreRule: string;
}

/** Every temporary name create-squad makes. The one list: the sweep, doctor and `.gitignore` read it. */
export const DEBRIS_KINDS: readonly DebrisKind[] = [
  { id: 'temp-file', entry: 'file', pattern: TEMP_FILE_PATTERN, ignoreRule: '.*.[0-9]*.????????.tmp' },
  { id: 'probe', entry: 'file', pattern: PROBE_PATTERN, only: '.', ignoreRule: '/.create-squad-probe-*' },
  {
    id: 'skill-staging',
    entry: 'dir',
    pattern: SKILL_STAGING_PATTERN,
    unowned: (name) => name.startsWith(SKILL_STAGING_PREFIX),
    ignoreRule: `${SKILL_STAGING_PREFIX}*-*/`,
  },
  {
    id: 'import-staging',
    entry: 'dir',
    pattern: IMPORT_STAGING_PATTERN,
    unowned: (name) => name.startsWith(IMPORT_STAGING_PREFIX),
    only: '.',
    ignoreRule: `/${IMPORT_STAGING_PREFIX}*/`,
  },
  { id: 'scratch', entry: 'dir', pattern: SCRATCH_PATTERN, only: REPO_TEMP_DIR, ignoreRule: `/${REPO_TEMP_DIR}/` },
];

/**
 * The folders create-squad writes into, where a killed run's debris can be: `tree` ones with their
 * sub-folders (see descends), the others alone.
 */
const DEBRIS_PLACES: readonly { dir: string; tree: boolean }[] = [
  { dir: path.posix.dirname(COORDINATOR_PATH), tree: false },
  { dir: TEMPLATES_COPY_DIR, tree: true },
  { dir: '.', tree: false },
  { dir: AI_TEAM_DIR, tree: true },
  { dir: TEAM_SKILLS_DIR, tree: true },
  { dir: '.github', tree: false },
  { dir: '.vscode', tree: false },
  { dir: REPO_TEMP_DIR, tree: false },
];

/**
 * Whether the sweep reads the sub-folder `name` of `parentRel`. Not below the top of a skill folder
 * that is not built-in: create-squad writes only its SKILL.md in place (a skill's other files
 * arrive in a staging folder, renamed whole), and a skill may carry a large tree of its own.
 */
function descends(parentRel: string, name: string): boolean {
  if (name === '.git' || name === 'node_modules') return false;
  const grandparent = path.posix.basename(path.posix.dirname(parentRel));
  return !(grandparent === 'skills' && !path.posix.basename(parentRel).startsWith(BUILTIN_SKILL_PREFIX));
}

/** An entry of a killed (or running) run, as findDebris reports it. */
export interface DebrisFound {
  /** Repo-relative path. */
  rel: string;
  kind: DebrisKind;
  /**
   * `dead`: its process is gone (the sweep removes it); `live`: a running process is using it
   * (left alone); `unowned`: an older version's name without a pid (reported, never swept).
   */
  state: 'dead' | 'live' | 'unowned';
}

function classify(name: string, isFile: boolean, folderRel: string): { kind: DebrisKind; pid?: number } | undefined {
  for (const kind of DEBRIS_KINDS) {
    if (kind.only !== undefined && kind.only !== folderRel) continue;
    if ((kind.entry === 'file') !== isFile) continue;
    const pid = kind.pattern.exec(name)?.[1];
    if (pid !== undefined) return { kind, pid: Number(pid) };
    if (kind.unowned?.(name)) return { kind };
  }
  return undefined;
}

/**
 * Every temporary file and folder of create-squad in the folders it writes (see DEBRIS_PLACES),
 * in place order then name order. Reads only; never throws (an unreadable folder has none).
 */
export function findDebris(root: string): DebrisFound[] {
  const found: DebrisFound[] = [];
  const visit = (rel: string, tree: boolean) => {
    for (const entry of readDirEntries(resolveIn(root, rel), { includeIgnored: true })) {
      const childRel = rel === '.' ? entry.name : `${rel}/${entry.name}`;
      const match = entry.isFile() || entry.isDirectory() ? classify(entry.name, entry.isFile(), rel) : undefined;
      if (match !== undefined) {
        const abs = resolveIn(root, childRel);
        const state = match.pid === undefined ? 'unowned' : isDebris(match.pid, abs) ? 'dead' : 'live';
        found.push({ rel: childRel, kind: match.kind, state });
      } else if (tree && entry.isDirectory() && descends(rel, entry.name)) {
        visit(childRel, true);
      }
    }
  };
  for (const place of DEBRIS_PLACES) if (!throughSymlink(root, place.dir)) visit(place.dir, place.tree);
  return found;
}

/**
 * Whether `rel` or a folder on the way to it is a symlink (never read, lest the sweep remove what
 * is outside the repository) or cannot be looked at (a file on the way).
 */
function throughSymlink(root: string, rel: string): boolean {
  if (rel === '.') return false;
  const segments = rel.split('/');
  try {
    return segments.some((_, i) => fs.lstatSync(resolveIn(root, segments.slice(0, i + 1).join('/')), { throwIfNoEntry: false })?.isSymbolicLink() === true);
  } catch {
    return true;
  }
}

/**
 * Remove what killed runs left in the folders create-squad writes (findDebris's `dead` entries),
 * and the repository's temp folder once it is empty. What a running process uses, an older
 * version's names and everything else stay. Never throws: what cannot be removed stays, and doctor
 * reports it. Returns the repo-relative paths removed.
 */
export function sweepRepositoryDebris(root: string): string[] {
  const removed: string[] = [];
  for (const found of findDebris(root)) {
    if (found.state !== 'dead') continue;
    try {
      fs.rmSync(resolveIn(root, found.rel), { recursive: found.kind.entry === 'dir', force: true });
      removed.push(found.rel);
    } catch {
      // left for doctor to report
    }
  }
  removeIfEmpty(resolveIn(root, REPO_TEMP_DIR));
  return removed;
}

function removeIfEmpty(absDir: string): void {
  try {
    fs.rmdirSync(absDir);
  } catch {
    // not there, or not empty: another run's scratch is in it
  }
}

/**
 * Make the temp folder, or check the one there is a real folder: a committed link named
 * `.create-squad-tmp` would otherwise send scratch work (and its removal) outside the repository.
 */
function ensureRealFolder(tempDir: string): void {
  fs.mkdirSync(tempDir, { recursive: true });
  if (fs.lstatSync(tempDir).isDirectory()) return;
  throw new SquadError('unsafe-path', `${REPO_TEMP_DIR} is not a folder create-squad made (it is a link or a file), so no scratch work goes there`, {
    hint: `remove ${REPO_TEMP_DIR} (it holds nothing of yours unless you put it there), then run the command again`,
  });
}

/** The repository's own temp folder (absolute); see REPO_TEMP_DIR. */
export function repoTempDir(root: string): string {
  return resolveIn(root, REPO_TEMP_DIR);
}

/** A scratch folder made by makeRepoScratch. */
export interface RepoScratch {
  /** Absolute path of the (empty, new) folder. */
  path: string;
  /** Remove the folder and everything in it, and the temp folder once empty; safe to call twice. */
  release(): void;
}

/**
 * Make a private scratch folder in the repository's temp folder (`.create-squad-tmp/{purpose}-{pid}-{hex}/`),
 * marked in use until released: a kill leaves it to the next writing command's sweep. `purpose`
 * is lowercase letters, digits and hyphens ("clone").
 */
export function makeRepoScratch(root: string, purpose: string): RepoScratch {
  if (!/^[a-z][a-z0-9-]*$/.test(purpose)) throw new Error(`makeRepoScratch: bad purpose ${JSON.stringify(purpose)}`);
  const tempDir = repoTempDir(root);
  const abs = path.join(tempDir, `${purpose}-${workId()}`);
  for (let attempt = 0; ; attempt++) {
    ensureRealFolder(tempDir);
    try {
      fs.mkdirSync(abs);
      break;
    } catch (error) {
      // Another run released its scratch and removed the emptied temp folder in between: make it again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw error;
    }
  }
  const unhold = holdWorkPath(abs);
  let released = false;
  return {
    path: abs,
    release() {
      if (released) return;
      released = true;
      try {
        fs.rmSync(abs, { recursive: true, force: true });
      } finally {
        unhold();
        removeIfEmpty(tempDir);
      }
    },
  };
}
