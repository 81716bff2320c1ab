/**
 * A fast path for the small YAML subset almost every SKILL.md frontmatter is written in.
 *
 * Loading the full YAML library costs ~40 ms of start-up and parsing is the main cost of listing
 * a thousand skills, so discovery first tries this parser. It accepts only text whose meaning is
 * unambiguous and gives exactly what the yaml library (YAML 1.2, core schema) would give; for
 * anything else it returns undefined and the caller uses the yaml library, which also produces the
 * proper error messages. A differential test checks the two agree.
 *
 * The subset: block mappings and block sequences with space indentation; keys of letters, digits,
 * `_ - .`; values that are empty (null or a nested block), double-quoted strings without escapes,
 * single-quoted strings without quotes inside, true/false/null/~ in their core-schema spellings, or
 * plain strings that start with an ASCII letter and contain no `: `, ` #` or trailing `:`, and
 * literal (`|`) and folded (`>`) block scalars with any chomping (`-`, `+`) but no explicit
 * indentation, whose lines hold no tab, no whitespace-only line with spaces, and (folded) no line
 * indented more than the first. Full-line comments are skipped. Everything else (flow collections,
 * anchors, tags, multi-line plain scalars, numbers, escapes, tabs, duplicate keys) falls back.
 */

type Value = string | boolean | null | Value[] | { [key: string]: Value };

interface Line {
  indent: number;
  text: string;
  /** Index of the line in the source (block scalars read the source lines as they are). */
  raw: number;
}

const FAIL = Symbol('fail');
type Result<T> = T | typeof FAIL;

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_.-]*):(?: +(.*))?$/;
const BLOCK_HEADER = /^([|>])([+-]?)$/;
/** Core-schema plain scalars that are not strings. */
const SPECIAL_PLAIN = new Map<string, boolean | null>([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
  ['null', null],
  ['Null', null],
  ['NULL', null],
  ['~', null],
]);
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// Control characters (other than LF) and the BOM change meaning or validity in YAML: fall back.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f\u0085\ufeff\u2028\u2029]/;

export function parseSimpleYaml(source: string): Record<string, unknown> | undefined {
  if (CONTROL.test(source)) return undefined;
  const rawLines = source.split('\n');
  if (rawLines.at(-1) === '') rawLines.pop(); // the newline that ends the last line
  const lines: Line[] = [];
  for (let at = 0; at < rawLines.length; at += 1) {
    // The line without its trailing and leading spaces (found by index: this runs for every line
    // of every skill a listing reads); blank lines and full-line comments are skipped.
    const raw = rawLines[at]!;
    let end = raw.length;
    while (end > 0 && raw.charCodeAt(end - 1) === 32) end -= 1;
    let start = 0;
    while (start < end && raw.charCodeAt(start) === 32) start += 1;
    if (start === end || raw.charCodeAt(start) === 35) continue;
    lines.push({ indent: start, text: start === 0 && end === raw.length ? raw : raw.slice(start, end), raw: at });
  }
  if (lines.length === 0) return {};
  if (lines[0]!.indent !== 0) return undefined;

  let index = 0;

  const isItem = (text: string) => text === '-' || text.startsWith('- ');

  function block(indent: number): Result<Value> {
    return isItem(lines[index]!.text) ? sequence(indent) : mapping(indent);
  }

  function mapping(indent: number): Result<{ [key: string]: Value }> {
    const result: { [key: string]: Value } = {};
    while (index < lines.length && lines[index]!.indent === indent) {
      const match = KEY_LINE.exec(lines[index]!.text);
      if (!match) return FAIL;
      const key = match[1]!;
      if (UNSAFE_KEYS.has(key) || SPECIAL_PLAIN.has(key) || Object.hasOwn(result, key)) return FAIL;
      const keyRaw = lines[index]!.raw;
      index += 1;
      const rest = match[2] ?? '';
      const header = BLOCK_HEADER.exec(rest);
      let value: Result<Value>;
      if (header) value = blockScalar(indent, keyRaw, header[1] as '|' | '>', header[2] as Chomping);
      else if (rest !== '') value = scalar(rest);
      else value = nested(indent, true);
      if (value === FAIL) return FAIL;
      result[key] = value;
    }
    return index < lines.length && lines[index]!.indent > indent ? FAIL : result;
  }

  /** The block below a `key:` or `-` line, or null when there is none. */
  function nested(parentIndent: number, allowSameIndentSequence: boolean): Result<Value> {
    const next = lines[index];
    if (!next) return null;
    if (next.indent > parentIndent) return block(next.indent);
    if (allowSameIndentSequence && next.indent === parentIndent && isItem(next.text)) return sequence(parentIndent);
    return null;
  }

  function sequence(indent: number): Result<Value[]> {
    const items: Value[] = [];
    while (index < lines.length && lines[index]!.indent === indent && isItem(lines[index]!.text)) {
      const line = lines[index]!;
      const after = line.text.slice(1);
      const content = after.replace(/^ +/, '');
      if (content === '') {
        index += 1;
        const value = nested(indent, false);
        if (value === FAIL) return FAIL;
        items.push(value);
        continue;
      }
      if (isItem(content)) return FAIL; // "- - x": nested compact sequences
      if (KEY_LINE.test(content)) {
        // "- key: value" starts a mapping whose column is that of its first key.
        const column = indent + 1 + (after.length - content.length);
        lines[index] = { indent: column, text: content, raw: line.raw };
        const value = mapping(column);
        if (value === FAIL) return FAIL;
        items.push(value);
        continue;
      }
      index += 1;
      const value = scalar(content);
      if (value === FAIL) return FAIL;
      items.push(value);
    }
    return index < lines.length && lines[index]!.indent > indent ? FAIL : items;
  }

  /**
   * The block scalar whose header ends source line `keyRaw`: the source lines below it indented
   * more than `parentIndent` (and blank lines among them), as YAML reads them.
   */
  function blockScalar(parentIndent: number, keyRaw: number, style: '|' | '>', chomping: Chomping): Result<string> {
    const content: string[] = [];
    let contentIndent = -1;
    let at = keyRaw + 1;
    for (; at < rawLines.length; at += 1) {
      const raw = rawLines[at]!;
      // Its indentation, counted rather than cut off (a block is most of a frontmatter's lines).
      let lineIndent = 0;
      while (lineIndent < raw.length && raw.charCodeAt(lineIndent) === 32) lineIndent += 1;
      if (lineIndent === raw.length) {
        if (raw !== '') return FAIL; // spaces on a blank line: their meaning depends on the indentation
        content.push('');
        continue;
      }
      if (contentIndent === -1) {
        if (lineIndent <= parentIndent) break;
        contentIndent = lineIndent;
      }
      if (lineIndent < contentIndent) {
        if (lineIndent > parentIndent) return FAIL; // less indented than the block, still inside its key
        break;
      }
      content.push(raw.slice(contentIndent));
    }
    if (contentIndent === -1) return FAIL;
    // Blank lines before the next key belong to the block (only "keep" chomping shows them).
    while (index < lines.length && lines[index]!.raw < at) index += 1;
    return blockText(content, style, chomping);
  }

  const root = mapping(0);
  if (root === FAIL || index !== lines.length) return undefined;
  return root;
}

type Chomping = '' | '-' | '+';

/** The value of a block scalar from its lines (indentation removed), or FAIL for what it does not handle. */
function blockText(content: readonly string[], style: '|' | '>', chomping: Chomping): Result<string> {
  let last = content.length - 1;
  while (last >= 0 && content[last] === '') last -= 1;
  const lines = content.slice(0, last + 1);
  const trailingBlank = content.length - 1 - last;
  let text: string;
  if (style === '|') {
    text = lines.join('\n');
  } else {
    // Folded: a line break between two lines becomes a space, each blank line between them a line
    // break. A more-indented line keeps its breaks (rules this subset leaves to the yaml library).
    if (lines.some((line) => line.startsWith(' '))) return FAIL;
    // The usual folded block, lines of text with no blank line among them: one string at once.
    if (!lines.includes('')) return chomped(lines.join(' '), chomping, trailingBlank);
    text = '';
    let blanks = 0;
    let started = false;
    for (const line of lines) {
      if (line === '') {
        blanks += 1;
        continue;
      }
      if (started) text += blanks > 0 ? '\n'.repeat(blanks) : ' ';
      else text += '\n'.repeat(blanks);
      text += line;
      started = true;
      blanks = 0;
    }
  }
  return chomped(text, chomping, trailingBlank);
}

/** A block scalar's text with its final line breaks as its chomping says. */
function chomped(text: string, chomping: Chomping, trailingBlank: number): string {
  if (chomping === '-') return text;
  if (chomping === '+') return `${text}\n${'\n'.repeat(trailingBlank)}`;
  return `${text}\n`;
}

function scalar(text: string): Result<string | boolean | null> {
  const special = SPECIAL_PLAIN.get(text);
  if (special !== undefined) return special;
  const first = text[0];
  if (first === '"') {
    const inner = text.slice(1, -1);
    return text.length >= 2 && text.endsWith('"') && !inner.includes('"') && !inner.includes('\\') ? inner : FAIL;
  }
  if (first === "'") {
    const inner = text.slice(1, -1);
    return text.length >= 2 && text.endsWith("'") && !inner.includes("'") ? inner : FAIL;
  }
  if (!/^[A-Za-z]/.test(text)) return FAIL;
  if (text.includes(': ') || text.includes(' #') || text.endsWith(':')) return FAIL;
  return text;
}
