/**
 * Confined reads of squad state: every file create-squad reads from a squad (roster, routing,
 * charters, histories, casting, manifest, coordinator) is read only when it stays inside the
 * repository, is a regular file and is under a size limit.
 *
 * A symlink inside the repository is followed; one that leads outside it (or nowhere) is refused:
 * a pull request could turn `charter.md` into a link to a credentials file, and what a charter
 * holds is printed into a model's prompt. A FIFO or a device is refused without being opened, and
 * a file over the limit is refused instead of read in part (fs-safe.readBytesIfExists).
 *
 * Files create-squad itself owns and ships (the coordinator, `.ai-team-templates/`, built-in
 * skills) are the exception: upgrade and init compare them by hash, through a link if need be,
 * and never print or pass on what they hold; a link there is an obstacle upgrade reports.
 */
import fs from 'node:fs';
import { SquadError } from '../base/errors.js';
import { pathProblem, readBytesIfExists, readTextIfExists } from './fs-safe.js';
import { resolveIn } from '../base/paths.js';

/** Why `relPath` under `root` may not be read as squad state, or undefined when it may. */
export function stateReadProblem(root: string, relPath: string): string | undefined {
  return pathProblem(root, relPath, { allowFinalSymlink: true });
}

/** The hint for a refused read; doctor gives the same fix. */
export function confinementFix(relPath: string): string {
  return `replace ${relPath} with a real file inside the repository (a link may only point inside it), then run the command again`;
}

function refused(relPath: string, problem: string): SquadError {
  return new SquadError('unsafe-path', `refusing to read ${relPath}: ${problem}`, { hint: confinementFix(relPath) });
}

/**
 * The absolute path of a squad file that may be read, or undefined when nothing can be read there
 * (a dangling link reads as missing: it leaks nothing). unsafe-path when it leads outside.
 */
function confinedPath(root: string, relPath: string): string | undefined {
  const abs = resolveIn(root, relPath);
  const problem = stateReadProblem(root, relPath);
  if (problem === undefined) return abs;
  if (!fs.existsSync(abs)) return undefined;
  throw refused(relPath, problem);
}

/** The text of a squad file, undefined when it does not exist; unsafe-path when it may not be read. */
export function readStateText(root: string, relPath: string, maxBytes?: number): string | undefined {
  const abs = confinedPath(root, relPath);
  return abs === undefined ? undefined : readTextIfExists(abs, maxBytes);
}

/** The bytes of a squad file, as readStateText. */
export function readStateBytes(root: string, relPath: string, maxBytes?: number): Buffer | undefined {
  const abs = confinedPath(root, relPath);
  return abs === undefined ? undefined : readBytesIfExists(abs, maxBytes);
}
