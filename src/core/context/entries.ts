/**
 * Where one entry of a history or of the decisions ends and the next begins, as offsets into the
 * file's text: compaction moves whole entries and never rewrites a byte of them. Pure.
 *
 * A line is a heading when it is `#`…`######` and a space (or nothing) outside a fenced code block
 * (roster/history.ts Fences). An entry starts at a heading of level 1 to 3 when there is no entry
 * yet, when its level is no deeper than the heading that started the current entry, when a
 * thematic break (`---`, `***`, `___`) came since that heading, or when its text starts with a date
 * (`### 2026-02-20: …`, what create-squad's template and the original Squad's Scribe write). An
 * entry runs up to the next one, its trailing blank lines and separators included.
 *
 * decisions.md: the head is what comes before the first entry, the file's title (a first heading
 * of level 1 or 2 that is not dated) included.
 * history.md: the `## ` sections are separate; in each, the entries are its headed blocks (as
 * above, level 3 and deeper than the section) and, before the first of them, each top-level list
 * item or paragraph. What comes first in a section and is blank or one HTML comment (the
 * template's writing hint) stays as the section's preamble.
 */
import { Fences } from '../roster/history.js';

/** A span of the text: [start, end) in UTF-16 offsets, always whole lines. */
export interface Span {
  start: number;
  end: number;
}

/** One line with its terminator, and where it starts. */
interface Line {
  start: number;
  end: number;
  /** The line without `\n` or `\r\n`. */
  content: string;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const DATED = /^\d{4}-\d{2}-\d{2}/;
/** One HTML comment and nothing else on the line (history.ts drops these too). */
const COMMENT_LINE = /^\s*<!--(?:(?!-->).)*-->\s*$/;
const LIST_ITEM = /^ {0,1}(?:[-*+]|\d{1,9}[.)])[ \t]/;

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline + 1;
    const content = text.slice(start, newline === -1 ? end : newline).replace(/\r$/, '');
    lines.push({ start, end, content });
    start = end;
  }
  return lines;
}

interface Heading {
  level: number;
  text: string;
}

function headingOf(content: string): Heading | undefined {
  const match = HEADING.exec(content);
  return match ? { level: match[1]!.length, text: match[2] ?? '' } : undefined;
}

/** A line as the entry rules see it: a heading, a break, blank, or text; `code` inside a fence. */
interface Classified extends Line {
  heading: Heading | undefined;
  brk: boolean;
  code: boolean;
}

function classify(text: string): Classified[] {
  const fences = new Fences();
  return linesOf(text).map((line) => {
    const code = fences.inCode(line.content);
    return { ...line, code, heading: code ? undefined : headingOf(line.content), brk: !code && THEMATIC_BREAK.test(line.content) };
  });
}

/** Tracks the entry being read: the level of the heading that started it, and whether a break followed. */
class EntryStarts {
  private level: number | undefined;
  private broken = false;

  /** Whether `heading` starts a new entry (and remember it when it does). */
  startsAt(heading: Heading): boolean {
    if (heading.level > 3) return false;
    const starts = this.level === undefined || heading.level <= this.level || this.broken || DATED.test(heading.text);
    if (starts) {
      this.level = heading.level;
      this.broken = false;
    }
    return starts;
  }

  sawBreak(): void {
    if (this.level !== undefined) this.broken = true;
  }

  get headed(): boolean {
    return this.level !== undefined;
  }
}

/** Spans from start offsets: each runs to the next start, the last to `end`. */
function spansFrom(starts: readonly number[], end: number): Span[] {
  return starts.map((start, index) => ({ start, end: starts[index + 1] ?? end }));
}

/**
 * decisions.md: its head (title and introduction) and its entries, oldest first. A line equal to
 * `link` (the archive's link, which compaction puts in the head) ends the search for a title.
 */
export function decisionEntries(text: string, link?: string): { head: Span; entries: Span[] } {
  const lines = classify(text);
  const starts: number[] = [];
  const tracker = new EntryStarts();
  let titleSeen = false;
  for (const line of lines) {
    if (line.brk) tracker.sawBreak();
    if (line.content === link) titleSeen = true;
    if (!line.heading) continue;
    if (!titleSeen && starts.length === 0 && line.heading.level <= 2 && !DATED.test(line.heading.text)) {
      titleSeen = true; // the file's title stays in the head
      continue;
    }
    titleSeen = true;
    if (tracker.startsAt(line.heading)) starts.push(line.start);
  }
  const first = starts[0] ?? text.length;
  return { head: { start: 0, end: first }, entries: spansFrom(starts, text.length) };
}

/** One `## ` section of a history: its heading line, its preamble, its entries. */
export interface HistorySection {
  /** The heading line as written (without its line break). */
  heading: string;
  /** The heading's text, for a decision on whether to compact it. */
  title: string;
  /** The heading line and the preamble: never moved. */
  preamble: Span;
  entries: Span[];
  end: number;
}

/** The `## ` sections of a history.md, in file order (text before the first one is no section). */
export function historySections(text: string): HistorySection[] {
  const lines = classify(text);
  const sections: HistorySection[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (line.heading?.level !== 2) {
      index += 1;
      continue;
    }
    let next = index + 1;
    while (next < lines.length && !(lines[next]!.heading && lines[next]!.heading!.level <= 2)) next += 1;
    const end = lines[next]?.start ?? text.length;
    sections.push(sectionOf(line, lines.slice(index + 1, next), end));
    index = next;
  }
  return sections;
}

function sectionOf(heading: Classified, body: readonly Classified[], end: number): HistorySection {
  const starts: number[] = [];
  const tracker = new EntryStarts();
  let previousBlank = true;
  for (const line of body) {
    const blank = line.content.trim() === '';
    if (line.brk) tracker.sawBreak();
    if (line.heading) {
      if (tracker.startsAt(line.heading)) starts.push(line.start);
    } else if (!tracker.headed && !line.code && !blank && !line.brk) {
      // Before the first headed entry: each list item, and each paragraph, is an entry of its own.
      const opensBlock = LIST_ITEM.test(line.content) || (previousBlank && !/^[ \t]/.test(line.content));
      const inPreamble = starts.length === 0 && COMMENT_LINE.test(line.content);
      if (opensBlock && !inPreamble) starts.push(line.start);
    }
    // A comment line (the template's hint) opens the way for a paragraph as a blank line does.
    previousBlank = blank || COMMENT_LINE.test(line.content);
  }
  const firstEntry = starts[0] ?? end;
  return {
    heading: heading.content,
    title: heading.heading!.text,
    preamble: { start: heading.start, end: firstEntry },
    entries: spansFrom(starts, end),
    end,
  };
}
