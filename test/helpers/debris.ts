/** What killed runs leave behind, for the tests that check a finished rerun leaves none of it. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEBRIS_KINDS, REPO_TEMP_DIR } from '../../src/core/fs/debris.js';
import { LOCK_FILE, LOCK_TAKEOVER_FILE, LOCK_TEMP_PATTERN } from '../../src/core/fs/lock.js';

/** Whether `name` is one create-squad gives something temporary (any kind of debris.ts, the lock's own). */
function isTemporaryName(name: string, isFile: boolean, parentRel: string): boolean {
  if (name === LOCK_FILE || name === LOCK_TAKEOVER_FILE || name === REPO_TEMP_DIR || LOCK_TEMP_PATTERN.test(name)) return true;
  return DEBRIS_KINDS.some(
    (kind) => (kind.entry === 'file') === isFile && (kind.only === undefined || kind.only === parentRel) && (kind.pattern.test(name) || kind.unowned?.(name) === true),
  );
}

/**
 * Every temporary file and folder below `root` (repo-relative, folders with a trailing slash,
 * `.git` left out), wherever it is: every name of the debris registry (core/fs/debris.ts), the
 * lock and its own files, the repository's temp folder.
 */
export function debrisLeft(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      // The repository's temp folder: each scratch folder in it, or the folder itself once empty.
      if (entry.name === REPO_TEMP_DIR && !rel && entry.isDirectory() && fs.readdirSync(path.join(dir, entry.name)).length > 0) {
        for (const inside of fs.readdirSync(path.join(dir, entry.name), { withFileTypes: true })) found.push(`${REPO_TEMP_DIR}/${inside.name}${inside.isDirectory() ? '/' : ''}`);
      } else if ((entry.isFile() || entry.isDirectory()) && isTemporaryName(entry.name, entry.isFile(), rel || '.')) {
        found.push(entry.isDirectory() ? `${childRel}/` : childRel);
      } else if (entry.isDirectory()) walk(path.join(dir, entry.name), childRel);
    }
  };
  walk(root, '');
  return found.sort();
}

let exited: number | undefined;

/** The pid of a process that has exited: what the name of a temporary file of a killed run records. */
export function deadPid(): number {
  exited ??= spawnSync(process.execPath, ['-e', '0']).pid;
  if (exited === undefined) throw new Error('could not start a child process');
  return exited;
}
