/**
 * Terminal output: the only module that writes to stdout and stderr.
 *
 * Colour is used only when the stream is a TTY, never when NO_COLOR is set (https://no-color.org),
 * and never on TERM=dumb. FORCE_COLOR=1 turns it on for a non-TTY unless NO_COLOR is also set.
 *
 * One display rule for every line: the text a method is given is made inert (see `inert`), whoever
 * built it, because lines quote skill fields, folder names and messages that come from files anyone
 * may have written. Colour is the one thing the Ui adds after that, and only to `Styled` pieces,
 * which only `style` makes: a colour sequence inside a file stays escaped like any other.
 */

/** A piece of a line in a colour or weight; made by `style`, coloured by the Ui when the stream takes colour. */
export class Styled {
  constructor(
    readonly text: string,
    readonly open: number,
    readonly close: number,
  ) {}

  /** Pasted into a template string, a piece is its plain text: the colour is lost, never the rule. */
  toString(): string {
    return this.text;
  }
}

/** What a line is made of: plain text, or a styled piece. Both are made inert when printed. */
export type Segment = string | Styled;

export interface Style {
  bold(text: string): Styled;
  dim(text: string): Styled;
  red(text: string): Styled;
  green(text: string): Styled;
  yellow(text: string): Styled;
  cyan(text: string): Styled;
}

export const style: Style = {
  bold: (text) => new Styled(text, 1, 22),
  dim: (text) => new Styled(text, 2, 22),
  red: (text) => new Styled(text, 31, 39),
  green: (text) => new Styled(text, 32, 39),
  yellow: (text) => new Styled(text, 33, 39),
  cyan: (text) => new Styled(text, 36, 39),
};

/**
 * Every method but `write` prints one line made of its segments: several lines of output are
 * several calls, so a line break inside a segment is always data and never starts a new line.
 */
export interface Ui {
  readonly style: Style;
  /** A line on stdout. */
  out(...line: Segment[]): void;
  /** Raw text on stdout, as is: a document for a model or a reader (a rendered prompt, help). */
  write(text: string): void;
  /** A JSON document on stdout, every control character in it escaped. */
  json(value: unknown): void;
  /** "✓ message" on stdout. */
  success(...message: Segment[]): void;
  /** "⚠ message" on stderr. */
  warn(...message: Segment[]): void;
  /** "✗ message" on stderr. */
  error(...message: Segment[]): void;
  /** A line on stderr (progress, notes that must not pollute stdout). */
  note(...message: Segment[]): void;
  /** Aligned columns on stdout, the header in bold. */
  table(header: string[], rows: Segment[][]): void;
}

/** Where the Ui writes: anything with `write(text)`, a terminal or not. */
export interface UiStreams {
  stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export function shouldUseColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  return stream.isTTY === true;
}

export function createUi(streams: UiStreams = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Ui {
  const outColor = shouldUseColor(streams.stdout, streams.env);
  const errColor = shouldUseColor(streams.stderr, streams.env);
  const out = (...line: Segment[]) => void streams.stdout.write(`${renderLine(line, outColor)}\n`);
  const err = (...line: Segment[]) => void streams.stderr.write(`${renderLine(line, errColor)}\n`);
  return {
    style,
    out,
    write: (text) => void streams.stdout.write(text),
    json: (value) => void streams.stdout.write(`${jsonDocument(value)}\n`),
    success: (...message) => out(style.green('✓'), ' ', ...message),
    warn: (...message) => err(style.yellow('⚠'), ' ', ...message),
    error: (...message) => err(style.red('✗'), ' ', ...message),
    note: err,
    table: (header, rows) => {
      const all: Segment[][] = [header.map((title) => style.bold(title)), ...rows];
      const widths = header.map((_, col) => Math.max(...all.map((row) => visibleLength(row[col] ?? ''))));
      for (const row of all) out(...tableLine(row, widths));
    },
  };
}

/** A row as segments: every cell but the last padded to its column's width, two spaces apart. */
function tableLine(row: readonly Segment[], widths: readonly number[]): Segment[] {
  const cells = withoutTrailingEmpty(row);
  return cells.flatMap((cell, col) => (col === cells.length - 1 ? [cell] : [cell, ' '.repeat(Math.max(0, (widths[col] ?? 0) - visibleLength(cell)) + 2)]));
}

function withoutTrailingEmpty(row: readonly Segment[]): readonly Segment[] {
  let end = row.length;
  while (end > 0 && textOf(row[end - 1]!) === '') end -= 1;
  return row.slice(0, end);
}

/** A line as the stream gets it: each segment inert, then coloured when it is a styled piece and the stream takes colour. */
function renderLine(line: readonly Segment[], color: boolean): string {
  return line.map((segment) => renderSegment(segment, color)).join('');
}

function renderSegment(segment: Segment, color: boolean): string {
  const text = inert(textOf(segment));
  if (!color || typeof segment === 'string') return text;
  return `\u001b[${segment.open}m${text}\u001b[${segment.close}m`;
}

function textOf(segment: Segment): string {
  return typeof segment === 'string' ? segment : segment.text;
}

/** Columns as the terminal shows them: the inert text, one column a code point. */
function visibleLength(segment: Segment): number {
  return [...inert(textOf(segment))].length;
}

/** Line breaks of any kind (CR, LF, NEL, the Unicode separators), with the blanks around them. */
const LINE_BREAK_RUN = /\s*[\r\n\u0085\u2028\u2029]+\s*/g;

/**
 * Controls beyond C0: DEL, C1 (U+009B alone starts a sequence on some terminals) and the Unicode
 * bidirectional controls, which reorder what the reader sees.
 */
const BEYOND_C0 = '\\u007f-\\u009f\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';

/** Every control character; tab is one too, as a cell holding one would not line up. */
const CONTROL = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`, 'g');

/** What JSON.stringify leaves raw: it escapes C0 only. */
const JSON_RAW_CONTROL = new RegExp(`[${BEYOND_C0}\\u2028\\u2029]`, 'g');

/**
 * The display rule, for every segment of every line: a run of line breaks folds into one space, so
 * a folder name or a field cannot split a line or fake a new one, and any other control character
 * shows as its \u escape, so no cursor move, screen clear, window title or colour from a file reaches
 * the terminal.
 */
export function inert(text: string): string {
  return text.replace(LINE_BREAK_RUN, ' ').replace(CONTROL, escapeCharacter);
}

/**
 * `value` as indented JSON. JSON.stringify escapes C0 controls but leaves DEL, C1, the Unicode line
 * separators and the bidi controls raw; in JSON they can only sit in strings, where their \u
 * escapes keep the same value.
 */
export function jsonDocument(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(JSON_RAW_CONTROL, escapeCharacter);
}

function escapeCharacter(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
