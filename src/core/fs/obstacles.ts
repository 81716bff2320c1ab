/**
 * Obstacles to writing a file: what stands where create-squad would write a regular file (a
 * symlink, a file where a folder must be, a folder where the file must be), said once for upgrade,
 * the members' agents and doctor.
 */
import fs from 'node:fs';
import { relativePathProblem, walkInside } from './fs-safe.js';

/**
 * Why `relPath` cannot be written as a regular file, or undefined when it can: a symlink (on the
 * way out of the repository, or as the file itself), a file where a folder must be, a folder where
 * the file must be. One walk from the root (fs-safe.ts walkInside): upgrade asks this of every
 * file it may write and of each one's backup.
 */
export function blockedReason(root: string, relPath: string): string | undefined {
  return (
    relativePathProblem(relPath) ??
    walkInside(root, relPath, {}, ({ shown, abs, stat, last }) => {
      if (last) return stat.isFile() ? undefined : `${relPath} is not a regular file`;
      // A folder link that stays inside is walked through, as a write would.
      return (stat.isSymbolicLink() ? isDirectoryAt(abs) : stat.isDirectory()) ? undefined : `${shown} is a file, not a folder`;
    })
  );
}

function isDirectoryAt(abs: string): boolean {
  try {
    return fs.statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** What an obstacle blockedReason names means: upgrade leaves the path as it is. */
export const NEVER_WRITTEN = 'create-squad never writes through a symlink or over what is not a regular file';

/** How to clear an obstacle blockedReason names, so that an upgrade can write the file. */
export function obstacleFix(reason: string): string {
  const what = reason.includes('symlink') ? 'replace the link with a real copy of what it points to' : 'move it aside';
  return `${what}, then run "create-squad upgrade"`;
}
