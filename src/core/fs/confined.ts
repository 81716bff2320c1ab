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
 * Whether a file is inside is decided on the file opened (openConfined), not only on its name, so a
 * file swapped for a link between a check and the read is refused too. A skill's SKILL.md and its
 * resources are read through the same function wherever their text can reach a prompt, a listing
 * or an MCP answer.
 *
 * Files create-squad itself owns and ships (the coordinator, `.ai-team-templates/`, built-in
 * skills) are the exception: upgrade and init compare them by hash, through a link if need be,
 * and never print or pass on what they hold; a link there is an obstacle upgrade reports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import { isWithin, pathProblem, readBytesIfExists } from './fs-safe.js';
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

/**
 * The text of a squad file, undefined when it does not exist; unsafe-path when it may not be read.
 * The path is checked first (its message names the link on the way), then what is opened (a file
 * swapped for a link out in between is refused all the same: openConfined).
 */
export function readStateText(root: string, relPath: string, maxBytes?: number): string | undefined {
  return readStateBytes(root, relPath, maxBytes)?.toString('utf8');
}

/** The bytes of a squad file, as readStateText. */
export function readStateBytes(root: string, relPath: string, maxBytes?: number): Buffer | undefined {
  const abs = confinedPath(root, relPath);
  return abs === undefined ? undefined : readBytesIfExists(abs, maxBytes, (opened) => openConfined(opened, { root }));
}

/**
 * The first `maxBytes` of a squad file as text, however large the file (undefined when it does not
 * exist or is no regular file; unsafe-path as readStateText): for a reader that only ever uses the
 * head of a file (route reads the start of each charter), so one oversized file never stops it.
 */
export function readStateHead(root: string, relPath: string, maxBytes: number): string | undefined {
  const abs = confinedPath(root, relPath);
  if (abs === undefined) return undefined;
  let fd: number;
  try {
    fd = openConfined(abs, { root });
  } catch (error) {
    if (error instanceof SquadError) throw error;
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return undefined;
    // No bigger than the file (a charter is a few KB; routing reads every member's): only the bytes read are decoded.
    const length = stat.size > 0 && stat.size < maxBytes ? stat.size : maxBytes;
    const head = Buffer.allocUnsafe(length);
    const read = fs.readSync(fd, head, 0, length, 0);
    // A character cut at the end decodes as U+FFFD: harmless in a head that is only searched.
    return head.toString('utf8', 0, read);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

// ---------------------------------------------------------------- reads decided on the opened file

/** Where a read is confined (see openConfined). */
export interface ReadConfinement {
  /** The repository (or a folder of it): what is read must really be inside it. */
  root: string;
  /** How messages name `root`; "the repository" unless given ("the skill folder"). */
  rootName?: string;
  /**
   * The file's folder is known, by its real path, to be inside the repository (discovery checked it
   * just before): a file that is no link is then taken on an O_NOFOLLOW open alone, and only a
   * link pays for the real-path check. Without it every open is checked.
   */
  folderInside?: boolean;
}

const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
const NO_FOLLOW = fs.constants.O_NOFOLLOW;

/**
 * Test seams of openConfined: `afterOpen` runs between the open and the check of what was opened
 * (a test swaps the file there); `procFd` false takes the path used where /proc/self/fd does not
 * exist (real path of the name, then the same device and inode as the opened file).
 */
export const confinedOpenSeams: { afterOpen: ((absPath: string) => void) | undefined; procFd: boolean } = { afterOpen: undefined, procFd: true };

/**
 * Open `absPath` for reading (non-blocking: a FIFO never stops a listing) and return its
 * descriptor, only when the file opened really is inside `within.root`. The decision is made on
 * the opened file, not on its name, so a file swapped for a link between a check and the read
 * cannot slip through: a link out of the repository is refused with unsafe-path (the descriptor
 * closed), a missing file or a dangling link fails as the open does (ENOENT: it leaks nothing).
 */
export function openConfined(absPath: string, within: ReadConfinement): number {
  if (within.folderInside && NO_FOLLOW !== undefined) {
    try {
      // Not a link at the moment of the open: the file is in its folder, which is inside.
      return fs.openSync(absPath, READ_FLAGS | NO_FOLLOW);
    } catch (error) {
      // ELOOP (EMLINK on some BSDs): the file is a link, checked below. Anything else is the open's own failure.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ELOOP' && code !== 'EMLINK') throw error;
    }
  }
  const fd = fs.openSync(absPath, READ_FLAGS);
  try {
    confinedOpenSeams.afterOpen?.(absPath);
    const real = openedRealPath(fd, absPath);
    if (real === undefined || !isWithin(realPathOf(within.root), real)) {
      const rel = path.relative(path.resolve(within.root), absPath).split(path.sep).join('/');
      throw refused(rel, `${rel} is a symlink that leads outside ${within.rootName ?? 'the repository'}`);
    }
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/**
 * The real path of the file open as `fd`: what /proc/self/fd says where it exists; elsewhere the
 * real path of its name, only if that names the same file (device and inode) as the one opened.
 * Undefined when it cannot be told: the caller refuses.
 */
function openedRealPath(fd: number, absPath: string): string | undefined {
  if (confinedOpenSeams.procFd) {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // no /proc: the other way below
    }
  }
  try {
    const real = fs.realpathSync.native(absPath);
    const opened = fs.fstatSync(fd);
    const named = fs.statSync(real);
    return opened.dev === named.dev && opened.ino === named.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

function realPathOf(root: string): string {
  try {
    return fs.realpathSync.native(root);
  } catch {
    return path.resolve(root);
  }
}
