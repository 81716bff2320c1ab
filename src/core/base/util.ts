/** Small helpers shared across the core. */

/** A YAML/JSON mapping: a non-null, non-array object. */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a JSON value is described in messages: "null", "a list", "an object", "a number", … */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Locale-independent string order, so output is the same on every machine. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Line breaks of any kind: CR, LF, NEL (U+0085), and the Unicode line and paragraph separators. */
const LINE_BREAK_RUN = /\s*[\r\n\u0085\u2028\u2029]+\s*/g;

/** `text` on one line: every run of whitespace holding a line break becomes one space; trimmed. */
export function foldLines(text: string): string {
  return text.replace(LINE_BREAK_RUN, ' ').trim();
}

/**
 * `text` in double quotes for a message, escaped as in JSON: a line break, a terminal escape or a
 * quote taken from a file shows as `\n`, `\u001b`, `\"` and cannot break the message's one line.
 */
export function quoted(text: string): string {
  return JSON.stringify(text);
}

/** A key from a file as a message shows it: as it is when it is a plain word, else quoted. */
export function shownKey(key: string): string {
  return /^[\w.-]+$/.test(key) ? key : quoted(key);
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `text` cannot be a one-line field (a control character, such as a terminal escape), or undefined. */
export function controlCharacterProblem(text: string): string | undefined {
  const match = CONTROL_CHARACTER.exec(text);
  return match ? `contains a control character (U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})` : undefined;
}

/** `text` as a literal inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A string with something in it, trimmed; undefined for anything else. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The strings of a list; [] when `value` is not a list. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Whether `text` has `word` as a whole word, in any case (not inside a longer word of any script). */
export function hasWord(text: string, word: string): boolean {
  return wholeWordPattern(word, text, 'i').test(text);
}

const ASCII_TEXT = /^[\x00-\x7f]*$/;

/** Whether `text` is all ASCII: such text is read with ASCII patterns, cheaper to build than Unicode classes (docs/budgets.md). */
export function isAscii(text: string): boolean {
  return ASCII_TEXT.test(text);
}

/**
 * The pattern of `word` as a whole word in `text`: no letter or digit of any script on either side.
 * `flags` as for RegExp, without `u` (added when the word or the text is not ASCII).
 */
export function wholeWordPattern(word: string, text: string, flags: string): RegExp {
  const ascii = isAscii(word) && isAscii(text);
  const edge = ascii ? '[A-Za-z0-9]' : '[\\p{L}\\p{N}]';
  return new RegExp(`(?<!${edge})${escapeRegExp(word)}(?!${edge})`, ascii ? flags : `${flags}u`);
}

/** A size for people: bytes under 1 KB, else KB or MB with one decimal (none when it is .0). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** Names joined with ", ", at most `max` of them, then "and N more": a long list capped on one line. */
export function listNames(names: readonly string[], max = 8): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}
