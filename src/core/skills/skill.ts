/**
 * Reading SKILL.md files: the whole file (`parseSkill`) or only its frontmatter
 * (`readSkillFrontmatter`), plus typed accessors for the fields create-squad uses.
 */
import fs from 'node:fs';
import { openConfined, type ReadConfinement } from '../fs/confined.js';
import {
  FAST_PATH,
  FRONTMATTER_MAX_BYTES,
  FrontmatterError,
  checkedFrontmatterYaml,
  locateFrontmatter,
  normalizeNewlines,
  parseFrontmatterYaml,
  splitFrontmatter,
} from './frontmatter.js';
import { skillFields, type McpServerRequirement } from './skill-fields.js';
import { PlainSkillHead, plainSkillHead } from './plain-head.js';

export type Frontmatter = Record<string, unknown>;

export interface ParsedSkill {
  frontmatter: Frontmatter;
  body: string;
  /** 1-based line of the file where the body starts. */
  bodyLine: number;
}

/** Parse a whole SKILL.md text. Throws FrontmatterError (a SquadError) naming `file` and line. */
export function parseSkill(text: string, file?: string): ParsedSkill {
  const split = splitFrontmatter(text, file);
  return {
    frontmatter: parseFrontmatterYaml(split.yaml, file),
    body: split.body,
    bodyLine: split.bodyLine,
  };
}

export interface SkillHead {
  frontmatter: Frontmatter;
  /** How many bytes of the file were read to find the frontmatter. */
  bytesRead: number;
}

/** Most frontmatter fits in the first read; each further read doubles the amount read so far. */
const FIRST_READ = 1024;
const READ_LIMIT = FRONTMATTER_MAX_BYTES + 4096;
/** One buffer reused by every read: listing a thousand skills allocates nothing per file. */
let readBuffer: Buffer | undefined;

/**
 * Read a SKILL.md only as far as the closing `---`: the body is never read, so listing a skill
 * with a 50 MB body costs the same as listing a small one. Frontmatter over FRONTMATTER_MAX_BYTES
 * is refused.
 *
 * One open and, for most skills, one read of the first kilobyte: no separate stat. The reads are
 * positional, which a FIFO refuses (ESPIPE) and a folder too (EISDIR); a device such as /dev/zero
 * or /dev/null reads as no frontmatter, and only then (on any failure) is the file's kind checked,
 * so a FIFO, a device or a folder is still reported as not a regular file.
 */
export function readSkillFrontmatter(file: string, confinedTo?: ReadConfinement): SkillHead {
  return readHead(file, undefined, confinedTo) as SkillHead;
}

/**
 * readSkillFrontmatter for a listing of the skill in folder `dirName`: its PlainSkillHead, read
 * from the bytes, when the frontmatter is plain (plain-head.ts); else its parsed frontmatter.
 */
export function readSkillHead(file: string, dirName: string, confinedTo?: ReadConfinement): SkillHead | PlainSkillHead {
  return readHead(file, dirName, confinedTo);
}

/**
 * Open a SKILL.md for reading. The open does not block: a FIFO without a writer would otherwise
 * stop a whole listing. With `confinedTo` (a skill of the repository, whose text may reach a prompt
 * or a listing) only a file really inside it is opened (confined.ts openConfined).
 */
function openSkillFile(file: string, confinedTo: ReadConfinement | undefined): number {
  return confinedTo === undefined ? fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0)) : openConfined(file, confinedTo);
}

function readHead(file: string, plainFor: string | undefined, confinedTo: ReadConfinement | undefined): SkillHead | PlainSkillHead {
  readBuffer ??= Buffer.allocUnsafe(READ_LIMIT);
  const buffer = readBuffer;
  const fd = openSkillFile(file, confinedTo);
  try {
    let total = 0;
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(fd, buffer, total, Math.min(Math.max(FIRST_READ, total), READ_LIMIT - total), total);
      } catch (error) {
        requireRegularFile(fd, file);
        throw error;
      }
      const eof = n === 0;
      total += n;
      const head = closedHead(buffer, total, file, plainFor);
      if (head instanceof PlainSkillHead) return head;
      if (head !== undefined) return { frontmatter: head, bytesRead: total };
      // Multi-byte UTF-8 never contains "\n" or "-", so a chunk boundary inside a character can
      // only garble the unterminated last line, which locateFrontmatter ignores until complete.
      const text = normalizeNewlines(buffer.toString('utf8', 0, total));
      const location = locateFrontmatter(text, eof);
      if (location.state === 'closed') {
        return { frontmatter: parseFrontmatterYaml(checkedFrontmatterYaml(location.yaml, file), file), bytesRead: total };
      }
      requireRegularFile(fd, file);
      if (location.state === 'missing') {
        throw new FrontmatterError('frontmatter-missing', 'no YAML frontmatter (the file must start with "---")', file, 1);
      }
      if (eof) {
        throw new FrontmatterError('frontmatter-unclosed', 'frontmatter is not closed with "---"', file, 1);
      }
      if (total >= READ_LIMIT) {
        throw new FrontmatterError('frontmatter-too-large', `frontmatter is not closed within ${FRONTMATTER_MAX_BYTES / 1024} KB`, file, 1);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

const DELIMITER_START = Buffer.from('\n---');
const BARE_DELIMITER = Buffer.from('---\n');

function startsWithBareDelimiter(read: Buffer): boolean {
  return read.length >= BARE_DELIMITER.length && read[0] === 45 && read[1] === 45 && read[2] === 45 && read[3] === 10;
}

/**
 * The common case, decoded no further than it must be: the text up to the end of the first line
 * after the opening that starts with "---". When that line closes the frontmatter, its parsed YAML;
 * otherwise undefined, and the caller reads the whole prefix. Only the frontmatter becomes a
 * string, so what a skill keeps (its description is a piece of that string) is not the body's
 * first kilobyte as well. A "\n" byte is never inside a multi-byte character.
 */
function closedHead(buffer: Buffer, total: number, file: string, plainFor: string | undefined): Frontmatter | PlainSkillHead | undefined {
  // Only the bytes read for this file: the rest of the shared buffer is left from an earlier one.
  const read = buffer.subarray(0, total);
  const at = read.indexOf(DELIMITER_START);
  if (at === -1) return undefined;
  const lineEnd = read.indexOf(10, at + DELIMITER_START.length);
  if (lineEnd === -1) return undefined;
  // The usual file: "---" alone on the first and on the closing line, no BOM, no CR. The YAML is
  // then the bytes between those lines (no line before the closing one starts with "---", or
  // indexOf would have found it), decoded once, with no line-by-line search.
  if (lineEnd === at + DELIMITER_START.length && startsWithBareDelimiter(read) && read.lastIndexOf(13, lineEnd) === -1) {
    if (at + 1 - BARE_DELIMITER.length > FRONTMATTER_MAX_BYTES) return undefined;
    const plain = plainFor === undefined || !FAST_PATH ? undefined : plainSkillHead(buffer, BARE_DELIMITER.length, at + 1, plainFor);
    return plain ?? parseFrontmatterYaml(buffer.toString('utf8', BARE_DELIMITER.length, at + 1), file);
  }
  const location = locateFrontmatter(normalizeNewlines(buffer.toString('utf8', 0, lineEnd + 1)), false);
  if (location.state !== 'closed') return undefined;
  return parseFrontmatterYaml(checkedFrontmatterYaml(location.yaml, file), file);
}

/** Read and parse a whole SKILL.md from disk (only from inside `confinedTo`'s repository when given: see openSkillFile). */
export function readSkillFile(file: string, confinedTo?: ReadConfinement): ParsedSkill {
  const fd = openSkillFile(file, confinedTo);
  try {
    requireRegularFile(fd, file);
    return parseSkill(fs.readFileSync(fd, 'utf8'), file);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Refuse anything but a regular file behind `fd` (a FIFO, a device such as /dev/zero, a folder),
 * even behind a symlink.
 */
function requireRegularFile(fd: number, file: string): void {
  if (!fs.fstatSync(fd).isFile()) {
    throw new FrontmatterError('not-a-file', 'not a regular file (a FIFO, a device or a folder)', file);
  }
}

// Typed field accessors for the library API: each one reads the one typed value (skill-fields.ts).
export type { McpServerRequirement } from './skill-fields.js';

export function skillMetadata(frontmatter: Frontmatter): Record<string, unknown> {
  return skillFields(frontmatter).metadata;
}

/** `metadata.version`, accepting the common unquoted number form (see isVersionUnquoted). */
export function skillVersion(frontmatter: Frontmatter): string | undefined {
  return skillFields(frontmatter).version;
}

/** True when `metadata.version` was written unquoted: YAML made it a number, which may not read as written. */
export function isVersionUnquoted(frontmatter: Frontmatter): boolean {
  return skillFields(frontmatter).versionUnquoted;
}

/** The well-formed entries of `metadata.mcp-servers`; the validator reports the others. */
export function mcpServers(frontmatter: Frontmatter): McpServerRequirement[] {
  return skillFields(frontmatter).mcpServers;
}

export function isModelInvocationDisabled(frontmatter: Frontmatter): boolean {
  return skillFields(frontmatter).disableModelInvocation;
}
