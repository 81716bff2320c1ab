/**
 * `skills-lock.json` at the repository root: the skills ecosystem's project lock (the format the
 * `skills` CLI writes), which create-squad reads and writes as the record of where each skill came
 * from. Version 1:
 *   { "version": 1, "skills": { "<key>": { "source", "sourceUrl"?, "ref"?, "sourceType",
 *     "skillPath"?, "computedHash", "createSquad"? } } }
 * The key is the skill's name for a team skill (what other tools restore by); a member's own skill
 * is `<member>/<name>`, a key no skill name can take, so other tools leave it alone. create-squad's
 * own fields live under `createSquad` (the installed commit, each file's hash), which other tools
 * keep as they are and otherwise ignore.
 *
 * Byte-stable so that it merges cleanly: entries sorted by key, each entry's fields in the
 * ecosystem's order then the rest sorted, two-space JSON, a final newline, nothing time-dependent.
 * A file left with git conflict markers is healed on read: both sides are read and their entries
 * joined; a skill both sides changed differently is refused, naming it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { SquadError } from '../base/errors.js';
import { AI_TEAM_DIR } from '../base/paths.js';
import { compareCodePoints, isMapping, quoted } from '../base/util.js';
import { openWalkedFile, type TreeFile } from '../fs/tree.js';

export const SKILL_LOCK_PATH = 'skills-lock.json';
export const SKILL_LOCK_VERSION = 1;
/** The entry field that holds create-squad's own fields. */
export const CREATE_SQUAD_FIELD = 'createSquad';

/** Fields of an entry in the order the ecosystem writes them; any other follows, sorted. */
const FIELD_ORDER = ['source', 'sourceUrl', 'ref', 'sourceType', 'skillPath', 'computedHash'];

/** The lock as read. */
export interface SkillLock {
  /** The file's text; undefined when there is none. */
  text: string | undefined;
  /** The entries by key, as they are in the file. */
  entries: Record<string, Record<string, unknown>>;
  /** The file's other top-level fields, kept as they are. */
  extra: Record<string, unknown>;
  /** The text held git conflict markers, healed: the next write writes the joined entries. */
  healed: boolean;
  /** Why the text cannot be used as a lock (reading a record from it refuses, naming the file). */
  problem?: string;
}

/** An empty lock, as when there is no file. */
export function emptyLock(): SkillLock {
  return { text: undefined, entries: {}, extra: {}, healed: false };
}

// ---------------------------------------------------------------- keys

const MEMBER_SKILL = new RegExp(`^${AI_TEAM_DIR.replace('.', '\\.')}/agents/([^/]+)/skills/([^/]+)$`);

/** The key of the skill installed at `destination` (a team skill's folder, or a member's). */
export function lockKey(destination: string): string {
  const member = MEMBER_SKILL.exec(destination);
  if (member) return `${member[1]}/${member[2]}`;
  return destination.slice(destination.lastIndexOf('/') + 1);
}

/** What a key names: a team skill, or a member's own. */
export function parseLockKey(key: string): { name: string; agent?: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { agent: key.slice(0, slash), name: key.slice(slash + 1) };
}

// ---------------------------------------------------------------- reading

const MARKER_START = /^<{7}(?: |$)/;
const MARKER_BASE = /^\|{7}(?: |$)/;
const MARKER_MIDDLE = /^={7}$/;
const MARKER_END = /^>{7}(?: |$)/;

/** The two sides of a text with git conflict markers (a diff3 base dropped); undefined when it has none. */
export function conflictSides(text: string): [string, string] | undefined {
  const lines = text.split(/\r?\n/);
  if (!lines.some((line) => MARKER_START.test(line))) return undefined;
  const ours: string[] = [];
  const theirs: string[] = [];
  let state: 'both' | 'ours' | 'base' | 'theirs' = 'both';
  for (const line of lines) {
    if (MARKER_START.test(line) && state === 'both') state = 'ours';
    else if (MARKER_BASE.test(line) && state === 'ours') state = 'base';
    else if (MARKER_MIDDLE.test(line) && (state === 'ours' || state === 'base')) state = 'theirs';
    else if (MARKER_END.test(line) && state === 'theirs') state = 'both';
    else if (state === 'both') {
      ours.push(line);
      theirs.push(line);
    } else if (state === 'ours') ours.push(line);
    else if (state === 'theirs') theirs.push(line);
  }
  if (state !== 'both') return undefined; // an unclosed conflict: not healed
  return [ours.join('\n'), theirs.join('\n')];
}

/** JSON that may end a list or object with a comma (what joining conflict sides leaves), or undefined. */
function parseLenient(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      // Only commas before a closing bracket outside strings are dropped.
      return JSON.parse(text.replace(/("(?:[^"\\]|\\.)*")|,(\s*[}\]])/g, (_, str: string | undefined, close: string | undefined) => str ?? close!)) as unknown;
    } catch {
      return undefined;
    }
  }
}

function refuse(what: string, hint: string): SquadError {
  return new SquadError('invalid-format', `${SKILL_LOCK_PATH}: ${what}`, { hint, file: SKILL_LOCK_PATH });
}

/** The lock in `text` (a file's text, or undefined when there is none). Throws invalid-format for a conflict that cannot be healed. */
export function parseLock(text: string | undefined): SkillLock {
  if (text === undefined) return emptyLock();
  const sides = conflictSides(text);
  if (sides === undefined) return fromValue(text, parseLenient(text), false);
  const [ours, theirs] = sides.map(parseLenient);
  const fix = 'keep one side of each conflict and remove the markers (<<<<<<<, =======, >>>>>>>), then run the command again';
  if (!isMapping(ours) || !isMapping(theirs)) throw refuse('holds git conflict markers, and a side of the conflict is not JSON', fix);
  const mine = fromValue(text, ours, true);
  const other = fromValue(text, theirs, true);
  if (mine.problem !== undefined || other.problem !== undefined) throw refuse(`holds git conflict markers, and a side of the conflict ${mine.problem ?? other.problem}`, fix);
  const entries = { ...mine.entries };
  for (const [key, entry] of Object.entries(other.entries)) {
    if (Object.hasOwn(entries, key) && formatEntry(entries[key]!) !== formatEntry(entry)) {
      throw refuse(
        `both sides of a git conflict changed the skill ${quoted(key)}`,
        `${fix}; "create-squad skills check ${parseLockKey(key).name}" then says whether the installed skill matches`,
      );
    }
    entries[key] = entry;
  }
  return { text, entries, extra: { ...other.extra, ...mine.extra }, healed: true };
}

function fromValue(text: string, value: unknown, healed: boolean): SkillLock {
  if (!isMapping(value)) return { ...emptyLock(), text, problem: value === undefined ? 'is not valid JSON' : 'is not a JSON object' };
  const { version, skills, ...extra } = value;
  if (version !== undefined && version !== SKILL_LOCK_VERSION)
    return { ...emptyLock(), text, problem: `has version ${JSON.stringify(version)}; create-squad reads version ${SKILL_LOCK_VERSION}` };
  if (skills !== undefined && !isMapping(skills)) return { ...emptyLock(), text, problem: 'has "skills" that is not an object' };
  const entries: Record<string, Record<string, unknown>> = {};
  for (const [key, entry] of Object.entries(skills ?? {})) {
    if (!isMapping(entry)) return { ...emptyLock(), text, problem: `has an entry ${quoted(key)} that is not an object` };
    entries[key] = entry;
  }
  return { text, entries, extra, healed };
}

// ---------------------------------------------------------------- writing

function sortedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedValue);
  if (!isMapping(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort(compareCodePoints)
      .map((key) => [key, sortedValue(value[key])]),
  );
}

function orderedEntry(entry: Record<string, unknown>): Record<string, unknown> {
  const known = FIELD_ORDER.filter((field) => entry[field] !== undefined);
  const rest = Object.keys(entry)
    .filter((field) => !FIELD_ORDER.includes(field) && entry[field] !== undefined)
    .sort(compareCodePoints);
  return Object.fromEntries([...known, ...rest].map((field) => [field, sortedValue(entry[field])]));
}

function formatEntry(entry: Record<string, unknown>): string {
  return JSON.stringify(orderedEntry(entry));
}

/** The text of a lock holding `entries` (and `extra`, kept): the one form create-squad writes. */
export function formatLock(entries: Readonly<Record<string, Record<string, unknown>>>, extra: Readonly<Record<string, unknown>> = {}): string {
  const skills = Object.fromEntries(
    Object.keys(entries)
      .sort(compareCodePoints)
      .map((key) => [key, orderedEntry(entries[key]!)]),
  );
  const rest = sortedValue(extra) as Record<string, unknown>;
  return `${JSON.stringify({ version: SKILL_LOCK_VERSION, skills, ...rest }, null, 2)}\n`;
}

/** The lock's text with `changes` (key → entry, or null to drop the entry) made; undefined when the text stays as it is. */
export function lockWith(lock: SkillLock, changes: Readonly<Record<string, Record<string, unknown> | null>>): string | undefined {
  const entries = { ...lock.entries };
  for (const [key, entry] of Object.entries(changes)) {
    if (entry === null) delete entries[key];
    else entries[key] = entry;
  }
  const text = formatLock(entries, lock.extra);
  return text === lock.text ? undefined : text;
}

// ---------------------------------------------------------------- hashes

/** What a skill's files hash to: the ecosystem's folder hash, and each file's own (for naming what changed). */
export interface SkillHash {
  computedHash: string;
  files: Record<string, string>;
}

/** Whether the ecosystem's hash leaves the file out: what lies in a `.git` or `node_modules` folder. */
function leftOutOfHash(relPath: string): boolean {
  return relPath.split('/').some((part, i, parts) => i < parts.length - 1 && (part === '.git' || part === 'node_modules'));
}

// The ecosystem sorts paths with localeCompare; a fixed locale keeps the hash the same on every machine.
const collator = new Intl.Collator('en');

/**
 * The hash of a skill folder as the ecosystem computes it (SHA-256 over each file's path then its
 * bytes, in path order; regular files only, `.git` and `node_modules` folders left out), read
 * through the walk's own handles (`files` from listTree of `dir`).
 */
export function hashSkillFiles(dir: string, files: readonly TreeFile[]): SkillHash {
  const kept = files.filter((file) => !leftOutOfHash(file.path)).sort((a, b) => collator.compare(a.path, b.path));
  const whole = createHash('sha256');
  const each: Record<string, string> = {};
  for (const file of kept) {
    const one = createHash('sha256');
    whole.update(file.path);
    const fd = openWalkedFile(dir, file);
    try {
      const buffer = Buffer.alloc(64 * 1024);
      for (;;) {
        const read = fs.readSync(fd, buffer, 0, buffer.length, null);
        if (read === 0) break;
        whole.update(buffer.subarray(0, read));
        one.update(buffer.subarray(0, read));
      }
    } finally {
      fs.closeSync(fd);
    }
    each[file.path] = one.digest('hex');
  }
  return { computedHash: whole.digest('hex'), files: Object.fromEntries(Object.entries(each).sort(([a], [b]) => compareCodePoints(a, b))) };
}

/** The files of a skill whose hash differs from the recorded one: changed, added here, or gone. */
export function changedFiles(recorded: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): { changed: string[]; added: string[]; removed: string[] } {
  const changed = Object.keys(now).filter((file) => Object.hasOwn(recorded, file) && recorded[file] !== now[file]);
  const added = Object.keys(now).filter((file) => !Object.hasOwn(recorded, file));
  const removed = Object.keys(recorded).filter((file) => !Object.hasOwn(now, file));
  return { changed, added, removed };
}
