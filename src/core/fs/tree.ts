/**
 * Walking and copying whole folders (a skill with its references, scripts and assets).
 * Symlinks are never followed: they are reported as skipped, so a copied tree can only contain
 * what is really inside the source folder. `.git` folders and files (a skill that is its own
 * repository or submodule) are left out, and listed so that callers can say so.
 *
 * The walk records each file's identity (device and inode); the copy opens each file without
 * following a link and reads from that handle only when it is the very file the walk saw, so a
 * file swapped for a link (or a folder on its path swapped for one) after the walk is refused,
 * never followed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import { compareCodePoints } from '../base/util.js';
import { copyOpenFileAtomic, specialKind } from './fs-safe.js';

export interface TreeFile {
  /** Path relative to the walked folder, forward slashes. */
  path: string;
  size: number;
  /** True when any execute bit is set. */
  executable: boolean;
  /** Device and inode the walk saw: the copy reads that very file or none (openWalkedFile). */
  dev: number;
  ino: number;
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
    files.push({ path: entry.path, size: stats.size, executable: (stats.mode & 0o111) !== 0, dev: stats.dev, ino: stats.ino });
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

// Not on Windows: there the identity check alone stands.
const OPEN_WALKED = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/** What an open that refused to follow a link, or found nothing, says about the entry. */
function openProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'EMLINK') return 'it is a symlink now';
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'it is gone';
  return `it cannot be opened (${code ?? String(error)})`;
}

/**
 * Open `file` of the tree walked at `sourceDir` for reading, as the walk saw it: never through a
 * symlink (O_NOFOLLOW), never waiting on a FIFO (O_NONBLOCK), and only when the handle is a regular
 * file with the device, inode and size the walk recorded. Otherwise unsafe-path, naming the file:
 * it changed after the walk. The caller closes the descriptor.
 */
export function openWalkedFile(sourceDir: string, file: TreeFile): number {
  const absPath = path.join(sourceDir, ...file.path.split('/'));
  const changed = (problem: string) =>
    new SquadError('unsafe-path', `${absPath} changed after it was read: ${problem}; it was not copied`, {
      hint: 'make sure nothing changes the source folder while the command runs, then run it again',
    });
  let fd: number;
  try {
    fd = fs.openSync(absPath, OPEN_WALKED);
  } catch (error) {
    throw changed(openProblem(error));
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw changed(`it is ${specialKind(stat)} now`);
    if (stat.dev !== file.dev || stat.ino !== file.ino) throw changed('it is another file now');
    if (stat.size !== file.size) throw changed(`its size changed from ${file.size} to ${stat.size} bytes`);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/**
 * Copy the files of `tree` from `sourceDir` to `root/destRel`, a folder this run makes (staging),
 * each through the atomic writer from the handle openWalkedFile gives (streamed, never whole in
 * memory), keeping the executable bit.
 */
export function copyTree(sourceDir: string, tree: Tree, root: string, destRel: string): void {
  for (const file of tree.files) {
    const fd = openWalkedFile(sourceDir, file);
    try {
      copyOpenFileAtomic(root, `${destRel}/${file.path}`, fd, file.size, { mode: modeFor(file.executable), sweep: false });
    } finally {
      fs.closeSync(fd);
    }
  }
}
