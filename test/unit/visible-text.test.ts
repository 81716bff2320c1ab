import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeCodePoints, HIDDEN_CANDIDATE_CLASS, visibleText, visibleValues } from '../../src/core/base/visible-text.js';
// fast-check's `binary` unit, drawn alike, without the 2.5 s it takes fast-check to index it (test/helpers/fast-check-units.ts).
import { binaryUnit } from '../helpers/fast-check-units.js';

/** What must never survive, wherever it stands: the documented list, written out again here as the test's own oracle. */
const ALWAYS_ESCAPED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\u2060-\u2065\u206a-\u206f\ufeff\ufff9-\ufffb]/;
const JOINER = /[\u200c\u200d]/u;
const JOINABLE = /^[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}]$/u;
const VARIATION_SELECTOR = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;
const TAG = /[\u{e0000}-\u{e007f}]/u;
const SUBDIVISION_FLAG = /\u{1f3f4}[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]{2,6}\u{e007f}/gu;

/** Characters that pass unchanged: accents, scripts, emoji sequences, a flag, a keycap, a tab and line feeds. */
const LEGIT = [
  'Café naïve façade',
  '日本語のテキスト、中文，한국어',
  'עברית ועוד العربية',
  'family 👨‍👩‍👧 coder 👩🏽‍💻 heart ❤️‍🔥 rainbow 🏳️‍🌈 trans 🏳️‍⚧️ pirate 🏴‍☠️',
  'Scotland 🏴󠁧󠁢󠁳󠁣󠁴󠁿 Wales 🏴󠁧󠁢󠁷󠁬󠁳󠁿',
  'Persian می‌خواهم, Devanagari क्‍ष',
  'keycap 1️⃣ #️⃣, text ☺︎ emoji ☺️, ideographic variant 葛󠄀',
  'a\tb\nc\n',
];

/** The characters a generated string is made of: plain, legit and hostile, so the rule meets them in every order. */
const UNIT = fc.constantFrom(
  'a',
  'Z',
  ' ',
  '\t',
  '\n',
  'é',
  '日',
  'ی',
  '\u094d',
  '👩',
  '🔥',
  '\u{1f3fd}',
  '\u{1f3f4}',
  '\u200c',
  '\u200d',
  '\ufe0f',
  '\ufe0e',
  '\u{e0100}',
  '\u{e0067}',
  '\u{e0062}',
  '\u{e0073}',
  '\u{e0041}',
  '\u{e007f}',
  '\u0000',
  '\u0007',
  '\r',
  '\u001b',
  '\u009b',
  '\u007f',
  '\u202e',
  '\u2066',
  '\u200b',
  '\u200e',
  '\u061c',
  '\ufeff',
  '\u2028',
  '\u2060',
  '\ufff9',
);
const MIXED = fc.array(UNIT, { maxLength: 40 }).map((units) => units.join(''));

/** The code point that ends at index `i` of `text`; '' at the start. */
function codePointEndingAt(text: string, i: number): string {
  if (i === 0) return '';
  const low = text.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text[i - 1]!;
}

describe('visibleText', () => {
  it('shows a terminal escape, an OSC 52 clipboard write, a bidi override and a NUL as their \\u escapes', () => {
    const hostile = 'a\u001b[2Jb\u001b]52;c;aGk=\u0007c\u202ed\u0000e';
    expect(visibleText(hostile)).toBe('a\\u001b[2Jb\\u001b]52;c;aGk=\\u0007c\\u202ed\\u0000e');
  });

  it('shows a carriage return, C1, the separators, zero width and tag characters as escapes; beyond U+FFFF with braces', () => {
    expect(visibleText('x\ry\u0085\u009b\u2028\u2029\u200b\ufeff')).toBe('x\\u000dy\\u0085\\u009b\\u2028\\u2029\\u200b\\ufeff');
    // Tags spelling a hidden word, not a flag: each one shown.
    expect(visibleText('ok\u{e0068}\u{e0069}')).toBe('ok\\u{e0068}\\u{e0069}');
    expect(escapeCodePoints('\u{e0041}\u001b')).toBe('\\u{e0041}\\u001b');
  });

  it('keeps a carriage return right before a line feed: a file written on Windows reads as it is', () => {
    expect(visibleText('# Charter\r\n\r\nShip it.\r\n')).toBe('# Charter\r\n\r\nShip it.\r\n');
    expect(visibleText('a\r\r\nb\rc')).toBe('a\\u000d\r\nb\\u000dc');
  });

  it('keeps joiners, variation selectors and flag tags only where text needs them', () => {
    // A joiner next to a space, at an edge, or between a letter and a control.
    expect(visibleText('\u200dx a\u200d b\u200d')).toBe('\\u200dx a\\u200d b\\u200d');
    // A second variation selector in a row, and one after a space.
    expect(visibleText('a\ufe0f\ufe0f \ufe0f葛\u{e0100}\u{e0101}')).toBe('a\ufe0f\\ufe0f \\ufe0f葛\u{e0100}\\u{e0101}');
    // Flag tags without the black flag, or too many of them.
    expect(visibleText('x\u{e0067}\u{e0062}\u{e007f}')).toBe('x\\u{e0067}\\u{e0062}\\u{e007f}');
    const tooLong = `\u{1f3f4}${'\u{e0061}'.repeat(7)}\u{e007f}`;
    expect(visibleText(tooLong)).toBe(`\u{1f3f4}${'\\u{e0061}'.repeat(7)}\\u{e007f}`);
  });

  it('returns legitimate Unicode byte for byte', () => {
    for (const text of LEGIT) expect(visibleText(text)).toBe(text);
  });

  it('property: no character of the class is left, what is kept stands where text needs it, and a second pass changes nothing', () => {
    fc.assert(
      // Each check runs as a plain test and calls expect only when it fails (the same assertion, the
      // same message): an expect costs about 0.2 ms, and 2,000 runs make tens of thousands of checks.
      fc.property(fc.oneof(MIXED, fc.string({ unit: binaryUnit })), (text) => {
        const shown = visibleText(text);
        const joined = shown.replaceAll('\r\n', '\n');
        if (ALWAYS_ESCAPED.test(joined)) expect(joined).not.toMatch(ALWAYS_ESCAPED);
        const again = visibleText(shown);
        if (again !== shown) expect(again).toBe(shown);
        const withoutFlags = shown.replace(SUBDIVISION_FLAG, '');
        if (TAG.test(withoutFlags)) expect(withoutFlags).not.toMatch(TAG);
        for (let i = 0; i < shown.length; i += 1) {
          const ch = shown[i]!;
          if (JOINER.test(ch)) {
            const prev = codePointEndingAt(shown, i);
            const base = prev === '\ufe0f' ? codePointEndingAt(shown, i - 1) : prev;
            const between = JOINABLE.test(base) && JOINABLE.test(String.fromCodePoint(shown.codePointAt(i + 1) ?? 0));
            if (!between) expect(between, JSON.stringify(shown)).toBe(true);
          }
          const code = shown.codePointAt(i)!;
          if (VARIATION_SELECTOR.test(String.fromCodePoint(code))) {
            const prev = codePointEndingAt(shown, i);
            const stray = prev === '' || /\s/.test(prev) || VARIATION_SELECTOR.test(prev) || JOINER.test(prev);
            if (stray) expect(stray, JSON.stringify(shown)).toBe(false);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('property: text without any character the rule looks at is returned unchanged', () => {
    const candidates = new RegExp(`[${HIDDEN_CANDIDATE_CLASS}]`, 'g');
    fc.assert(
      fc.property(fc.string({ unit: binaryUnit }), (raw) => {
        const text = raw.replace(candidates, '');
        expect(visibleText(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('visibleValues', () => {
  it('applies the rule to every string however deep, and keeps keys, numbers, booleans and null', () => {
    const value = { a: 'x\u202ey', list: ['\u001b[2J', { deep: '\u0000', n: 3, ok: true, none: null }], 'key\u202e': 'plain' };
    expect(visibleValues(value)).toEqual({ a: 'x\\u202ey', list: ['\\u001b[2J', { deep: '\\u0000', n: 3, ok: true, none: null }], 'key\u202e': 'plain' });
  });
});
