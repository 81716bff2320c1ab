/**
 * The plain SKILL.md frontmatter read straight from its bytes, for listings of thousands of skills.
 *
 * Nearly every skill's frontmatter is plain: ASCII, one `key: value` a line, the standard fields
 * only (a folded `description: >-` block included), `metadata` a block of `key: value` strings, a
 * valid name equal to its folder's. Such a skill is valid with nothing to say, and a listing needs
 * four strings of it. Reading them from the bytes spares decoding the frontmatter to a string,
 * splitting it, parsing it into objects and validating those: most of what listing a skill costs
 * after its read, and most of the garbage. Anything else (a comment, a blank line, a tab, a
 * number, an escape, another field, a byte beyond ASCII, a name or description the rules refuse)
 * is not plain: the caller parses and validates it in full. What this takes is exactly what the
 * YAML subset (base/simple-yaml.ts) and the rules (validate.ts) make of it; a differential test
 * holds it to them (test/unit/plain-head.test.ts), on generated heads and on real skills.
 */
import { isValidName } from '../base/names.js';
import { MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH } from './skill-fields.js';
import { STANDARD_FIELDS, STRUCTURED_METADATA_KEYS } from './validate.js';
import { SPECIAL_PLAIN_TEXTS, UNSAFE_KEYS } from '../base/simple-yaml.js';

/** A plain skill's frontmatter, as a listing keeps it. */
export class PlainSkillHead {
  constructor(
    readonly name: string,
    readonly description: string,
    readonly version: string | undefined,
    readonly author: string | undefined,
  ) {}
}

const NEWLINE = 10;
const SPACE = 32;
const COLON = 58;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const HASH = 35;
const GREATER = 62;
const MINUS = 45;
const BACKSLASH = 92;

/** Top-level fields a plain frontmatter may hold (the standard's), each a string but `metadata`. */
const FIELDS = STANDARD_FIELDS;
type Field = (typeof FIELDS)[number];
const FIELD_BYTES = FIELDS.map((field) => Buffer.from(`${field}:`));

/** Metadata keys a plain head may not have: the structured extension, and keys YAML or JavaScript treat apart. */
const NOT_PLAIN_KEYS = new Set([...STRUCTURED_METADATA_KEYS, ...UNSAFE_KEYS, ...SPECIAL_PLAIN_TEXTS]);

/**
 * The plain frontmatter of the YAML text in `bytes` from `start` to `end` (the bytes between the
 * opening and closing `---` lines, its last line's newline included), for a skill in folder
 * `dirName`; undefined when it is not plain.
 */
export function plainSkillHead(bytes: Buffer, start: number, end: number, dirName: string): PlainSkillHead | undefined {
  if (end <= start) return undefined;
  const values = new Map<Field, string>();
  let version: string | undefined;
  let author: string | undefined;
  let line = start;
  while (line < end) {
    const lineEnd = lineEndOf(bytes, line, end);
    if (lineEnd === -1) return undefined;
    const field = fieldAt(bytes, line, lineEnd);
    if (field === undefined || values.has(field)) return undefined;
    const valueStart = skipSpaces(bytes, line + field.length + 1, lineEnd); // after "field:"
    let next = lineEnd + 1;
    let value: string | undefined;
    if (field === 'metadata') {
      // "metadata:" alone, then a block of "key: value" lines, every one indented alike.
      if (valueStart !== lineEnd) return undefined;
      const indent = indentOf(bytes, next, end);
      if (indent === 0) return undefined; // an empty mapping is null, which the rules treat apart
      const keys = new Set<string>();
      while (next < end && indentOf(bytes, next, end) === indent) {
        const entryEnd = lineEndOf(bytes, next, end);
        if (entryEnd === -1) return undefined;
        const keyStart = next + indent;
        const colon = keyEndAt(bytes, keyStart, entryEnd);
        if (colon === -1) return undefined;
        const key = latin1(bytes, keyStart, colon);
        if (NOT_PLAIN_KEYS.has(key) || keys.has(key)) return undefined;
        keys.add(key);
        const entry = scalarAt(bytes, skipSpaces(bytes, colon + 1, entryEnd), entryEnd);
        if (entry === undefined) return undefined;
        if (key === 'version') version = entry;
        else if (key === 'author') author = entry;
        next = entryEnd + 1;
      }
      if (next < end && indentOf(bytes, next, end) !== 0) return undefined;
      value = '';
    } else if (field === 'description' && bytes[valueStart] === GREATER) {
      const block = foldedAt(bytes, valueStart, lineEnd, end);
      if (block === undefined) return undefined;
      value = block.text;
      next = block.next;
    } else {
      value = scalarAt(bytes, valueStart, lineEnd);
    }
    if (value === undefined) return undefined;
    values.set(field, value);
    line = next;
  }
  const name = values.get('name');
  const description = values.get('description');
  if (name === undefined || name !== dirName || !isValidName(name)) return undefined;
  if (description === undefined || description.length > MAX_DESCRIPTION_LENGTH || !/[^ \n]/.test(description)) return undefined;
  if ((values.get('compatibility')?.length ?? 0) > MAX_COMPATIBILITY_LENGTH) return undefined;
  return new PlainSkillHead(dirName, description, version, author);
}

/** In the line lineEndOf read last: where its last ": " and its last " #" start (-1: none). */
let lastColonSpace = -1;
let lastSpaceHash = -1;

/**
 * Where the line from `from` ends (its "\n"), or -1 when it holds a byte that is not printable
 * ASCII or has no "\n" before `end`: such a frontmatter is not plain. Every byte of a frontmatter
 * the plain reader takes passes here once, which also notes where the line's ": " and " #" are.
 */
function lineEndOf(bytes: Buffer, from: number, end: number): number {
  lastColonSpace = -1;
  lastSpaceHash = -1;
  let previous = NEWLINE;
  for (let at = from; at < end; at += 1) {
    const byte = bytes[at]!;
    if (byte === NEWLINE) return at;
    if (byte < SPACE || byte > 126) return -1;
    if (byte === SPACE && previous === COLON) lastColonSpace = at - 1;
    else if (byte === HASH && previous === SPACE) lastSpaceHash = at - 1;
    previous = byte;
  }
  return -1;
}

function skipSpaces(bytes: Buffer, from: number, end: number): number {
  let at = from;
  while (at < end && bytes[at] === SPACE) at += 1;
  return at;
}

/** How many spaces line `from` starts with (0 past the end). */
function indentOf(bytes: Buffer, from: number, end: number): number {
  let at = from;
  while (at < end && bytes[at] === SPACE) at += 1;
  return at - from;
}

/** The standard field whose "field:" the line starts with, followed by a space or its end; undefined for any other. */
function fieldAt(bytes: Buffer, from: number, lineEnd: number): Field | undefined {
  for (let index = 0; index < FIELDS.length; index += 1) {
    const prefix = FIELD_BYTES[index]!;
    if (from + prefix.length > lineEnd) continue;
    let same = true;
    for (let at = 0; at < prefix.length && same; at += 1) same = bytes[from + at] === prefix[at];
    if (same && (from + prefix.length === lineEnd || bytes[from + prefix.length] === SPACE)) return FIELDS[index];
  }
  return undefined;
}

/** Where a metadata key that starts at `from` ends (its colon, followed by a space or the line's end), or -1. */
function keyEndAt(bytes: Buffer, from: number, lineEnd: number): number {
  const first = bytes[from]! | 32;
  if (!((first >= 97 && first <= 122) || bytes[from] === 95)) return -1;
  for (let at = from + 1; at < lineEnd; at += 1) {
    const byte = bytes[at]!;
    if (byte === COLON) return at + 1 < lineEnd && bytes[at + 1] === SPACE ? at : -1;
    const letter = byte | 32;
    if (!((letter >= 97 && letter <= 122) || (byte >= 48 && byte <= 57) || byte === 95 || byte === 46 || byte === MINUS)) return -1;
  }
  return -1;
}

/**
 * The string a value from `from` to the line's end (the line lineEndOf read last) is: double-quoted without a quote or escape
 * inside, single-quoted without a quote inside, or plain (starting with a letter, no ": ", " #" or
 * final ":", not true, false or null). Undefined for anything else, trailing spaces included.
 */
function scalarAt(bytes: Buffer, from: number, lineEnd: number): string | undefined {
  if (from >= lineEnd || bytes[lineEnd - 1] === SPACE) return undefined;
  const first = bytes[from]!;
  if (first === DOUBLE_QUOTE || first === SINGLE_QUOTE) {
    if (lineEnd - from < 2 || bytes[lineEnd - 1] !== first) return undefined;
    for (let at = from + 1; at < lineEnd - 1; at += 1) {
      if (bytes[at] === first || (first === DOUBLE_QUOTE && bytes[at] === BACKSLASH)) return undefined;
    }
    return latin1(bytes, from + 1, lineEnd - 1);
  }
  const letter = first | 32;
  if (letter < 97 || letter > 122 || bytes[lineEnd - 1] === COLON) return undefined;
  // No ": " or " #" in the value (lineEndOf noted the line's last ones).
  if (lastColonSpace >= from || lastSpaceHash >= from) return undefined;
  const text = latin1(bytes, from, lineEnd);
  return SPECIAL_PLAIN_TEXTS.has(text) ? undefined : text;
}

/**
 * A folded block (`>` or `>-` at `from`, the end of its key's line at `lineEnd`): the lines below
 * it, all indented alike (none more, none blank), joined by spaces; `>` keeps one final newline.
 */
function foldedAt(bytes: Buffer, from: number, lineEnd: number, end: number): { text: string; next: number } | undefined {
  const strip = lineEnd - from === 2 && bytes[from + 1] === MINUS;
  if (!strip && lineEnd - from !== 1) return undefined;
  let next = lineEnd + 1;
  const indent = indentOf(bytes, next, end);
  if (indent === 0) return undefined;
  const lines: string[] = [];
  while (next < end && indentOf(bytes, next, end) === indent) {
    const contentEnd = lineEndOf(bytes, next, end);
    if (contentEnd === -1) return undefined;
    const contentStart = next + indent;
    if (contentStart >= contentEnd || bytes[contentStart] === SPACE || bytes[contentEnd - 1] === SPACE) return undefined;
    lines.push(latin1(bytes, contentStart, contentEnd));
    next = contentEnd + 1;
  }
  if (next < end && indentOf(bytes, next, end) !== 0) return undefined;
  const text = lines.join(' ');
  return { text: strip ? text : `${text}\n`, next };
}

function latin1(bytes: Buffer, from: number, to: number): string {
  return bytes.toString('latin1', from, to);
}
