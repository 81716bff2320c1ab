/**
 * Finding the squad and the repository from a folder, as git finds its repository: a command run
 * in `packages/app/src` acts on the squad of the enclosing repository, not on a squad it would
 * have to create there.
 *
 * - The repository root is the nearest folder, from the start upwards, that holds `.git` (a folder,
 *   or a file in a worktree or submodule).
 * - The squad root is the nearest folder that holds `.ai-team/` (or `.squad/`, where the original
 *   Squad keeps a squad: commands then say how to move it), searched upwards from the start and
 *   never above the repository root (a squad in a parent repository is someone else's).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ORIGINAL_SQUAD_DIR, squadPaths } from '../base/paths.js';

function holds(dir: string, name: string, kind: 'folder' | 'any'): boolean {
  try {
    const stat = fs.statSync(path.join(dir, name));
    return kind === 'any' || stat.isDirectory();
  } catch {
    return false;
  }
}

/** `start` and each folder above it, nearest first. */
function* upwards(start: string): Generator<string> {
  let dir = path.resolve(start);
  for (;;) {
    yield dir;
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

/** The nearest folder at or above `start` that holds `.git`, or undefined outside a repository. */
export function findGitRoot(start: string): string | undefined {
  for (const dir of upwards(start)) if (holds(dir, '.git', 'any')) return dir;
  return undefined;
}

/**
 * The nearest folder at or above `start` that holds a squad (`.ai-team/`), not above the
 * repository root; undefined when there is none.
 */
export function findSquadRoot(start: string): string | undefined {
  for (const dir of upwards(start)) {
    if (holds(dir, squadPaths.root, 'folder') || holds(dir, ORIGINAL_SQUAD_DIR, 'folder')) return dir;
    if (holds(dir, '.git', 'any')) return undefined;
  }
  return undefined;
}
