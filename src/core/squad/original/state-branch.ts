/**
 * squad-cli's orphan state backend (`squad init --state-backend orphan`, or `two-layer`): the
 * team's histories and decisions live on a `squad-state` branch of the repository, by their path
 * in `.squad/` (`decisions.md`, `agents/{name}/history.md`), and the working tree holds none of
 * them. This reads that branch with git, never checking it out (`git ls-tree` and `git cat-file`
 * of the ref), and the git hooks squad-cli installed to keep it in step. squad-dir-plan.ts decides
 * what upgrade brings into `.ai-team/` from it (only with `--from-state-branch`).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { STATE_FILE_MAX_BYTES, SQUAD_MAX_FILES } from '../../base/limits.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR, resolveIn } from '../../base/paths.js';
import { compareCodePoints } from '../../base/util.js';
import { isDirectory, readDirEntries, readTextIfExists } from '../../fs/fs-safe.js';

/** The branch squad-cli's orphan backend keeps the team's state on. */
export const STATE_BRANCH = 'squad-state';
/** The backends of squad-cli's `config.json` that keep state on that branch. */
const BRANCH_BACKENDS = new Set(['orphan', 'two-layer']);
/** The line squad-cli writes into each git hook it installs. */
const SQUAD_CLI_HOOK_MARK = '# --- squad-sync-hook ---';
/** How long one git command may take. */
const GIT_TIMEOUT_MS = 10_000;

/** A file of the team's state on the branch: its path there (= its path in the squad folder) and its text. */
export interface StateBranchFile {
  path: string;
  text: string;
}

/** What the branch holds: the histories and decisions upgrade can bring, and what else it keeps. */
export interface StateBranch {
  files: StateBranchFile[];
  /** Files on the branch upgrade does not bring (logs, notes), by path there. */
  others: string[];
  /** Files it brings that could not be read (too large, not text), by path there. */
  unread: string[];
}

/** Whether a path on the branch is a history or a decision: what upgrade brings. */
export function isBranchStatePath(relPath: string): boolean {
  const segments = relPath.split('/');
  if (relPath === 'decisions.md') return true;
  if (segments[0] === 'decisions') return relPath.endsWith('.md') && segments.length <= 4;
  return segments.length === 3 && segments[0] === 'agents' && segments[2] === 'history.md';
}

/** Whether squad-cli's `config.json` in the squad folder names a backend that keeps state on the branch. */
export function usesStateBranch(root: string): boolean {
  for (const dir of [ORIGINAL_SQUAD_DIR, AI_TEAM_DIR]) {
    const text = readTextIfExists(resolveIn(root, `${dir}/config.json`));
    if (text === undefined) continue;
    try {
      const config: unknown = JSON.parse(text);
      const backend = typeof config === 'object' && config !== null ? (config as Record<string, unknown>).stateBackend : undefined;
      if (typeof backend === 'string' && BRANCH_BACKENDS.has(backend)) return true;
    } catch {
      // not squad-cli's config: no backend named
    }
  }
  return false;
}

function git(root: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: STATE_FILE_MAX_BYTES * 2,
      // Never a pager, a prompt or a repository other than this one.
      env: { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_DIR: undefined, GIT_WORK_TREE: undefined },
    });
  } catch {
    return undefined;
  }
}

/**
 * The branch's histories and decisions, read with git without a checkout; undefined when the
 * repository has no `squad-state` branch (or git cannot read it).
 */
export function readStateBranch(root: string): StateBranch | undefined {
  const ref = `refs/heads/${STATE_BRANCH}`;
  if (git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]) === undefined) return undefined;
  const listing = git(root, ['ls-tree', '-r', '-z', '--full-tree', '-l', ref]);
  if (listing === undefined) return undefined;
  const branch: StateBranch = { files: [], others: [], unread: [] };
  for (const entry of listing.split('\0').slice(0, SQUAD_MAX_FILES)) {
    // "<mode> <type> <object> <size>\t<path>"
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, object, size] = entry.slice(0, tab).trim().split(/\s+/);
    const relPath = entry.slice(tab + 1);
    if (relPath === 'README.md') continue; // the branch's own note
    if (!isBranchStatePath(relPath)) {
      branch.others.push(relPath);
      continue;
    }
    const text = type === 'blob' && mode === '100644' && Number(size) <= STATE_FILE_MAX_BYTES ? git(root, ['cat-file', 'blob', object!]) : undefined;
    if (text === undefined || text.includes('\0')) branch.unread.push(relPath);
    else branch.files.push({ path: relPath, text });
  }
  branch.files.sort((a, b) => compareCodePoints(a.path, b.path));
  branch.others.sort(compareCodePoints);
  branch.unread.sort(compareCodePoints);
  return branch;
}

/** The git hooks squad-cli installed (they carry its mark), repo-relative; empty when there are none or no `.git` folder. */
export function readSquadCliHooks(root: string): string[] {
  const hooks = path.join('.git', 'hooks');
  if (!isDirectory(resolveIn(root, hooks))) return [];
  return readDirEntries(resolveIn(root, hooks))
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.sample'))
    .filter((entry) => readQuietly(resolveIn(root, `${hooks}/${entry.name}`)).includes(SQUAD_CLI_HOOK_MARK))
    .map((entry) => `.git/hooks/${entry.name}`)
    .sort(compareCodePoints);
}

function readQuietly(absPath: string): string {
  try {
    return readTextIfExists(absPath, STATE_FILE_MAX_BYTES) ?? '';
  } catch {
    return ''; // too large or unreadable: not squad-cli's hook
  }
}
