/**
 * A skill's files beyond SKILL.md, for progressive disclosure: what lies under its references/,
 * scripts/ and assets/ folders (SKILL_RESOURCE_DIRS), listed on request and read one at a time.
 *
 * Everything stays inside the skill's folder: a path with "..", an absolute path, or a symlink
 * (anywhere on the way) whose target lies outside the folder is refused, and a FIFO or a device is
 * never opened. A listing stops at MAX_LISTED_SKILL_RESOURCES; a file is returned up to a size and
 * marked as cut beyond it; binary content comes back as base64.
 */
import fs from 'node:fs';
import path from 'node:path';
import { utf8Prefix, utf8Text } from '../base/bounded-text.js';
import { SquadError } from '../base/errors.js';
import { isWithin, relativePathProblem, specialKind } from '../fs/fs-safe.js';
import { openConfined } from '../fs/confined.js';
import { SKILL_RESOURCE_DIRS, isIgnoredEntry } from '../base/paths.js';

/** A file larger than this is returned cut at this size. */
export const SKILL_RESOURCE_MAX_BYTES = 256 * 1024;
/** A listing names at most this many files. */
export const MAX_LISTED_SKILL_RESOURCES = 500;
/** Folders below a resource folder are listed this deep. */
const MAX_LISTING_DEPTH = 8;

export interface SkillResourceEntry {
  /** Relative to the skill folder, forward slashes: "references/api.md". */
  path: string;
  bytes: number;
}

export interface SkillResourceListing {
  files: SkillResourceEntry[];
  /** The listing stopped at MAX_LISTED_SKILL_RESOURCES. */
  truncated: boolean;
  /** Entries left out because a link leads out of the skill folder (or nowhere). */
  refused: { path: string; reason: string }[];
}

export interface SkillResourceContent {
  path: string;
  /** The file's whole size. */
  bytes: number;
  /** utf8 for text; base64 for anything else (an image, an archive). */
  encoding: 'utf8' | 'base64';
  content: string;
  /** Only the first `limit` bytes are in `content`. */
  truncated: boolean;
}

function realPathOrUndefined(absPath: string): string | undefined {
  try {
    return fs.realpathSync.native(absPath);
  } catch {
    return undefined;
  }
}

/** The files under the skill's resource folders, sorted; links that leave the folder are reported, not followed. */
export function listSkillResources(skillDir: string): SkillResourceListing {
  const realSkill = realPathOrUndefined(skillDir) ?? skillDir;
  const listing: SkillResourceListing = { files: [], truncated: false, refused: [] };
  const visit = (rel: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(skillDir, ...rel.split('/')), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (isIgnoredEntry(entry.name)) continue;
      if (listing.files.length >= MAX_LISTED_SKILL_RESOURCES) {
        listing.truncated = true;
        return;
      }
      const childRel = `${rel}/${entry.name}`;
      const abs = path.join(skillDir, ...childRel.split('/'));
      if (entry.isSymbolicLink()) {
        const target = realPathOrUndefined(abs);
        if (target === undefined || !isWithin(realSkill, target)) {
          listing.refused.push({ path: childRel, reason: target === undefined ? 'a dangling symlink' : 'a symlink that leads outside the skill folder' });
          continue;
        }
        // A link inside the folder is listed when it names a file; linked folders are not walked (no cycles).
        const stat = fs.statSync(abs);
        if (stat.isFile()) listing.files.push({ path: childRel, bytes: stat.size });
        continue;
      }
      if (entry.isDirectory()) {
        if (depth < MAX_LISTING_DEPTH) visit(childRel, depth + 1);
      } else if (entry.isFile()) {
        listing.files.push({ path: childRel, bytes: fs.statSync(abs).size });
      }
    }
  };
  for (const dir of SKILL_RESOURCE_DIRS) {
    const abs = path.join(skillDir, dir);
    const real = realPathOrUndefined(abs);
    if (real === undefined) continue;
    if (!isWithin(realSkill, real)) {
      listing.refused.push({ path: dir, reason: 'a symlink that leads outside the skill folder' });
      continue;
    }
    visit(dir, 0);
  }
  return listing;
}

function refusedRead(given: string, reason: string): SquadError {
  return new SquadError('unsafe-path', `refusing to read ${JSON.stringify(given)}: ${reason}`, {
    hint: `give a path inside the skill folder as the skill's file list shows it, under ${SKILL_RESOURCE_DIRS.map((d) => `${d}/`).join(', ')}`,
  });
}

/**
 * Where `given` (relative to the skill folder, under one of SKILL_RESOURCE_DIRS) really is, checked
 * to stay inside the skill folder; unsafe-path for anything that would leave it, not-found when
 * nothing is there.
 */
export function resolveSkillResource(skillDir: string, given: string): { rel: string; abs: string } {
  const rel = given.trim();
  const problem = relativePathProblem(rel);
  if (problem) throw refusedRead(given, problem);
  const top = rel.split('/')[0]!;
  if (!(SKILL_RESOURCE_DIRS as readonly string[]).includes(top)) {
    throw new SquadError('invalid-input', `${JSON.stringify(given)} is not under ${SKILL_RESOURCE_DIRS.map((d) => `${d}/`).join(', ')}`, {
      hint: 'SKILL.md comes with the skill itself; other files are read by their path in the skill folder, such as references/guide.md',
    });
  }
  const realSkill = realPathOrUndefined(skillDir) ?? skillDir;
  const abs = path.join(skillDir, ...rel.split('/'));
  const real = realPathOrUndefined(abs);
  if (real === undefined) {
    let isLink = false;
    try {
      isLink = fs.lstatSync(abs).isSymbolicLink();
    } catch {
      // nothing there
    }
    if (isLink) throw refusedRead(given, 'it is a dangling symlink');
    throw new SquadError('not-found', `the skill has no file ${rel}`, { hint: "list the skill's files first (read the skill without a file) and use a path from that list" });
  }
  if (!isWithin(realSkill, real)) throw refusedRead(given, 'a symlink on the way leads outside the skill folder');
  return { rel, abs: real };
}

/** One file of a skill (see resolveSkillResource), at most `limit` bytes of it. */
export function readSkillResource(skillDir: string, given: string, limit = SKILL_RESOURCE_MAX_BYTES): SkillResourceContent {
  const { rel, abs } = resolveSkillResource(skillDir, given);
  const stat = fs.statSync(abs);
  const kind = specialKind(stat);
  if (kind !== undefined) {
    throw new SquadError('invalid-input', `${rel} is ${kind}, not a file`, { hint: 'ask for one of the files the listing shows' });
  }
  const bytes = readHead(abs, limit + 1, skillDir);
  const truncated = bytes.length > limit;
  const shown = truncated ? utf8Prefix(bytes, limit) : bytes;
  const text = utf8Text(shown);
  return {
    path: rel,
    bytes: Math.max(stat.size, bytes.length),
    encoding: text === undefined ? 'base64' : 'utf8',
    content: text ?? bytes.subarray(0, Math.min(bytes.length, limit)).toString('base64'),
    truncated,
  };
}

/**
 * The first `count` bytes of a file (fewer when it is shorter), even if it grows while read. What
 * is opened must really be in `skillDir` (a link swapped in after the checks above is refused).
 */
function readHead(absPath: string, count: number, skillDir: string): Buffer {
  const buffer = Buffer.alloc(count);
  let size = 0;
  const fd = openConfined(absPath, { root: skillDir, rootName: 'the skill folder' });
  try {
    while (size < count) {
      const read = fs.readSync(fd, buffer, size, count - size, null);
      if (read === 0) break;
      size += read;
    }
  } finally {
    fs.closeSync(fd);
  }
  return buffer.subarray(0, size);
}
