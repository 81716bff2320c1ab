/**
 * The files of a skill in a `.squad` document: buckets (`references`, `scripts`, `assets`,
 * `files`), encoding to and decoding from FILES values, and the rules for a path inside a skill.
 */
import { isUtf8 } from 'node:buffer';
import { SKILL_BUCKETS, SQUAD_LIMITS, type FileEntry, type SkillBucket, type SquadLimits, type SquadSkill } from './squad-format.js';
import { SKILL_RESOURCE_DIRS } from '../base/paths.js';
import { modeFor } from '../fs/tree.js';
import { normalizedKey, skillPathProblem } from '../skills/skill-paths.js';

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

/**
 * Why a path inside a skill is unacceptable in a .squad file, or undefined: the rule `skills add`
 * holds a skill to at the door (skills/skill-paths.ts), with the document's limits.
 */
export function squadPathProblem(relPath: string, limits: SquadLimits = SQUAD_LIMITS): string | undefined {
  return skillPathProblem(relPath, limits);
}

export { normalizedKey };
