/**
 * Walking and copying whole folders (a skill with its references, scripts and assets).
 * Symlinks are never followed: they are reported as skipped, so a copied tree can only contain
 * what is really inside the source folder. `.git` folders and files (a skill that is its own
 * repository or submodule) are left out, and listed so that callers can say so.
 */
import path from 'node:path';
import { compareCodePoints } from '../base/util.js';
import { copyFileAtomic } from './fs-safe.js';

export interface TreeFile {
  /** Path relative to the walked folder, forward slashes. */
  path: string;
  size: number;
  /** True when any execute bit is set. */
  executable: boolean;
}

export interface Tree {
  files: TreeFile[];
  /** Relative paths of symlinks and special files that were left out. */
  skipped: string[];
  /** Relative paths of the `.git` folders and files that were left out (not walked). */
  git: string[];
}

function isGitEntry(relPath: string): boolean {
  return relPath.slice(relPath.lastIndexOf('/') + 1).toLowerCase() === '.git';
}

/** Every regular file below `absDir` (dot-files included, `.git` left out), sorted by path. */
export async function listTree(absDir: string): Promise<Tree> {
  const { default: fg } = await import('fast-glob');
  const entries = await fg('**/*', {
    cwd: absDir,
    dot: true,
    onlyFiles: false,
    followSymbolicLinks: false,
    objectMode: true,
    stats: true,
    caseSensitiveMatch: false,
    // What is inside a .git folder is not walked; the .git entry itself is listed.
    ignore: ['**/.git/**/*'],
  });
  const files: TreeFile[] = [];
  const skipped: string[] = [];
  const git: string[] = [];
  for (const entry of entries) {
    const stats = entry.stats!;
    if (isGitEntry(entry.path)) {
      git.push(entry.path);
      continue;
    }
    if (stats.isDirectory()) continue;
    if (!stats.isFile()) {
      skipped.push(entry.path);
      continue;
    }
    files.push({ path: entry.path, size: stats.size, executable: (stats.mode & 0o111) !== 0 });
  }
  files.sort((a, b) => compareCodePoints(a.path, b.path));
  skipped.sort(compareCodePoints);
  git.sort(compareCodePoints);
  return { files, skipped, git };
}

/** File mode create-squad writes: 755 for executables, 644 otherwise. */
export function modeFor(executable: boolean): number {
  return executable ? 0o755 : 0o644;
}

/**
 * Copy the files of `tree` from `sourceDir` to `root/destRel`, a folder this run makes (staging),
 * each through the atomic writer (copied by the system, never read into memory), keeping the
 * executable bit.
 */
export function copyTree(sourceDir: string, tree: Tree, root: string, destRel: string): void {
  for (const file of tree.files) {
    copyFileAtomic(root, `${destRel}/${file.path}`, path.join(sourceDir, ...file.path.split('/')), { mode: modeFor(file.executable), sweep: false });
  }
}
