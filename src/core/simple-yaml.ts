/**
 * A fast path for the YAML that skill frontmatter almost always is: block mappings and sequences of
 * one-line scalars. Listing or prompting 1,000 skills spends most of its time parsing frontmatter,
 * and the full `yaml` parser costs far more per small document than this does (SPEC §8 budget).
 *
 * The contract is strict: `parseSimpleYaml` returns exactly what the `yaml` package returns for
 * the same text, or `undefined` when the text uses anything outside the subset below, in which case
 * the caller parses it with `yaml` (which also produces the error messages). It never guesses.
 *
 * Subset: `key: value` lines (ASCII keys), nested by space indentation; block sequences (`- item`,
 * `- key: value`); values that are double-quoted strings valid as JSON, single-quoted strings,
 * plain strings, true/false/null in the core schema's spellings, decimal numbers, `[]` and `{}`.
 * Everything else (block scalars `|` `>`, multi-line scalars, flow collections with content,
 * anchors, aliases, tags, comments after a value, tabs, duplicate keys, …) is left to `yaml`.
 */

/** Raised internally when the text leaves the subset. */
class OutsideSubset extends Error {}

const KEY = /^([A-Za-z_][A-Za-z0-9_-]{0,99}):(?: +(.*))?$/;
/** Characters the fast path leaves to `yaml`: controls (except LF), tabs, BOM, non-characters. */
const UNSUPPORTED_CHARS = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029\uFEFF\uFFFE\uFFFF]/;
const INT = /^[-+]?[0-9]+$/;
/** Longer numerals may lose precision differently; left to `yaml`. */
const MAX_NUMERAL_LENGTH = 15;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const NULLS = new Set(['~', 'null', 'Null', 'NULL']);
const TRUES = new Set(['true', 'True', 'TRUE']);
const FALSES = new Set(['false', 'False', 'FALSE']);
/** Plain scalars starting with one of these are indicators or numbers-like: left to `yaml`. */
const PLAIN_FIRST_UNSUPPORTED = /^[-?:,[\]{}#&*!|>'"%@`+.0-9]/;
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype', ...NULLS, ...TRUES, ...FALSES]);

interface Line {
  indent: number;
  text: string;
}

export function parseSimpleYaml(source: string): Record<string, unknown> | undefined {
  if (UNSUPPORTED_CHARS.test(source)) return undefined;
  const lines: Line[] = [];
  for (const raw of source.split('\n')) {
    const trimmed = raw.trimEnd();
    const text = trimmed.trimStart();
    if (text === '' || text.startsWith('#')) continue;
    if (text === '---' || text === '...' || text.startsWith('--- ') || text.startsWith('%')) return undefined;
    lines.push({ indent: trimmed.length - text.length, text });
  }
  if (lines.length === 0) return {};
  if (lines[0]!.indent !== 0) return undefined;
  try {
    const cursor = { index: 0 };
    const value = parseMapping(lines, cursor, 0);
    return cursor.index === lines.length ? value : undefined;
  } catch (error) {
    if (error instanceof OutsideSubset) return undefined;
    throw error;
  }
}

function outside(): never {
  throw new OutsideSubset();
}

/** A block mapping whose keys start at column `indent`; `first` is an already-split first line. */
function parseMapping(lines: Line[], cursor: { index: number }, indent: number, first?: string): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  let pending = first;
  for (;;) {
    let text: string;
    if (pending !== undefined) {
      text = pending;
      pending = undefined;
    } else {
      const line = lines[cursor.index];
      if (!line || line.indent < indent) break;
      if (line.indent > indent) outside();
      text = line.text;
    }
    cursor.index += 1;
    const match = KEY.exec(text);
    if (!match) outside();
    const key = match[1]!;
    if (RESERVED_KEYS.has(key) || Object.prototype.hasOwnProperty.call(map, key)) outside();
    const rest = match[2];
    if (rest === undefined || rest === '') {
      map[key] = parseNested(lines, cursor, indent);
    } else {
      map[key] = parseScalar(rest);
      const next = lines[cursor.index];
      if (next && next.indent > indent) outside(); // a continuation line: multi-line scalar
    }
  }
  return map;
}

/** The value of a `key:` with nothing after the colon: a nested block, or null. */
function parseNested(lines: Line[], cursor: { index: number }, parentIndent: number): unknown {
  const next = lines[cursor.index];
  if (!next) return null;
  if (isSequenceItem(next.text) && next.indent >= parentIndent) return parseSequence(lines, cursor, next.indent);
  if (next.indent <= parentIndent) return null;
  return parseMapping(lines, cursor, next.indent);
}

function isSequenceItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

function parseSequence(lines: Line[], cursor: { index: number }, indent: number): unknown[] {
  const items: unknown[] = [];
  for (;;) {
    const line = lines[cursor.index];
    // A line that is not an item ends the sequence; the enclosing mapping decides if it fits.
    if (!line || line.indent < indent || (line.indent === indent && !isSequenceItem(line.text))) break;
    if (line.indent > indent || line.text === '-') outside();
    const afterDash = line.text.slice(2);
    const content = afterDash.trimStart();
    const column = indent + 2 + (afterDash.length - content.length);
    if (isSequenceItem(content)) outside();
    if (KEY.test(content)) {
      items.push(parseMapping(lines, cursor, column, content));
    } else {
      cursor.index += 1;
      items.push(parseScalar(content));
      const next = lines[cursor.index];
      if (next && next.indent > indent) outside();
    }
  }
  return items;
}

function parseScalar(text: string): unknown {
  const first = text[0];
  if (first === '"') return parseDoubleQuoted(text);
  if (first === "'") return parseSingleQuoted(text);
  if (text === '[]') return [];
  if (text === '{}') return {};
  if (NULLS.has(text)) return null;
  if (TRUES.has(text)) return true;
  if (FALSES.has(text)) return false;
  if (INT.test(text) || FLOAT.test(text)) return text.length <= MAX_NUMERAL_LENGTH ? Number(text) : outside();
  if (PLAIN_FIRST_UNSUPPORTED.test(text)) outside();
  if (text.includes(': ') || text.includes(' #') || text.endsWith(':')) outside();
  if (/^(?:null|true|false)$/i.test(text)) outside();
  return text;
}

function parseDoubleQuoted(text: string): string {
  if (text.length < 2 || !text.endsWith('"')) outside();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    outside();
  }
  return typeof value === 'string' ? value : outside();
}

function parseSingleQuoted(text: string): string {
  if (text.length < 2 || !text.endsWith("'")) outside();
  const inner = text.slice(1, -1);
  if (inner.replace(/''/g, '').includes("'")) outside();
  return inner.replace(/''/g, "'");
}
