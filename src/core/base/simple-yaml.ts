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

const FAIL = Symbol('fail');
type Result<T> = T | typeof FAIL;

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
const LONGEST_SPECIAL = Math.max(...[...SPECIAL_PLAIN.keys()].map((text) => text.length));
/** Plain scalars the core schema does not read as strings (the plain head of a SKILL.md refuses them too). */
export const SPECIAL_PLAIN_TEXTS: ReadonlySet<string> = new Set(SPECIAL_PLAIN.keys());
/** Keys refused: what JavaScript objects treat apart. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
// Control characters (other than LF) and the BOM change meaning or validity in YAML: fall back.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f\u0085\ufeff\u2028\u2029]/;

/**
 * A document being read. Its lines that hold something are kept as offsets into their source
 * line, three numbers each in `lines`: where the text starts (its indentation; spaces only), where
 * it ends (trailing spaces cut), and which source line it is. Blank lines and full-line comments
 * are skipped. Numbers, not a string and an object per line, and functions of the module, not
 * closures made per call: this runs for every skill a listing reads, and what it allocates is
 * what the listing's garbage collection costs.
 */
interface Reader {
  rawLines: string[];
  lines: number[];
  count: number;
  /** The line being read. */
  index: number;
}

const startOf = (doc: Reader, line: number): number => doc.lines[line * 3]!;
const endOf = (doc: Reader, line: number): number => doc.lines[line * 3 + 1]!;
const rawOf = (doc: Reader, line: number): number => doc.lines[line * 3 + 2]!;
const textOf = (doc: Reader, line: number): string => doc.rawLines[rawOf(doc, line)]!;

export function parseSimpleYaml(source: string): Record<string, unknown> | undefined {
  if (CONTROL.test(source)) return undefined;
  const rawLines = source.split('\n');
  if (rawLines.at(-1) === '') rawLines.pop(); // the newline that ends the last line
  const lines = new Array<number>(rawLines.length * 3);
  let count = 0;
  for (let at = 0; at < rawLines.length; at += 1) {
    const raw = rawLines[at]!;
    let end = raw.length;
    while (end > 0 && raw.charCodeAt(end - 1) === 32) end -= 1;
    let start = 0;
    while (start < end && raw.charCodeAt(start) === 32) start += 1;
    if (start === end || raw.charCodeAt(start) === 35) continue;
    lines[count * 3] = start;
    lines[count * 3 + 1] = end;
    lines[count * 3 + 2] = at;
    count += 1;
  }
  if (count === 0) return {};
  const doc: Reader = { rawLines, lines, count, index: 0 };
  if (startOf(doc, 0) !== 0) return undefined;
  const root = mapping(doc, 0);
  if (root === FAIL || doc.index !== count) return undefined;
  return root;
}

/** Whether line `line` (from `from`, its start unless given) is a sequence item: "-" alone or "- …". */
function isItem(doc: Reader, line: number, from = startOf(doc, line)): boolean {
  const raw = textOf(doc, line);
  return raw.charCodeAt(from) === 45 && (from + 1 === endOf(doc, line) || raw.charCodeAt(from + 1) === 32);
}

function block(doc: Reader, indent: number): Result<Value> {
  return isItem(doc, doc.index) ? sequence(doc, indent) : mapping(doc, indent);
}

function mapping(doc: Reader, indent: number): Result<{ [key: string]: Value }> {
  const result: { [key: string]: Value } = {};
  while (doc.index < doc.count && startOf(doc, doc.index) === indent) {
    const raw = textOf(doc, doc.index);
    const end = endOf(doc, doc.index);
    const colon = keyEnd(raw, indent, end);
    if (colon === -1) return FAIL;
    const key = raw.slice(indent, colon);
    if (UNSAFE_KEYS.has(key) || SPECIAL_PLAIN.has(key) || Object.hasOwn(result, key)) return FAIL;
    const keyRaw = rawOf(doc, doc.index);
    doc.index += 1;
    let from = colon + 1;
    while (from < end && raw.charCodeAt(from) === 32) from += 1;
    const rest = raw.slice(from, end);
    // A block header is one or two characters: a long value (a description) is not even tried.
    const header = rest.length <= 2 ? BLOCK_HEADER.exec(rest) : null;
    let value: Result<Value>;
    if (header) value = blockScalar(doc, indent, keyRaw, header[1] as '|' | '>', header[2] as Chomping);
    else if (rest !== '') value = scalar(rest);
    else value = nested(doc, indent, true);
    if (value === FAIL) return FAIL;
    result[key] = value;
  }
  return doc.index < doc.count && startOf(doc, doc.index) > indent ? FAIL : result;
}

/** The block below a `key:` or `-` line, or null when there is none. */
function nested(doc: Reader, parentIndent: number, allowSameIndentSequence: boolean): Result<Value> {
  if (doc.index >= doc.count) return null;
  const next = startOf(doc, doc.index);
  if (next > parentIndent) return block(doc, next);
  if (allowSameIndentSequence && next === parentIndent && isItem(doc, doc.index)) return sequence(doc, parentIndent);
  return null;
}

function sequence(doc: Reader, indent: number): Result<Value[]> {
  const items: Value[] = [];
  while (doc.index < doc.count && startOf(doc, doc.index) === indent && isItem(doc, doc.index)) {
    const raw = textOf(doc, doc.index);
    const end = endOf(doc, doc.index);
    let content = indent + 1;
    while (content < end && raw.charCodeAt(content) === 32) content += 1;
    if (content === end) {
      doc.index += 1;
      const value = nested(doc, indent, false);
      if (value === FAIL) return FAIL;
      items.push(value);
      continue;
    }
    if (isItem(doc, doc.index, content)) return FAIL; // "- - x": nested compact sequences
    if (keyEnd(raw, content, end) !== -1) {
      // "- key: value" starts a mapping whose column is that of its first key.
      doc.lines[doc.index * 3] = content;
      const value = mapping(doc, content);
      if (value === FAIL) return FAIL;
      items.push(value);
      continue;
    }
    doc.index += 1;
    const value = scalar(raw.slice(content, end));
    if (value === FAIL) return FAIL;
    items.push(value);
  }
  return doc.index < doc.count && startOf(doc, doc.index) > indent ? FAIL : items;
}

/**
 * The block scalar whose header ends source line `keyRaw`: the source lines below it indented
 * more than `parentIndent` (and blank lines among them), as YAML reads them.
 */
function blockScalar(doc: Reader, parentIndent: number, keyRaw: number, style: '|' | '>', chomping: Chomping): Result<string> {
  const { rawLines } = doc;
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
  while (doc.index < doc.count && rawOf(doc, doc.index) < at) doc.index += 1;
  return blockText(content, style, chomping);
}

/**
 * Where the key of a `key: value` line (text from `start` to `end` of `raw`) ends: the index of its
 * colon, or -1 when the text is not such a line. The key is a letter or `_`, then letters, digits,
 * `_ . -`; the colon ends the text or a space follows it (what /^([A-Za-z_][A-Za-z0-9_.-]*):(?: +(.*))?$/
 * matches, found without a match object per line).
 */
function keyEnd(raw: string, start: number, end: number): number {
  const first = raw.charCodeAt(start) | 32;
  if (!((first >= 97 && first <= 122) || raw.charCodeAt(start) === 95)) return -1;
  for (let at = start + 1; at < end; at += 1) {
    const unit = raw.charCodeAt(at);
    if (unit === 58) return at + 1 === end || raw.charCodeAt(at + 1) === 32 ? at : -1;
    const letter = unit | 32;
    if (!((letter >= 97 && letter <= 122) || (unit >= 48 && unit <= 57) || unit === 95 || unit === 46 || unit === 45)) return -1;
  }
  return -1;
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
  // The specials are five characters at most: a long value is not hashed to look it up.
  const special = text.length <= LONGEST_SPECIAL ? SPECIAL_PLAIN.get(text) : undefined;
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
