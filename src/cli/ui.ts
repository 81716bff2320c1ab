/**
 * Terminal output: the only module that writes to stdout and stderr.
 *
 * Colour is used only when the stream is a TTY, never when NO_COLOR is set (https://no-color.org),
 * and never on TERM=dumb. FORCE_COLOR=1 turns it on for a non-TTY unless NO_COLOR is also set.
 */
import { stripVTControlCharacters } from 'node:util';
import { foldLines } from '../core/util.js';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

export interface Ui {
  readonly color: boolean;
  readonly style: Style;
  /** A line on stdout. */
  out(line?: string): void;
  /** Raw text on stdout, as is (a prompt, a JSON document). */
  write(text: string): void;
  /** "✓ message" on stdout. */
  success(message: string): void;
  /** "⚠ message" on stderr. */
  warn(message: string): void;
  /** "✗ message" on stderr. */
  error(message: string): void;
  /** A line on stderr (progress, notes that must not pollute stdout). */
  note(message: string): void;
  /** Aligned columns on stdout. */
  table(header: string[], rows: string[][]): void;
}

export interface UiStreams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export function shouldUseColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  return stream.isTTY === true;
}

function makeStyle(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

export function createUi(streams: UiStreams = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Ui {
  const color = shouldUseColor(streams.stdout, streams.env);
  const errColor = shouldUseColor(streams.stderr, streams.env);
  const style = makeStyle(color);
  const errStyle = makeStyle(errColor);
  const out = (line = '') => void streams.stdout.write(`${displayable(line)}\n`);
  const err = (line: string) => void streams.stderr.write(`${displayable(line)}\n`);
  return {
    color,
    style,
    out,
    write: (text) => void streams.stdout.write(text),
    success: (message) => out(`${style.green('✓')} ${message}`),
    warn: (message) => err(`${errStyle.yellow('⚠')} ${inert(message)}`),
    error: (message) => err(`${errStyle.red('✗')} ${inert(message)}`),
    note: (message) => err(message),
    table: (header, rows) => {
      const all = [header, ...rows];
      const widths = header.map((_, col) => Math.max(...all.map((row) => visibleLength(row[col] ?? ''))));
      const line = (row: string[], isHeader: boolean) =>
        row
          .map((cell, col) => (col === row.length - 1 ? cell : pad(cell, widths[col]!)))
          .map((cell) => (isHeader ? style.bold(cell) : cell))
          .join('  ')
          .trimEnd();
      out(line(header, true));
      for (const row of rows) out(line(row.map(foldLines), false));
    },
  };
}

/**
 * A warning or an error is one line of text, and may quote what a file said (a skill name, a key
 * in a .squad document): line breaks fold into spaces and any other control character (a terminal
 * escape) is shown as its \u escape, so a crafted file cannot repaint the terminal or fake a line.
 */
export function inert(message: string): string {
  return foldLines(message).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** ESC that does not start a colour (SGR) sequence, or any other control character but tab and line feed. */
const UNSAFE_CONTROL = /\u001b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/g;

/**
 * Text for the terminal: colour sequences and line breaks pass, any other control character
 * (cursor movement, screen clearing, a window title) shows as its \u escape. Lines quote skill
 * fields and file names, and those come from files anyone may have written.
 */
export function displayable(text: string): string {
  return text.replace(UNSAFE_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function visibleLength(text: string): number {
  return [...stripVTControlCharacters(text)].length;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleLength(text)));
}
