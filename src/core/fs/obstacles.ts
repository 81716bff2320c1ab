/**
 * Obstacles to writing a file: what stands where create-squad would write a regular file (a
 * symlink, a file where a folder must be, a folder where the file must be), said once for upgrade,
 * the members' agents and doctor.
 */
import { existsInside, isDirectory, isFile, pathProblem } from './fs-safe.js';
import { resolveIn } from '../base/paths.js';

/**
 * Why `relPath` cannot be written as a regular file, or undefined when it can: a symlink (on the
 * way out of the repository, or as the file itself), a file where a folder must be, a folder where
 * the file must be.
 */
export function blockedReason(root: string, relPath: string): string | undefined {
  const unsafe = pathProblem(root, relPath);
  if (unsafe !== undefined) return unsafe;
  const segments = relPath.split('/');
  for (let i = segments.length - 1; i > 0; i -= 1) {
    const parent = segments.slice(0, i).join('/');
    if (existsInside(root, parent) && !isDirectory(resolveIn(root, parent))) return `${parent} is a file, not a folder`;
  }
  if (existsInside(root, relPath) && !isFile(resolveIn(root, relPath))) return `${relPath} is not a regular file`;
  return undefined;
}

/** What an obstacle blockedReason names means: upgrade leaves the path as it is. */
export const NEVER_WRITTEN = 'create-squad never writes through a symlink or over what is not a regular file';

/** How to clear an obstacle blockedReason names, so that an upgrade can write the file. */
export function obstacleFix(reason: string): string {
  const what = reason.includes('symlink') ? 'replace the link with a real copy of what it points to' : 'move it aside';
  return `${what}, then run "create-squad upgrade"`;
}
