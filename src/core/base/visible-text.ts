/**
 * Text that a person reads in a terminal and a model reads as a prompt: every character that could
 * act on the terminal or hide text from the person is shown as a visible escape, so the person sees
 * what the model gets.
 *
 * Always escaped:
 * - C0 controls except tab and line feed (terminal escapes, OSC 52 clipboard writes, a carriage
 *   return that overwrites its line, NUL), DEL, and C1 controls; a carriage return right before a
 *   line feed (a file written on Windows) stays;
 * - bidirectional controls, which reorder what the reader sees ("Trojan Source"): U+061C, U+200E,
 *   U+200F, U+202A–U+202E, U+2066–U+2069;
 * - invisible characters that hide or carry text: U+200B, U+2060–U+206F, U+180E, U+FEFF, the
 *   interlinear annotation marks U+FFF9–U+FFFB, the line and paragraph separators U+2028 and U+2029,
 *   and the tag characters U+E0000–U+E007F (invisible ASCII a model still reads).
 *
 * Kept where legitimate text needs them, escaped anywhere else:
 * - U+200C and U+200D (ZWNJ, ZWJ) between two letters, marks or pictographs: emoji ZWJ sequences
 *   (a family, a profession, a flag), and the spelling of Persian and Indic scripts;
 * - tag characters forming an emoji subdivision flag: U+1F3F4, two to six tag letters or digits,
 *   U+E007F;
 * - one variation selector (U+FE00–U+FE0F, U+E0100–U+E01EF) right after a visible character: emoji
 *   presentation, ideographic variants. Text never stacks them, and a run of them can carry hidden
 *   bytes, so every one after the first is escaped.
 *
 * Other invisible or format characters (the soft hyphen, Hangul fillers) pass: they reorder nothing
 * and carry no hidden text of their own.
 *
 * The escape is the JavaScript and JSON string escape of the code point, in lowercase hex: `\u001b`,
 * `\u202e`, and `\u{e0041}` beyond U+FFFF; the terminal printer (src/cli/ui.ts) shows controls the
 * same way. The escape is plain ASCII, so the rule applied twice changes nothing more.
 */

/**
 * Every character the rule looks at (always escaped, or kept only in place), as the body of a
 * character class without the `u` flag: one class, which V8 scans fast. U+DB40 is the high surrogate
 * of the tag characters (U+E0000–U+E007F) and of the variation selectors supplement (U+E0100–U+E01EF);
 * what follows it decides. Exported for callers that test for it together with characters of their
 * own (xml.ts), in one class.
 */
export const HIDDEN_CANDIDATE_CLASS =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufe00-\\ufe0f\\ufeff\\ufff9-\\ufffb\\udb40';

const HAS_CANDIDATE = new RegExp(`[${HIDDEN_CANDIDATE_CLASS}]`);
const NEXT_CANDIDATE = new RegExp(`[${HIDDEN_CANDIDATE_CLASS}]`, 'g');

/** The tags of a subdivision flag after U+1F3F4: two to six tag letters or digits, then the cancel tag. */
const FLAG_TAGS = /^(?:\udb40[\udc30-\udc39\udc61-\udc7a]){2,6}\udb40\udc7f$/;
const BLACK_FLAG = '\u{1f3f4}';
const TAG_PLANE_HIGH = 0xdb40;

const CR = 0x0d;
const LF = 0x0a;
const ZWNJ = 0x200c;
const ZWJ = 0x200d;

/** What a joiner may stand between: letters, marks, pictographs, skin tones. Built on first use (a `u` pattern costs V8 time to build). */
let joinable: RegExp | undefined;

function isJoinable(codePoint: number | undefined): boolean {
  if (codePoint === undefined) return false;
  joinable ??= /^[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}]$/u;
  const ch = String.fromCodePoint(codePoint);
  return joinable.test(ch) && !HAS_CANDIDATE.test(ch);
}

function isVariationSelector(code: number): boolean {
  return (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);
}

function isTag(code: number): boolean {
  return code >= 0xe0000 && code <= 0xe007f;
}

/** The code point that ends just before `index`. */
function codePointBefore(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2);
  }
  return low;
}

/** Whether the variation selector at `index` follows a visible character (not a candidate, not a blank). */
function variationSelectorKept(text: string, index: number): boolean {
  const before = codePointBefore(text, index);
  if (before === undefined || before === 0x0a || before === 0x09 || before === 0x20) return false;
  return !HAS_CANDIDATE.test(String.fromCodePoint(before));
}

/** Whether the joiner at `index` stands between two joinable characters (an emoji presentation selector counts as its emoji). */
function joinerKept(text: string, index: number): boolean {
  const before = codePointBefore(text, index);
  const joinsBefore = before === 0xfe0f ? variationSelectorKept(text, index - 1) && isJoinable(codePointBefore(text, index - 1)) : isJoinable(before);
  return joinsBefore && isJoinable(text.codePointAt(index + 1));
}

/** The end of the run of tag characters that starts at `index`. */
function tagRunEnd(text: string, index: number): number {
  let end = index;
  while (text.charCodeAt(end) === TAG_PLANE_HIGH && isTag(text.codePointAt(end)!)) end += 2;
  return end;
}

/** `\u001b`, `\u202e`, `\u{e0041}`: the JavaScript escape of each code point of `text`. */
export function escapeCodePoints(text: string): string {
  let escaped = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    escaped += code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return escaped;
}

/**
 * `text` with every character that could act on a terminal or hide text from its reader shown as
 * its escape (see the rules above); returned as is when it has none, which is almost always.
 */
export function visibleText(text: string): string {
  return replaceHidden(text, escapeCodePoints);
}

/** `text` without the characters visibleText would escape: what `teach` stores of an instruction. */
export function withoutHidden(text: string): string {
  return replaceHidden(text, () => '');
}

/** How many characters (code points) of `text` visibleText would escape. */
export function hiddenCharacterCount(text: string): number {
  let count = 0;
  replaceHidden(text, (hidden) => {
    for (const _ of hidden) count++;
    return '';
  });
  return count;
}

/** `text` with each run of characters the rules above do not keep replaced by `replacement` of it. */
function replaceHidden(text: string, replacement: (hidden: string) => string): string {
  if (!HAS_CANDIDATE.test(text)) return text;
  let shown = '';
  let copied = 0;
  NEXT_CANDIDATE.lastIndex = 0;
  for (let match = NEXT_CANDIDATE.exec(text); match; match = NEXT_CANDIDATE.exec(text)) {
    const index = match.index;
    const code = text.codePointAt(index)!;
    let end: number;
    let kept: boolean;
    if (isTag(code)) {
      // A flag's tags are judged together.
      end = tagRunEnd(text, index);
      kept = FLAG_TAGS.test(text.slice(index, end)) && text.startsWith(BLACK_FLAG, index - BLACK_FLAG.length);
    } else {
      end = index + (code > 0xffff ? 2 : 1);
      if (code === CR)
        kept = text.charCodeAt(index + 1) === LF; // a Windows line end moves nothing a reader sees
      else if (code === ZWJ || code === ZWNJ) kept = joinerKept(text, index);
      else if (isVariationSelector(code)) kept = variationSelectorKept(text, index);
      else kept = text.charCodeAt(index) === TAG_PLANE_HIGH; // that plane's high surrogate before no tag or selector: not one of ours
    }
    if (!kept) {
      shown += text.slice(copied, index) + replacement(text.slice(index, end));
      copied = end;
    }
    NEXT_CANDIDATE.lastIndex = end;
  }
  return copied === 0 ? text : shown + text.slice(copied);
}

/**
 * `value` with visibleText applied to every string in it, however deep in arrays and plain objects;
 * keys stay. What holds nothing to escape is returned as is, not copied (a prompt's report lists up
 * to every skill of a squad).
 */
export function visibleValues<T>(value: T): T {
  if (typeof value === 'string') return visibleText(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  // Plain loops, no key arrays: a report may hold a record per skill of the squad (10,000 and more).
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const shown = visibleValues(item);
      if (shown !== item) (copy ??= [...value])[i] = shown;
    }
    return (copy ?? value) as T;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const item = record[key];
    const shown = visibleValues(item);
    if (shown !== item) (copy ??= { ...record })[key] = shown;
  }
  return (copy ?? value) as T;
}
