/**
 * The files of a skill in a `.squad` document: buckets (`references`, `scripts`, `assets`,
 * `files`), encoding to and decoding from FILES values, and the rules for a path inside a skill.
 */
import { isUtf8 } from 'node:buffer';
import { SKILL_BUCKETS, SQUAD_LIMITS, type FileEntry, type SkillBucket, type SquadLimits, type SquadSkill } from './squad-format.js';
import { relativePathProblem } from '../fs/fs-safe.js';
import { WINDOWS_DEVICE_NAME } from '../base/names.js';
import { SKILL_RESOURCE_DIRS } from '../base/paths.js';
import { modeFor } from '../fs/tree.js';
import { controlCharacterProblem } from '../base/util.js';

/** A file's skill-relative path from its bucket and its path in the bucket. */
export function skillFilePath(bucket: SkillBucket, relPath: string): string {
  return bucket === 'files' ? relPath : `${bucket}/${relPath}`;
}

/** The bucket a skill-relative path belongs in, and its path within that bucket. */
export function bucketOf(skillRelPath: string): { bucket: SkillBucket; path: string } {
  const slash = skillRelPath.indexOf('/');
  if (slash > 0) {
    const head = skillRelPath.slice(0, slash);
    const bucket = SKILL_RESOURCE_DIRS.find((dir) => dir === head);
    if (bucket) return { bucket, path: skillRelPath.slice(slash + 1) };
  }
  return { bucket: 'files', path: skillRelPath };
}

/** Every file of a skill except SKILL.md, as [skill-relative path, entry], in bucket order. */
export function skillFileEntries(skill: SquadSkill): [string, FileEntry][] {
  const out: [string, FileEntry][] = [];
  for (const bucket of SKILL_BUCKETS) {
    for (const [relPath, entry] of Object.entries(skill[bucket])) out.push([skillFilePath(bucket, relPath), entry]);
  }
  return out;
}

/** The FILES value for a file's bytes: a plain string for non-executable UTF-8 text. */
export function encodeFile(data: Buffer, executable: boolean): FileEntry {
  const text = isUtf8(data);
  if (text && !executable) return data.toString('utf8');
  return { content: data.toString(text ? 'utf8' : 'base64'), encoding: text ? 'utf8' : 'base64', mode: executable ? '755' : '644' };
}

/** The bytes (a string is written as UTF-8) and mode a FILES value stands for. */
export function decodeFile(entry: FileEntry): { data: string | Buffer; mode: number } {
  if (typeof entry === 'string') return { data: entry, mode: modeFor(false) };
  return {
    data: entry.encoding === 'base64' ? Buffer.from(entry.content, 'base64') : entry.content,
    mode: modeFor(entry.mode === '755'),
  };
}

/** Characters Windows refuses in a file name (besides `/`, `\\` and control characters). */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/** Why one segment of a path (or a name) cannot be a file name on Windows, or undefined. */
function windowsSegmentProblem(segment: string): string | undefined {
  const forbidden = WINDOWS_FORBIDDEN.exec(segment);
  if (forbidden) return `${forbidden[0] === '"' ? `'"'` : `"${forbidden[0]}"`} is a character Windows does not allow in file names`;
  if (WINDOWS_DEVICE_NAME.test(segment)) return `"${segment}" is a device name Windows reserves`;
  if (/[. ]$/.test(segment)) return `"${segment}" ends with a dot or a space, which Windows drops`;
  return undefined;
}

/**
 * Why a path inside a skill is unacceptable in a .squad file, or undefined. Adds to the
 * repository path rules (empty, NUL, backslash, absolute, `..`, empty or `.` segments): a drive
 * letter as a segment (`x/C:/y`), control characters, a `.git` folder, what Windows refuses
 * (`<>:"|?*`, device names such as `CON` or `aux.txt`, a trailing dot or space), and length limits.
 */
export function squadPathProblem(relPath: string, limits: SquadLimits = SQUAD_LIMITS): string | undefined {
  // A name such as "a:b" is no drive (only "C:" and "C:/…" are): it is refused below for its ":".
  const base = relativePathProblem(relPath.replace(/^([a-zA-Z]):(?!\/|$)/, '$1_'));
  if (base) return base;
  if (relPath.length > limits.pathLength) return `the path is ${relPath.length} characters; the limit is ${limits.pathLength}`;
  if (controlCharacterProblem(relPath)) return 'the path contains a control character';
  for (const segment of relPath.split('/')) {
    if (/^[a-zA-Z]:$/.test(segment)) return 'the path contains a drive letter';
    if (segment.toLowerCase() === '.git') return 'the path contains a .git folder';
    const windows = windowsSegmentProblem(segment);
    if (windows) return `the path is not portable: ${windows}`;
    if (Buffer.byteLength(segment) > limits.segmentBytes) return `a path segment is longer than ${limits.segmentBytes} bytes`;
  }
  return undefined;
}

/**
 * The key under which two names or paths count as the same: Unicode NFC, case ignored, trailing
 * dots and spaces of each segment dropped (as Windows drops them).
 */
export function normalizedKey(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[. ]+(?=\/|$)/g, '');
}
