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
 * plain strings that start with an ASCII letter and contain no `: `, ` #` or trailing `:`. Full-line comments are
 * skipped. Everything else (flow collections, anchors, tags, block scalars, multi-line plain
 * scalars, numbers, escapes, tabs, duplicate keys) falls back.
 */

type Value = string | boolean | null | Value[] | { [key: string]: Value };

interface Line {
  indent: number;
  text: string;
}

const FAIL = Symbol('fail');
type Result<T> = T | typeof FAIL;

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_.-]*):(?: +(.*))?$/;
/** Core-schema plain scalars that are not strings. */
const SPECIAL_PLAIN = new Map<string, boolean | null>([
  ['true', true], ['True', true], ['TRUE', true],
  ['false', false], ['False', false], ['FALSE', false],
  ['null', null], ['Null', null], ['NULL', null], ['~', null],
]);
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// Control characters (other than LF) and the BOM change meaning or validity in YAML: fall back.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f\u0085\ufeff\u2028\u2029]/;

export function parseSimpleYaml(source: string): Record<string, unknown> | undefined {
  if (CONTROL.test(source)) return undefined;
  const lines: Line[] = [];
  for (const raw of source.split('\n')) {
    const trimmed = raw.replace(/ +$/, '');
    const text = trimmed.replace(/^ +/, '');
    if (text === '' || text.startsWith('#')) continue;
    lines.push({ indent: trimmed.length - text.length, text });
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
      if (UNSAFE_KEYS.has(key) || SPECIAL_PLAIN.has(key) || Object.prototype.hasOwnProperty.call(result, key)) return FAIL;
      index += 1;
      const rest = match[2] ?? '';
      let value: Result<Value>;
      if (rest !== '') value = scalar(rest);
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
        lines[index] = { indent: column, text: content };
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

  const root = mapping(0);
  if (root === FAIL || index !== lines.length) return undefined;
  return root;
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
