/** What killed runs leave behind, for the tests that check a finished rerun leaves none of it. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { TEMP_FILE_PATTERN } from '../../src/core/fs/fs-safe.js';
import { IMPORT_STAGING_PREFIX, SKILL_STAGING_PREFIX } from '../../src/core/base/paths.js';

/**
 * Every temporary file and staging folder below `root` (repo-relative, `.git` left out): create-squad's
 * temporary files, skill staging folders and import staging folders.
 */
export function debrisLeft(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isFile() && TEMP_FILE_PATTERN.test(entry.name)) found.push(childRel);
      if (!entry.isDirectory()) continue;
      if (entry.name.startsWith(SKILL_STAGING_PREFIX) || entry.name.startsWith(IMPORT_STAGING_PREFIX)) found.push(`${childRel}/`);
      else walk(path.join(dir, entry.name), childRel);
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
