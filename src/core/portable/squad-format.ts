/**
 * The portable squad format (docs/squad-format.md): a `.squad` file is one JSON document, format "1.1".
 *
 *   { "squad_format_version": "1.1", "exported_at": ISO-8601, "exported_by": "create-squad@x.y.z",
 *     "source": { "project": "…" },
 *     "team": { "team_md", "routing_md", "ceremonies_md" },
 *     "casting": { "policy", "registry", "history" },                  (the JSON of the casting files)
 *     "agents": { "<name>": { "charter", "history": { "portable", "project" }, "skills": { "<skill>": SKILL } } },
 *     "team_skills": { "<skill>": SKILL } }
 *   SKILL = { "skill_md", "references": FILES, "scripts": FILES, "assets": FILES, "files": FILES }
 *   FILES = { "<relative/path>": "utf-8 text" | { "content", "encoding": "utf8"|"base64", "mode": "644"|"755" } }
 *
 * `references`, `scripts` and `assets` hold the files under those folders of the skill (paths
 * relative to that folder); `files` holds every other file except SKILL.md (paths relative to the
 * skill folder). A file is a plain string when it is valid UTF-8 and not executable; otherwise an
 * object: UTF-8 text as is, anything else base64, and its mode. Decoding gives back the exact bytes.
 *
 * The original Squad's export (`version: "1.0"`: `agents.{name}.charter`, `agents.{name}.history`
 * as one string, `skills` as an array of SKILL.md texts; squad-cli adds `team_md`, `routing_md` and
 * `decisions_md`) is read too, and converted to this model: its alumni folder (`agents._alumni`)
 * is no member, an agent folder that is no valid name (`Rai`, `lead architect`) gets one (the
 * name as written stays its display name), a skill with no frontmatter is given one.
 *
 * Everything is checked before anything is written: format version, types, names, paths, sizes,
 * the shape of the casting files, duplicate keys, control characters in one-line fields. The first
 * problem is thrown as a SquadFormatError naming the entry, e.g.
 *   agents.fenster.skills.api-design.references["../x"]: the path contains ".."
 */
import { isUtf8 } from 'node:buffer';
import { parseHistory, parsePolicy, parseRegistry, registryEntryProblem, type CastingRead } from '../squad/casting.js';
import { SquadError } from '../base/errors.js';
import { convertOriginalSkill } from '../squad/original/skills.js';
import { parseSkill } from '../skills/skill.js';
import { relativePathProblem } from '../fs/fs-safe.js';
import { splitHistory } from '../squad/history.js';
import { WINDOWS_DEVICE_NAME, folderNameProblem, slugify } from '../base/names.js';
import { SKILL_FILE, SKILL_RESOURCE_DIRS, squadPaths } from '../base/paths.js';
import { modeFor } from '../fs/tree.js';
import { compareCodePoints, controlCharacterProblem, formatBytes, isMapping, jsonTypeName } from '../base/util.js';

export const SQUAD_FORMAT_VERSION = '1.1';
/** The original Squad's export format, read (never written). */
export const LEGACY_FORMAT_VERSION = '1.0';
export const DEFAULT_EXPORT_FILE = 'squad-export.squad';

const MiB = 1024 * 1024;

export interface SquadLimits {
  /** Size of the .squad file itself. */
  documentBytes: number;
  /** One file once decoded: a skill file, SKILL.md, a charter, a history part, team.md. */
  fileBytes: number;
  /** All of them together, decoded. */
  totalBytes: number;
  /** How many files (every skill file, SKILL.md, charters, history parts, team files). */
  fileCount: number;
  /** JSON nesting depth (objects and arrays). A real .squad file needs about 8. */
  depth: number;
  /** Characters in one file path inside a skill. */
  pathLength: number;
  /** Bytes (UTF-8) in one segment of such a path: most file systems refuse longer names. */
  segmentBytes: number;
}

/** The limits import and export enforce (documented in the README). */
export const SQUAD_LIMITS: Readonly<SquadLimits> = Object.freeze({
  documentBytes: 128 * MiB,
  fileBytes: 8 * MiB,
  totalBytes: 64 * MiB,
  fileCount: 50_000,
  depth: 64,
  pathLength: 512,
  segmentBytes: 255,
});

export type FileMode = '644' | '755';
export type FileEncoding = 'utf8' | 'base64';
export interface FileObject {
  content: string;
  encoding: FileEncoding;
  mode: FileMode;
}
export type FileEntry = string | FileObject;
export type SquadFiles = Record<string, FileEntry>;

/** The folders of a skill that have their own bucket, plus `files` for everything else. */
export type SkillBucket = (typeof SKILL_RESOURCE_DIRS)[number] | 'files';
export const SKILL_BUCKETS: readonly SkillBucket[] = [...SKILL_RESOURCE_DIRS, 'files'];

export interface SquadSkill {
  skill_md: string;
  references: SquadFiles;
  scripts: SquadFiles;
  assets: SquadFiles;
  files: SquadFiles;
}

export interface SquadHistory {
  portable: string;
  project: string;
}

export interface SquadAgent {
  charter?: string;
  history?: SquadHistory;
  skills: Record<string, SquadSkill>;
}

/** The files of `team`, by key: where each one lives in a squad. */
export const TEAM_FILES = { team_md: squadPaths.team, routing_md: squadPaths.routing, ceremonies_md: squadPaths.ceremonies } as const;
/** The files of `casting`, by key. */
export const CASTING_FILES = { policy: squadPaths.castingPolicy, registry: squadPaths.castingRegistry, history: squadPaths.castingHistory } as const;
export type TeamFileKey = keyof typeof TEAM_FILES;
export type CastingFileKey = keyof typeof CASTING_FILES;

export type SquadTeam = Partial<Record<TeamFileKey, string>>;
export type SquadCasting = Partial<Record<CastingFileKey, Record<string, unknown>>>;

/** Key/path pairs of a files table, typed. */
export function fileTable<K extends string>(table: Readonly<Record<K, string>>): [K, string][] {
  return Object.entries(table) as [K, string][];
}

export interface SquadDocument {
  squad_format_version: typeof SQUAD_FORMAT_VERSION;
  exported_at: string;
  exported_by: string;
  source: { project: string };
  team: SquadTeam;
  casting: SquadCasting;
  agents: Record<string, SquadAgent>;
  team_skills: Record<string, SquadSkill>;
}

/**
 * What reading a Squad 1.0 file changed in its skills (`skills[i]` names the entry): names the
 * original Squad allowed but the name rules do not, normalised (`problem`: why the SKILL.md kept
 * its old `name` line), and skills whose name could not be normalised, left out.
 */
export interface LegacySkillChanges {
  renamed: { where: string; from: string; to: string; reason: string; problem?: string }[];
  skipped: { where: string; name: string; reason: string }[];
}

/** What reading a Squad 1.0 file changed or left out besides skill names. */
export interface OriginalExportChanges {
  /** Agent folders given a valid name; `from` (the folder as the file names it) stays the display name. */
  renamedAgents: { from: string; to: string }[];
  /** Entries of `agents` that are no member: the alumni folder, and other folders starting with `_` or `.`. */
  skippedAgents: { name: string; reason: string }[];
  /** Skills without frontmatter (or without a name), given one: each change in a short phrase. */
  convertedSkills: { where: string; name: string; changes: string[] }[];
  /** The squad's decisions.md, when the file has it (squad-cli's `decisions_md`). */
  decisions?: string;
}

export interface ValidatedSquad {
  /** The format the file was in; the document is always the 1.1 model. */
  format: typeof SQUAD_FORMAT_VERSION | typeof LEGACY_FORMAT_VERSION;
  document: SquadDocument;
  /** A Squad 1.0 file only. */
  legacySkills?: LegacySkillChanges;
  /** A Squad 1.0 file only. */
  original?: OriginalExportChanges;
}

/** A problem in a .squad document: `where` names the entry, `detail` says what is wrong. */
export class SquadFormatError extends SquadError {
  readonly where: string | undefined;
  readonly detail: string;

  constructor(where: string | undefined, detail: string) {
    super('INVALID_FORMAT', `invalid .squad file: ${where === undefined ? '' : `${where}: `}${detail}`, {
      hint: 'nothing was written; fix the file, or export the squad again with "create-squad export"',
    });
    this.name = 'SquadFormatError';
    this.where = where;
    this.detail = detail;
  }
}

// ---------------------------------------------------------------- reading JSON safely

/** A problem the pre-parse scan found: `where` names the entry (undefined: the document). */
export interface JsonStructureProblem {
  where: string | undefined;
  detail: string;
}

interface ScanFrame {
  /** Its key in the parent object, or its index in the parent list; undefined for the document. */
  name: string | number | undefined;
  /** The keys seen so far (objects only). */
  keys: Set<string> | undefined;
  /** The index of the current item (lists only). */
  index: number;
}

function framePath(frames: readonly ScanFrame[]): string {
  let where = '';
  for (const frame of frames) if (frame.name !== undefined) where = entryPath(where, frame.name);
  return where;
}

/**
 * What JSON.parse would not say about `text`: nesting deeper than `maxDepth` (JSON.parse can
 * overflow the stack on pathological nesting), or a key that appears twice in one object
 * (JSON.parse silently keeps the last one). A linear scan that jumps over strings; undefined when
 * neither is found. Malformed JSON is left for JSON.parse to report.
 */
export function jsonStructureProblem(text: string, maxDepth: number): JsonStructureProblem | undefined {
  const frames: ScanFrame[] = [];
  let expectKey = false;
  let lastKey: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: one not preceded by an odd number of backslashes.
      let from = i + 1;
      let quote: number;
      for (;;) {
        quote = text.indexOf('"', from);
        if (quote === -1) return undefined; // unterminated string: JSON.parse reports it
        let backslashes = 0;
        for (let k = quote - 1; k > i && text.charCodeAt(k) === 0x5c; k -= 1) backslashes += 1;
        if (backslashes % 2 === 0) break;
        from = quote + 1;
      }
      const top = frames[frames.length - 1];
      if (expectKey && top?.keys) {
        let key = text.slice(i + 1, quote);
        if (key.includes('\\')) {
          try {
            key = JSON.parse(text.slice(i, quote + 1)) as string;
          } catch {
            return undefined; // a bad escape: JSON.parse reports it
          }
        }
        if (top.keys.has(key)) {
          return { where: framePath(frames) || undefined, detail: `the key ${oneLine(JSON.stringify(key), 80)} appears twice (each entry must be named once)` };
        }
        top.keys.add(key);
        lastKey = key;
        expectKey = false;
      }
      i = quote;
    } else if (c === 0x7b || c === 0x5b) {
      if (frames.length >= maxDepth) return { where: undefined, detail: `the JSON nests deeper than ${maxDepth} levels (at character ${i + 1})` };
      const top = frames[frames.length - 1];
      const name = top === undefined ? undefined : top.keys ? lastKey : top.index;
      frames.push({ name, keys: c === 0x7b ? new Set() : undefined, index: 0 });
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      const top = frames[frames.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index += 1;
    }
  }
  return undefined;
}

function oneLine(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Parse JSON text with the nesting limit. Throws SquadFormatError (not JSON, truncated, too deep, a key twice). */
export function parseJsonText(text: string, maxDepth: number = SQUAD_LIMITS.depth): unknown {
  const structure = jsonStructureProblem(text, maxDepth);
  if (structure) throw new SquadFormatError(structure.where, structure.detail);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (error instanceof RangeError) throw new SquadFormatError(undefined, `the JSON nests too deeply to read (${oneLine(error.message)})`);
    const message = error instanceof Error ? error.message : String(error);
    // Cut short: the parser ran into the end of the text (V8 says so, or reports that position).
    const position = /at position (\d+)/.exec(message)?.[1];
    const truncated = /end of (JSON )?input/i.test(message) || (position !== undefined && Number(position) >= text.trimEnd().length);
    throw new SquadFormatError(undefined, `not valid JSON${truncated ? ', or cut short' : ''} (${oneLine(message)})`);
  }
}

/** Decode the bytes of a .squad file: UTF-8 (a BOM is allowed), within the size limit. */
export function squadText(data: Uint8Array, limits: SquadLimits = SQUAD_LIMITS): string {
  if (data.length > limits.documentBytes) {
    throw new SquadFormatError(undefined, `the file is ${formatBytes(data.length)}; the limit is ${formatBytes(limits.documentBytes)}`);
  }
  if (!isUtf8(data)) throw new SquadFormatError(undefined, 'not UTF-8 text (a .squad file is JSON)');
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}


// ---------------------------------------------------------------- files of a skill

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

export { controlCharacterProblem };

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

// ---------------------------------------------------------------- renaming a skill

/**
 * SKILL.md text with its frontmatter `name` set to `name`; every other byte (BOM, line endings,
 * other fields) kept. Undefined when the text has no frontmatter to change.
 */
export function withSkillName(text: string, name: string): string | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const lines = text.slice(bom.length).split('\n');
  const delimiter = /^---[ \t]*\r?$/;
  if (!delimiter.test(lines[0] ?? '')) return undefined;
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i]!;
    const eol = line.endsWith('\r') ? '\r' : '';
    if (delimiter.test(line)) {
      lines.splice(1, 0, `name: ${name}${eol}`);
      return bom + lines.join('\n');
    }
    if (!/^(?:name|"name"|'name')[ \t]*:/.test(line)) continue;
    lines[i] = `name: ${name}${eol}`;
    // A value continued on indented lines (a block scalar, a folded string) goes with it.
    let end = i + 1;
    while (end < lines.length && /^[ \t]+\S/.test(lines[end]!)) end += 1;
    lines.splice(i + 1, end - i - 1);
    return bom + lines.join('\n');
  }
  return undefined;
}

/**
 * A SKILL.md renamed to `name` (withSkillName), checked to read back with that name; or why it
 * cannot be: no frontmatter, a frontmatter that cannot be read, or one written in a form the
 * rewrite cannot handle (a flow mapping `{name: …}`).
 */
export function renameSkillText(text: string, name: string): { text: string } | { problem: string } {
  const renamed = withSkillName(text, name);
  if (renamed === undefined) return { problem: 'its SKILL.md has no frontmatter' };
  const nameIn = (skillMd: string): unknown => parseSkill(skillMd).frontmatter.name;
  try {
    if (nameIn(renamed) === name) return { text: renamed };
  } catch {
    // said below: the original's own problem, or the rewrite's
  }
  try {
    nameIn(text);
  } catch (error) {
    return { problem: `its frontmatter cannot be read (${error instanceof SquadError ? error.message : String(error)})` };
  }
  return { problem: 'its frontmatter is written in a form create-squad cannot rewrite' };
}

// ---------------------------------------------------------------- canonical JSON

/**
 * JSON with every object's keys sorted by code point (also integer-like keys, which a plain
 * JSON.stringify would put first), two-space indent: the same squad always gives the same text.
 * Objects in `verbatim` (and everything inside them) keep their own key order.
 */
export function canonicalJson(value: unknown, verbatim: ReadonlySet<object> = new Set()): string {
  const out: string[] = [];
  const write = (current: unknown, pad: string, keepOrder = false): void => {
    if (current === null || typeof current !== 'object') {
      out.push(JSON.stringify(current) ?? 'null');
      return;
    }
    const inner = `${pad}  `;
    if (Array.isArray(current)) {
      if (current.length === 0) {
        out.push('[]');
        return;
      }
      out.push('[\n');
      current.forEach((item, index) => {
        out.push(inner);
        write(item, inner, keepOrder);
        out.push(index < current.length - 1 ? ',\n' : '\n');
      });
      out.push(`${pad}]`);
      return;
    }
    const record = current as Record<string, unknown>;
    const ordered = keepOrder || verbatim.has(record);
    const keys = Object.keys(record).filter((key) => record[key] !== undefined);
    if (!ordered) keys.sort(compareCodePoints);
    if (keys.length === 0) {
      out.push('{}');
      return;
    }
    out.push('{\n');
    keys.forEach((key, index) => {
      out.push(inner, JSON.stringify(key), ': ');
      write(record[key], inner, ordered);
      out.push(index < keys.length - 1 ? ',\n' : '\n');
    });
    out.push(`${pad}}`);
  };
  write(value, '');
  return out.join('');
}

/**
 * The text of a .squad file: keys sorted, except inside the casting files, which keep their own
 * key order (import writes them back as JSON with a two-space indent).
 */
export function serializeSquad(document: SquadDocument): string {
  const casting = [document.casting.policy, document.casting.registry, document.casting.history].filter((value): value is Record<string, unknown> => value !== undefined);
  return `${canonicalJson(document, new Set(casting))}\n`;
}

// ---------------------------------------------------------------- validation

/** How an entry is named in messages: `.name` for plain names, `["…"]` for anything else. */
export function entryPath(base: string, key: string | number, bracket = false): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (!bracket && /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/.test(key)) return base ? `${base}.${key}` : key;
  const shown = key.length > 80 ? `${key.slice(0, 79)}…` : key;
  return `${base}[${JSON.stringify(shown)}]`;
}

/** Running totals while a document is checked. */
class Budget {
  files = 0;
  bytes = 0;
  constructor(readonly limits: SquadLimits) {}

  add(where: string, bytes: number): void {
    if (bytes > this.limits.fileBytes) {
      throw new SquadFormatError(where, `the file is ${formatBytes(bytes)}; the limit is ${formatBytes(this.limits.fileBytes)} per file`);
    }
    this.files += 1;
    this.bytes += bytes;
    if (this.files > this.limits.fileCount) throw new SquadFormatError(where, `the squad has more than ${this.limits.fileCount} files, the limit`);
    if (this.bytes > this.limits.totalBytes) {
      throw new SquadFormatError(where, `the files add up to more than ${formatBytes(this.limits.totalBytes)}, the limit for a whole squad`);
    }
  }
}

function mapping(value: unknown, where: string): Record<string, unknown> {
  if (!isMapping(value)) throw new SquadFormatError(where, `must be an object, not ${jsonTypeName(value)}`);
  return value;
}

/** An optional object: absent or null means "none". */
function optionalMapping(value: unknown, where: string): Record<string, unknown> | undefined {
  return value === undefined || value === null ? undefined : mapping(value, where);
}

function text(value: unknown, where: string, budget: Budget): string {
  if (typeof value !== 'string') throw new SquadFormatError(where, `must be a string, not ${jsonTypeName(value)}`);
  budget.add(where, Buffer.byteLength(value));
  return value;
}

function optionalText(value: unknown, where: string, budget: Budget): string | undefined {
  return value === undefined || value === null ? undefined : text(value, where, budget);
}

/** A one-line field (the project, a date, a version): a string without control characters. */
function plainString(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new SquadFormatError(where, `must be a string, not ${jsonTypeName(value)}`);
  if (value.length > 1000) throw new SquadFormatError(where, 'is longer than 1000 characters');
  const control = controlCharacterProblem(value);
  if (control) throw new SquadFormatError(where, control);
  return value;
}

function checkNames(names: readonly string[], where: string, what: string): void {
  for (const name of names) {
    const problem = folderNameProblem(name, what);
    if (problem) throw new SquadFormatError(entryPath(where, name), problem);
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const FILE_OBJECT_KEYS = ['content', 'encoding', 'mode'];

function checkFileEntry(value: unknown, where: string, budget: Budget): FileEntry {
  if (typeof value === 'string') {
    budget.add(where, Buffer.byteLength(value));
    return value;
  }
  if (!isMapping(value)) throw new SquadFormatError(where, `must be a text string or an object {content, encoding, mode}, not ${jsonTypeName(value)}`);
  for (const key of Object.keys(value)) {
    if (!FILE_OBJECT_KEYS.includes(key)) throw new SquadFormatError(where, `unexpected field "${oneLine(key, 40)}" (a file has content, encoding and mode)`);
  }
  const { content, encoding = 'utf8', mode = '644' } = value;
  if (typeof content !== 'string') throw new SquadFormatError(entryPath(where, 'content'), `must be a string, not ${jsonTypeName(content)}`);
  if (encoding !== 'utf8' && encoding !== 'base64') throw new SquadFormatError(entryPath(where, 'encoding'), 'must be "utf8" or "base64"');
  if (mode !== '644' && mode !== '755') throw new SquadFormatError(entryPath(where, 'mode'), 'must be "644" or "755"');
  if (encoding === 'base64') {
    if (content.length % 4 !== 0 || !BASE64.test(content)) throw new SquadFormatError(entryPath(where, 'content'), 'is not valid base64');
    const padding = content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0;
    budget.add(where, (content.length / 4) * 3 - padding);
  } else {
    budget.add(where, Buffer.byteLength(content));
  }
  return { content, encoding, mode };
}

function checkSkill(value: unknown, where: string, budget: Budget): SquadSkill {
  const raw = mapping(value, where);
  const skill: SquadSkill = {
    skill_md: text(raw.skill_md, entryPath(where, 'skill_md'), budget),
    references: {},
    scripts: {},
    assets: {},
    files: {},
  };
  // Full skill-relative paths, normalised: each file once, no file where a folder must be.
  const taken = new Map<string, string>([[normalizedKey(SKILL_FILE), entryPath(where, 'skill_md')]]);
  const entries: { key: string; where: string }[] = [];
  for (const bucket of SKILL_BUCKETS) {
    const bucketWhere = entryPath(where, bucket);
    const files = optionalMapping(raw[bucket], bucketWhere);
    if (!files) continue;
    const checked: [string, FileEntry][] = [];
    for (const [relPath, entry] of Object.entries(files)) {
      const fileWhere = entryPath(bucketWhere, relPath, true);
      const problem = squadPathProblem(relPath, budget.limits);
      if (problem) throw new SquadFormatError(fileWhere, problem);
      const key = normalizedKey(skillFilePath(bucket, relPath));
      const other = taken.get(key);
      if (other !== undefined) throw new SquadFormatError(fileWhere, `the same file as ${other} once case and Unicode normalisation are ignored`);
      taken.set(key, fileWhere);
      entries.push({ key, where: fileWhere });
      checked.push([relPath, checkFileEntry(entry, fileWhere, budget)]);
    }
    // Own data properties only: a path such as "__proto__" stays a file name.
    skill[bucket] = Object.fromEntries(checked);
  }
  for (const { key, where: fileWhere } of entries) {
    const segments = key.split('/');
    for (let i = 1; i < segments.length; i += 1) {
      const folder = taken.get(segments.slice(0, i).join('/'));
      if (folder !== undefined) throw new SquadFormatError(fileWhere, `its folder "${segments.slice(0, i).join('/')}" is also a file (${folder})`);
    }
  }
  return skill;
}

function checkSkills(value: unknown, where: string, budget: Budget): Record<string, SquadSkill> {
  const raw = optionalMapping(value, where);
  if (!raw) return {};
  const names = Object.keys(raw);
  checkNames(names, where, 'skill name');
  return Object.fromEntries(names.map((name) => [name, checkSkill(raw[name], entryPath(where, name), budget)]));
}

/** The casting readers, in create-squad's shapes or the original Squad's (a squad adopted from it keeps its files). */
const CASTING_READERS: Record<CastingFileKey, (text: string) => CastingRead<unknown>> = {
  policy: (text) => parsePolicy(text, { legacy: true }),
  registry: (text) => parseRegistry(text, { legacy: true }),
  history: (text) => parseHistory(text, { legacy: true }),
};

/** The first string (key or value) in `value` with a control character: where it is, and what. */
function controlCharacterIn(value: unknown, where: string): JsonStructureProblem | undefined {
  if (typeof value === 'string') {
    const detail = controlCharacterProblem(value);
    return detail ? { where, detail } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = controlCharacterIn(value[i], entryPath(where, i));
      if (found) return found;
    }
  } else if (isMapping(value)) {
    for (const [key, item] of Object.entries(value)) {
      const detail = controlCharacterProblem(key);
      if (detail) return { where: entryPath(where, key, true), detail: `its key ${detail}` };
      const found = controlCharacterIn(item, entryPath(where, key));
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Why a casting file (its parsed JSON) would break the squad it is imported into, or undefined:
 * a shape create-squad reads (its own `universe`, `members`, `events`, or the original Squad's
 * `allowlist_universes`, `agents`, `universe_usage_history`), and no control character in any of
 * its strings (names, roles and universes are shown on one line).
 */
export function castingFileProblem(key: CastingFileKey, value: Record<string, unknown>, where: string = entryPath('casting', key)): JsonStructureProblem | undefined {
  const read = CASTING_READERS[key](JSON.stringify(value));
  if (read.state === 'invalid') return { where, detail: `not a valid casting ${key}: ${read.reason}` };
  return (key === 'registry' ? registryMembersProblem(value, where) : undefined) ?? controlCharacterIn(value, where);
}

/** The first entry of a registry's `members` list that commands would skip (see registryEntryProblem). */
function registryMembersProblem(registry: Record<string, unknown>, where: string): JsonStructureProblem | undefined {
  const members = registry.members;
  if (!Array.isArray(members)) return undefined;
  for (let i = 0; i < members.length; i += 1) {
    const problem = registryEntryProblem(members[i]);
    if (problem) return { where: entryPath(entryPath(where, 'members'), i), detail: `not a registry member create-squad can use: ${problem}` };
  }
  return undefined;
}

/**
 * The casting files. Format 1.1 files must have a shape create-squad reads (castingFileProblem).
 * A Squad 1.0 export carries whatever its casting files held, written back as they are: only
 * objects without control characters are required there, and a registry `members` list (if any)
 * of entries create-squad can use.
 */
function checkCasting(value: unknown, budget: Budget, legacy: boolean): SquadCasting {
  const raw = optionalMapping(value, 'casting');
  const casting: SquadCasting = {};
  if (!raw) return casting;
  for (const [key] of fileTable(CASTING_FILES)) {
    const where = entryPath('casting', key);
    const file = optionalMapping(raw[key], where);
    if (!file) continue;
    const members = legacy && key === 'registry' ? registryMembersProblem(file, where) : undefined;
    const problem = members ?? (legacy ? controlCharacterIn(file, where) : castingFileProblem(key, file, where));
    if (problem) throw new SquadFormatError(problem.where, problem.detail);
    budget.add(where, Buffer.byteLength(JSON.stringify(file)));
    casting[key] = file;
  }
  return casting;
}

/** The `agents` object: names checked, then each agent's charter and what `rest` reads. */
function checkAgents(
  value: unknown,
  budget: Budget,
  rest: (raw: Record<string, unknown>, where: string) => Omit<SquadAgent, 'charter'>,
): Record<string, SquadAgent> {
  const agentsRaw = mapping(value, 'agents');
  const names = Object.keys(agentsRaw);
  checkNames(names, 'agents', 'agent name');
  return Object.fromEntries(
    names.map((name) => {
      const where = entryPath('agents', name);
      const raw = mapping(agentsRaw[name], where);
      const charter = optionalText(raw.charter, entryPath(where, 'charter'), budget);
      return [name, { ...(charter === undefined ? {} : { charter }), ...rest(raw, where) }];
    }),
  );
}

function checkVersion11(root: Record<string, unknown>, budget: Budget): SquadDocument {
  const team = optionalMapping(root.team, 'team') ?? {};
  const source = optionalMapping(root.source, 'source') ?? {};
  const agents = checkAgents(root.agents, budget, (raw, where) => {
    const historyWhere = entryPath(where, 'history');
    const historyRaw = optionalMapping(raw.history, historyWhere);
    const history = historyRaw && {
      portable: optionalText(historyRaw.portable, entryPath(historyWhere, 'portable'), budget) ?? '',
      project: optionalText(historyRaw.project, entryPath(historyWhere, 'project'), budget) ?? '',
    };
    return { ...(history === undefined ? {} : { history }), skills: checkSkills(raw.skills, entryPath(where, 'skills'), budget) };
  });
  const teamFiles: SquadTeam = {};
  for (const [key] of fileTable(TEAM_FILES)) {
    const value = optionalText(team[key], entryPath('team', key), budget);
    if (value !== undefined) teamFiles[key] = value;
  }
  return {
    squad_format_version: SQUAD_FORMAT_VERSION,
    exported_at: plainString(root.exported_at, 'exported_at') ?? '',
    exported_by: plainString(root.exported_by, 'exported_by') ?? '',
    source: { project: plainString(source.project, 'source.project') ?? '' },
    team: teamFiles,
    casting: checkCasting(root.casting, budget, false),
    agents,
    team_skills: checkSkills(root.team_skills, 'team_skills', budget),
  };
}

/**
 * The `skills` list of a Squad 1.0 file: SKILL.md texts named by their frontmatter. The original
 * Squad did not check names: one that breaks the name rules is normalised with slugify (its
 * frontmatter `name` rewritten), and one that cannot be (nothing left, a Windows device name, the
 * name of another skill in the file) is left out; both are reported. A skill without frontmatter (or
 * without a name) is given one from its title (convertOriginalSkill), and reported. Two skills with
 * the same name, and a SKILL.md that cannot be read any of these ways, are refused.
 */
function checkLegacySkills(value: unknown, budget: Budget, converted: OriginalExportChanges['convertedSkills']): { skills: Record<string, SquadSkill>; changes: LegacySkillChanges } {
  if (value !== undefined && value !== null && !Array.isArray(value)) {
    throw new SquadFormatError('skills', `must be a list of SKILL.md texts, not ${jsonTypeName(value)}`);
  }
  const read = ((value ?? []) as unknown[]).map((item, index) => {
    const where = entryPath('skills', index);
    let skillMd = text(item, where, budget);
    let name: unknown;
    let failure: string | undefined;
    try {
      name = parseSkill(skillMd).frontmatter.name;
    } catch (error) {
      failure = `the SKILL.md cannot be read: ${error instanceof SquadError ? error.message : String(error)}`;
    }
    if (typeof name !== 'string') {
      const conversion = convertOriginalSkill(skillMd);
      if (conversion === undefined) throw new SquadFormatError(where, failure ?? 'the SKILL.md has no "name" in its frontmatter');
      skillMd = conversion.text;
      name = conversion.name;
      converted.push({ where, name: conversion.name, changes: conversion.changes });
    }
    return { where, skillMd, name: name as string, problem: folderNameProblem(name as string, 'skill name') };
  });
  // Valid names first: a normalised name never takes one that a skill has as it is.
  const seen = new Map<string, string>();
  for (const { where, name, problem } of read) {
    if (problem) continue;
    const first = seen.get(name);
    if (first !== undefined) throw new SquadFormatError(where, `duplicate skill name "${name}" (also ${first})`);
    seen.set(name, where);
  }
  const changes: LegacySkillChanges = { renamed: [], skipped: [] };
  const skills: [string, SquadSkill][] = [];
  for (const { where, skillMd, name, problem } of read) {
    let key = name;
    let content = skillMd;
    if (problem) {
      key = slugify(name);
      const other = seen.get(key);
      const why = key === '' ? 'it has no letter or digit to keep' : (folderNameProblem(key, 'its normalised name') ?? (other === undefined ? undefined : `"${key}" is the name of another skill in the file (${other})`));
      if (why !== undefined) {
        changes.skipped.push({ where, name, reason: `${problem} and cannot be normalised: ${why}` });
        continue;
      }
      seen.set(key, where);
      const renamed = renameSkillText(skillMd, key);
      if ('text' in renamed) content = renamed.text;
      const reason = `${problem} (the original Squad did not check skill names)`;
      changes.renamed.push({ where, from: name, to: key, reason, ...('problem' in renamed ? { problem: renamed.problem } : {}) });
    }
    skills.push([key, { skill_md: content, references: {}, scripts: {}, assets: {}, files: {} }]);
  }
  return { skills: Object.fromEntries(skills), changes };
}

/** The folder under which the original Squad keeps retired members' folders (`agents/_alumni/`). */
const ORIGINAL_ALUMNI_KEY = '_alumni';

/**
 * The `agents` object of a Squad 1.0 file with member folders only, each under a valid name: the
 * alumni folder and other `_`/`.` folders left out (reported), a folder such as `Rai` or `lead
 * architect` renamed with slugify (reported; two that become one name, or one that becomes none,
 * are refused).
 */
function legacyAgentFolders(value: unknown, changes: OriginalExportChanges): Record<string, unknown> {
  const raw = mapping(value, 'agents');
  const folders: [string, unknown][] = [];
  const taken = new Map<string, string>();
  for (const key of Object.keys(raw)) if (folderNameProblem(key) === undefined) taken.set(key, key);
  for (const [key, agent] of Object.entries(raw)) {
    if (key.startsWith('_') || key.startsWith('.')) {
      changes.skippedAgents.push({ name: key, reason: skippedFolderReason(key, agent) });
      continue;
    }
    if (folderNameProblem(key) === undefined) {
      folders.push([key, agent]);
      continue;
    }
    const folder = slugify(key);
    const other = taken.get(folder);
    const problem =
      folder === ''
        ? 'it has no letter or digit to make a folder name from'
        : (folderNameProblem(folder, 'its folder name') ?? (other === undefined ? undefined : `its folder name "${folder}" is also the folder of ${entryPath('agents', other)}`));
    if (problem !== undefined) throw new SquadFormatError(entryPath('agents', key), `agent name ${JSON.stringify(oneLine(key, 80))} cannot be used: ${problem}`);
    taken.set(folder, key);
    changes.renamedAgents.push({ from: key, to: folder });
    folders.push([folder, agent]);
  }
  return Object.fromEntries(folders);
}

function skippedFolderReason(key: string, agent: unknown): string {
  const empty = isMapping(agent) && Object.keys(agent).length === 0;
  if (key === ORIGINAL_ALUMNI_KEY) {
    return `the original Squad's folder of retired members: they stay retired (the casting registry says who they are)${empty ? '' : '; what the file holds for it is not imported'}`;
  }
  return `a folder starting with "${key[0]}" is no member${empty ? '' : '; it is not imported'}`;
}

/** The first of `keys` that `root` holds (squad-cli writes both `team_md` and `team`), as text. */
function legacyDocument(root: Record<string, unknown>, keys: readonly string[], budget: Budget): string | undefined {
  const key = keys.find((candidate) => root[candidate] !== undefined && root[candidate] !== null);
  return key === undefined ? undefined : text(root[key], key, budget);
}

/** squad-cli's team documents, by the key they take in the 1.1 model. */
const LEGACY_DOCUMENTS: readonly [TeamFileKey, readonly string[]][] = [
  ['team_md', ['team_md', 'team']],
  ['routing_md', ['routing_md', 'routing']],
  ['ceremonies_md', ['ceremonies_md', 'ceremonies']],
];

/** The original Squad's export, as the 1.1 model, and what reading its agents and skills changed. */
function checkLegacy(root: Record<string, unknown>, budget: Budget, sourceName: string): ValidatedSquad {
  const original: OriginalExportChanges = { renamedAgents: [], skippedAgents: [], convertedSkills: [] };
  const agents = checkAgents(legacyAgentFolders(root.agents, original), budget, (raw, where) => {
    const history = optionalText(raw.history, entryPath(where, 'history'), budget);
    return { ...(history === undefined ? {} : { history: splitHistory(history) }), skills: {} };
  });
  const { skills, changes } = checkLegacySkills(root.skills, budget, original.convertedSkills);
  const version = plainString(root.squad_version, 'squad_version');
  const team: SquadTeam = {};
  for (const [key, names] of LEGACY_DOCUMENTS) {
    const found = legacyDocument(root, names, budget);
    if (found !== undefined) team[key] = found;
  }
  const decisions = legacyDocument(root, ['decisions_md', 'decisions'], budget);
  if (decisions !== undefined) original.decisions = decisions;
  const document: SquadDocument = {
    squad_format_version: SQUAD_FORMAT_VERSION,
    exported_at: plainString(root.exported_at, 'exported_at') ?? '',
    exported_by: version === undefined ? 'squad' : `squad@${version}`,
    source: { project: sourceName },
    team,
    casting: checkCasting(root.casting, budget, true),
    agents,
    team_skills: skills,
  };
  return { format: LEGACY_FORMAT_VERSION, document, legacySkills: changes, original };
}

export interface ValidateOptions {
  limits?: SquadLimits;
  /** The source project to record for a 1.0 file (which does not name it): usually the file's name. */
  sourceName?: string;
}

/**
 * Check a parsed .squad document completely and return it as the 1.1 model. Throws
 * SquadFormatError naming the first offending entry. Pure: no I/O.
 */
export function validateSquadDocument(value: unknown, options: ValidateOptions = {}): ValidatedSquad {
  const budget = new Budget(options.limits ?? SQUAD_LIMITS);
  if (!isMapping(value)) throw new SquadFormatError(undefined, `the document must be a JSON object, not ${jsonTypeName(value)}`);
  const version = value.squad_format_version;
  if (version !== undefined) {
    if (version !== SQUAD_FORMAT_VERSION) {
      throw new SquadFormatError(
        'squad_format_version',
        `unknown format version ${oneLine(JSON.stringify(version) ?? String(version), 40)} (this create-squad reads "${SQUAD_FORMAT_VERSION}" and Squad "${LEGACY_FORMAT_VERSION}" exports)`,
      );
    }
    return { format: SQUAD_FORMAT_VERSION, document: checkVersion11(value, budget) };
  }
  if (value.version === LEGACY_FORMAT_VERSION) return checkLegacy(value, budget, options.sourceName ?? '');
  if (value.version !== undefined) {
    throw new SquadFormatError('version', `unknown format version ${oneLine(JSON.stringify(value.version) ?? '', 40)} (expected squad_format_version "${SQUAD_FORMAT_VERSION}", or a Squad "${LEGACY_FORMAT_VERSION}" export)`);
  }
  throw new SquadFormatError(undefined, `no format version (expected "squad_format_version": "${SQUAD_FORMAT_VERSION}")`);
}

/** Bytes → validated document: the whole reading side of import, without touching the disk. */
export function readSquadDocument(data: Uint8Array, options: ValidateOptions = {}): ValidatedSquad {
  const limits = options.limits ?? SQUAD_LIMITS;
  return validateSquadDocument(parseJsonText(squadText(data, limits), limits.depth), options);
}
