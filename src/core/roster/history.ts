/**
 * A member's history.md, split for travel: what holds on any project ("portable knowledge") and
 * what was learned about the project it came from ("project learnings").
 *
 * The rule, by the level-2 sections init writes (`templates/squad/history.md.hbs`):
 *   - a `## …` section whose heading starts with "Portable" (`## Portable Knowledge`) is portable:
 *     its body, without the heading; a further portable section keeps its heading, one level
 *     deeper (`### Portable: testing`), so that no text is lost (unless nothing came before it);
 *   - every other `## …` section (Project Context, Project Learnings, Learnings, anything custom)
 *     is project learnings, heading included; so is text before the first section, except the
 *     `# …` title line;
 *   - lines that are exactly one HTML comment (the template's writing hints) are dropped; a line
 *     with text beside or between comments is kept;
 *   - headings inside fenced code blocks do not count.
 * When in doubt a section is project learnings: it still travels, under its own heading.
 *
 * A history that `import` wrote (templates/import/history.md.hbs) is split back into what it was
 * given, so that export → import → export is a fixed point and headings never nest deeper per
 * trip: its import note line is dropped (import writes a new one), the body of its `## Project
 * Learnings (from …)` section is the project learnings it carried, one heading level up again
 * (promoteHeadings undoes demoteHeadings), and an empty section beside it (the template's own
 * `## Project Learnings`, nothing learned here yet) is dropped.
 *
 * A history in the original Squad's layout (no "Portable" section at all) is split as the original
 * split it: its `## Learnings` and `## Team Updates` sections are portable too, except a `###`
 * part about this project's files, sprints, pull requests or sessions ("Key File Paths", "Sprint
 * 3", "PR #12", "Session log"), which is project learnings, heading included.
 */
import { normalizeNewlines } from '../skills/frontmatter.js';

export interface HistoryParts {
  portable: string;
  project: string;
}

const PORTABLE_HEADING = /^portable\b/i;
/** Sections the original Squad carried to other projects. */
const ORIGINAL_PORTABLE_HEADING = /^(?:portable\b|learnings$|team updates$)/i;
/** Parts of a portable section the original Squad kept with the project. */
const ORIGINAL_PROJECT_PART = /^ {0,3}###[ \t]+(?:key file paths|sprint|pr\s*#|file system|session)/i;
const SECTION = /^ {0,3}##[ \t]+(.*?)[ \t#]*$/;
const TITLE = /^ {0,3}#[ \t]/;
/** One HTML comment and nothing else: no text outside it, and no second comment. */
const COMMENT_LINE = /^\s*<!--(?:(?!-->).)*-->\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** The first line import writes into a history (templates/import/history.md.hbs). */
const IMPORT_NOTE = /^📌 Imported from ".*" on \d{4}-\d{2}-\d{2} by create-squad import: /u;
/** The section of an imported history that holds the project learnings it carried (heading one level down). */
const CARRIED_HEADING = /^project learnings \(from .*\)$/i;

/** Tracks fenced code blocks line by line (also how compaction tells entries apart: core/context/entries.ts). */
export class Fences {
  private open: string | undefined;

  /** True when `line` is inside a fence or opens/closes one (so it is not markdown structure). */
  inCode(line: string): boolean {
    const match = FENCE.exec(line);
    if (this.open !== undefined) {
      if (match && match[1]![0] === this.open[0] && match[1]!.length >= this.open.length && line.trim() === match[1]) this.open = undefined;
      return true;
    }
    if (match) {
      this.open = match[1];
      return true;
    }
    return false;
  }
}

/** A history part as it travels: no leading blank lines, no trailing whitespace. */
export function tidyHistoryPart(text: string): string {
  return text.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
}

/** Whether a history is in the original Squad's layout: no `## Portable…` section anywhere. */
function isOriginalLayout(lines: readonly string[]): boolean {
  const fences = new Fences();
  return !lines.some((line) => !fences.inCode(line) && PORTABLE_HEADING.test(SECTION.exec(line)?.[1] ?? ''));
}

/** A section of project learnings: its heading line (none for text before the first section), its lines. */
interface ProjectSection {
  heading?: string;
  lines: string[];
  /** The carried learnings of an imported history: its body goes back one heading level up. */
  carried: boolean;
}

export function splitHistory(text: string): HistoryParts {
  const portable: string[] = [];
  const sections: ProjectSection[] = [{ lines: [], carried: false }];
  const fences = new Fences();
  const lines = normalizeNewlines(text).split('\n');
  const portableHeading = isOriginalLayout(lines) ? ORIGINAL_PORTABLE_HEADING : PORTABLE_HEADING;
  let section: 'preamble' | 'portable' | 'project' = 'preamble';
  let portableSections = 0;
  let dropped = false;
  const startSection = (heading: string | undefined, carried = false) => sections.push({ ...(heading === undefined ? {} : { heading }), lines: [], carried });
  for (const line of lines) {
    const current = sections[sections.length - 1]!;
    const target = section === 'portable' ? portable : current.lines;
    // The line before this one in its part (a section's heading, when nothing follows it yet).
    const previous = target[target.length - 1] ?? (section === 'portable' ? '' : (current.heading ?? ''));
    if (fences.inCode(line)) {
      target.push(line);
      continue;
    }
    const heading = SECTION.exec(line);
    if (heading) {
      section = portableHeading.test(heading[1]!) ? 'portable' : 'project';
      if (section === 'project') startSection(line, CARRIED_HEADING.test(heading[1]!));
      else if (++portableSections > 1 && portable.some((kept) => kept.trim() !== '')) portable.push(`### ${heading[1]}`);
      continue;
    }
    if (section === 'portable' && portableHeading === ORIGINAL_PORTABLE_HEADING && ORIGINAL_PROJECT_PART.test(line)) {
      section = 'project';
      startSection(undefined);
      sections[sections.length - 1]!.lines.push(line);
      continue;
    }
    if (COMMENT_LINE.test(line)) {
      dropped = true;
      continue;
    }
    if (section === 'preamble' && (TITLE.test(line) || IMPORT_NOTE.test(line))) continue;
    // A dropped comment line leaves no double blank line behind.
    if (dropped && line.trim() === '' && previous.trim() === '') continue;
    dropped = false;
    target.push(line);
  }
  const imported = sections.some((part) => part.carried);
  const project = sections
    .filter((part) => !(imported && !part.carried && part.heading !== undefined && part.lines.every((line) => line.trim() === '')))
    .flatMap((part) => (part.carried ? [promoteHeadings(tidyHistoryPart(part.lines.join('\n'))), ''] : [...(part.heading === undefined ? [] : [part.heading]), ...part.lines]));
  return { portable: tidyHistoryPart(portable.join('\n')), project: tidyHistoryPart(project.join('\n')) };
}

/** Every markdown heading one level deeper (`##` → `###`, at most `######`), code blocks untouched. */
export function demoteHeadings(text: string): string {
  const fences = new Fences();
  return text
    .split('\n')
    .map((line) => (fences.inCode(line) ? line : line.replace(/^( {0,3})(#{1,5})(?=[ \t]|$)/, '$1#$2')))
    .join('\n');
}

/** Every markdown heading one level up (`###` → `##`), code blocks untouched: what demoteHeadings did, undone. */
export function promoteHeadings(text: string): string {
  const fences = new Fences();
  return text
    .split('\n')
    .map((line) => (fences.inCode(line) ? line : line.replace(/^( {0,3})#(#{1,6})(?=[ \t]|$)/, '$1$2')))
    .join('\n');
}
