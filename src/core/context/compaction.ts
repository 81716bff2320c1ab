/**
 * `compact`'s decision (pure): which older entries of each history and of decisions.md move into
 * the archive beside it, and how the decisions inbox merges into decisions.md. Nothing is deleted:
 *
 *   archive after = archive before + ("\n" when it did not end with one) + for each moved run, in
 *                   file order: "\n" + a marker line naming the section (its number among the
 *                   file's `## ` sections, and its heading) + "\n" + the run, byte for byte
 *                   (a new archive starts with a short header saying what it is);
 *   live after    = live before without the runs, plus one link line to the archive (inserted once:
 *                   "\n" + link + "\n" after a first `# ` title line, else link + "\n\n" at the start).
 * So, for each section: the live section's heading and preamble, then its runs in the archive in
 * order, then its entries left in the live file, give back the original section exactly.
 *
 * An entry is what entries.ts says. The newest `keep` entries of each section (decisions.md: of
 * the file) stay; a run always ends with a line break (an unterminated last entry stays). The
 * archive is written before the live file: a run already at the archive's end (a run killed
 * between the two writes) is not appended again, so a second run writes nothing.
 *
 * The inbox (`.ai-team/decisions/inbox/*.md`) is merged first: its files' texts, line breaks made
 * `\n` and trailing space trimmed, deduplicated by that text, ordered by the date their first heading
 * (or file name) gives then by file name, each appended to decisions.md as it is, under a `### `
 * heading when it has none and with a `**By:**` line (the member the file name starts with) when it
 * names no author. An inbox file is removed in the same plan, after decisions.md is written, and
 * only when its text is in decisions.md (or its archive) then.
 */
import type { Change, Plan } from '../base/plan.js';
import { estimateTokens } from '../base/tokens.js';
import { compareCodePoints } from '../base/util.js';
import { warning, type Warning } from '../base/warnings.js';
import { decisionEntries, historySections, type HistorySection, type Span } from './entries.js';

/** How many entries stay when --keep is not given: in each section of a history, and in decisions.md. */
export const DEFAULT_KEEP = 20;

/** Sections of a history that hold who the member is, not what it learned: never compacted. */
const CONTEXT_SECTION = /context/i;

const HISTORY_LINK =
  '> Older entries of this history are in [history-archive.md](history-archive.md), moved there byte for byte by `create-squad compact`: read it on demand, when this file does not answer a question.';
const DECISIONS_LINK =
  '> Older decisions are in [decisions-archive.md](decisions-archive.md), moved there byte for byte by `create-squad compact`. They still hold unless a newer one here says otherwise: read it on demand, when this file does not settle a question.';

const HISTORY_ARCHIVE_HEADER =
  '# History archive\n\nOlder entries of history.md, moved here by `create-squad compact` byte for byte, oldest first, each run under the section it came from. Read it only when history.md does not answer a question.\n';
const DECISIONS_ARCHIVE_HEADER =
  '# Decisions archive\n\nOlder entries of decisions.md, moved here by `create-squad compact` byte for byte, oldest first. They still hold unless a newer decision in decisions.md says otherwise.\n';

/** The link line a live file gets once it has an archive. */
export function archiveLinkLine(kind: 'history' | 'decisions'): string {
  return kind === 'history' ? HISTORY_LINK : DECISIONS_LINK;
}

/** The marker line before each run in an archive: the file, and for a history the section (its number among the file's `## ` sections, then its heading). */
export function archiveMarker(file: string, section: string | undefined): string {
  const where = section === undefined ? file : `${file}, section ${section}`;
  return `<!-- compacted from ${where.replace(/--/g, '- -').replace(/[\r\n]/g, ' ')} -->`;
}

export interface CompactFile {
  /** Repo-relative path of the live file. */
  path: string;
  /** Its text; undefined when it does not exist. */
  text: string | undefined;
  archivePath: string;
  /** The archive's text; undefined when there is none yet. */
  archiveText: string | undefined;
}

export interface InboxFile {
  /** File name in the inbox. */
  name: string;
  path: string;
  text: string;
}

export interface CompactState {
  /** The histories to compact (one member's, or every member's), by member folder. */
  histories: (CompactFile & { member: string })[];
  /** decisions.md and its archive; undefined when decisions are not compacted this run. */
  decisions: CompactFile | undefined;
  /** The inbox files to merge (only when decisions are compacted). */
  inbox: InboxFile[];
  /** Member folders, to tell who wrote an inbox file from its name. */
  members: string[];
  /** What reading found and left alone (a file too large, not UTF-8). */
  warnings: Warning[];
}

export interface CompactOptions {
  keep: number;
}

/** What compaction did to one live file. */
export interface FileCompaction {
  path: string;
  archive: string;
  /** Entries before, moved, kept. */
  entries: number;
  moved: number;
  kept: number;
  /** Characters moved into the archive. */
  movedChars: number;
  tokensBefore: number;
  tokensAfter: number;
}

export interface InboxMerge {
  /** Inbox files whose decision was appended to decisions.md. */
  merged: string[];
  /** Inbox files whose text decisions.md (or its archive) already held. */
  alreadyMerged: string[];
  /** Inbox files removed (their text is in decisions.md). */
  removed: string[];
}

export interface CompactPlan extends Plan {
  files: FileCompaction[];
  inbox: InboxMerge;
  warnings: Warning[];
}

/** A run of a file moved to its archive: where it was, and the section it was in. */
interface Run extends Span {
  section: string | undefined;
}

export function decideCompaction(state: CompactState, options: CompactOptions): CompactPlan {
  const changes: Change[] = [];
  const files: FileCompaction[] = [];
  const warnings = [...state.warnings];
  for (const history of state.histories) {
    if (history.text === undefined) continue;
    const runs = historyRuns(history.text, options.keep);
    const result = compactFile(history, history.text, runs, 'history', changes);
    files.push(result);
  }
  let inbox: InboxMerge = { merged: [], alreadyMerged: [], removed: [] };
  if (state.decisions) {
    const decisions = state.decisions;
    const merged = mergeInbox(decisions.text ?? '', decisions.archiveText ?? '', state.inbox, state.members);
    inbox = merged.report;
    const entries = decisionEntries(merged.text, DECISIONS_LINK).entries;
    const runs = decisionRuns(merged.text, entries, options.keep);
    if (decisions.text !== undefined || merged.text !== '') {
      files.push(compactFile(decisions, merged.text, runs, 'decisions', changes, decisions.text));
    }
    const removable = new Set(merged.removable);
    for (const file of state.inbox) if (removable.has(file.name)) changes.push({ kind: 'remove', path: file.path });
    if (decisions.text === undefined && state.inbox.length > 0)
      warnings.push(warning('decisions-missing', `${decisions.path} is missing: the inbox was merged into a new one`, decisions.path));
  }
  return { changes, files, inbox, warnings };
}

/**
 * Plan the archive and the live file for `runs` of `text` (the live file's text once the inbox is
 * merged, for decisions.md; `base` is what is on disk).
 */
function compactFile(
  file: CompactFile,
  text: string,
  runs: readonly Run[],
  kind: 'history' | 'decisions',
  changes: Change[],
  base: string | undefined = file.text,
): FileCompaction {
  const fileName = file.path.slice(file.path.lastIndexOf('/') + 1);
  const header = kind === 'history' ? HISTORY_ARCHIVE_HEADER : DECISIONS_ARCHIVE_HEADER;
  const batch = runs.map((run) => `\n${archiveMarker(fileName, run.section)}\n${text.slice(run.start, run.end)}`).join('');
  const archiveBefore = file.archiveText;
  // A run killed between the archive's write and the live file's left this batch at the archive's end already.
  const alreadyArchived = batch !== '' && archiveBefore !== undefined && archiveBefore.endsWith(batch);
  let archiveAfter = archiveBefore;
  if (batch !== '' && !alreadyArchived) {
    const start = archiveBefore ?? header;
    archiveAfter = `${start}${start.endsWith('\n') ? '' : '\n'}${batch}`;
  }
  let live = without(text, runs);
  const hasArchive = archiveAfter !== undefined;
  if (hasArchive) live = withLink(live, archiveLinkLine(kind));

  if (archiveAfter !== archiveBefore) {
    changes.push(
      archiveBefore === undefined
        ? { kind: 'create', path: file.archivePath, content: archiveAfter! }
        : { kind: 'replace', path: file.archivePath, content: archiveAfter!, base: archiveBefore },
    );
  }
  if (live !== base) changes.push(base === undefined ? { kind: 'create', path: file.path, content: live } : { kind: 'replace', path: file.path, content: live, base });

  const entries = kind === 'history' ? compactableSections(text).reduce((sum, section) => sum + section.entries.length, 0) : decisionEntries(text, DECISIONS_LINK).entries.length;
  const moved = runs.reduce((sum, run) => sum + countEntries(run, text, kind), 0);
  return {
    path: file.path,
    archive: file.archivePath,
    entries,
    moved,
    kept: entries - moved,
    movedChars: runs.reduce((sum, run) => sum + run.end - run.start, 0),
    tokensBefore: estimateTokens(base ?? ''),
    tokensAfter: estimateTokens(live),
  };
}

function countEntries(run: Run, text: string, kind: 'history' | 'decisions'): number {
  const spans = kind === 'history' ? compactableSections(text).flatMap((section) => section.entries) : decisionEntries(text, DECISIONS_LINK).entries;
  return spans.filter((span) => span.start >= run.start && span.end <= run.end).length;
}

/** The sections of a history that compaction takes entries from: all but the context ones. */
function compactableSections(text: string): HistorySection[] {
  return historySections(text).filter((section) => !CONTEXT_SECTION.test(section.title));
}

/** In each section but the context ones: the entries before the newest `keep`, as one run. */
function historyRuns(text: string, keep: number): Run[] {
  const runs: Run[] = [];
  const sections = historySections(text);
  for (const section of sections) {
    if (CONTEXT_SECTION.test(section.title)) continue;
    const run = olderRun(text, section.entries, keep);
    // Numbered: two sections may share a heading, and the number says which one a run came from.
    if (run) runs.push({ ...run, section: `${sections.indexOf(section) + 1}: ${section.heading.trim()}` });
  }
  return runs;
}

function decisionRuns(text: string, entries: readonly Span[], keep: number): Run[] {
  const run = olderRun(text, entries, keep);
  return run ? [{ ...run, section: undefined }] : [];
}

/** The entries before the newest `keep` as one span ending with a line break; undefined when none move. */
function olderRun(text: string, entries: readonly Span[], keep: number): Span | undefined {
  let count = Math.max(0, entries.length - keep);
  // An unterminated last entry stays: every run ends with a line break.
  while (count > 0 && !text.slice(0, entries[count - 1]!.end).endsWith('\n')) count -= 1;
  if (count === 0) return undefined;
  return { start: entries[0]!.start, end: entries[count - 1]!.end };
}

/** `text` without the runs. */
function without(text: string, runs: readonly Span[]): string {
  let result = '';
  let at = 0;
  for (const run of runs) {
    result += text.slice(at, run.start);
    at = run.end;
  }
  return result + text.slice(at);
}

/** `text` with `link` on a line of its own, once: after a first `# ` title line, else at the start. */
export function withLink(text: string, link: string): string {
  if (text.split(/\r?\n/).includes(link)) return text;
  const firstLineEnd = text.indexOf('\n');
  const firstLine = firstLineEnd === -1 ? text : text.slice(0, firstLineEnd);
  if (/^ {0,3}#[ \t]/.test(firstLine) && firstLineEnd !== -1) return `${text.slice(0, firstLineEnd + 1)}\n${link}\n${text.slice(firstLineEnd + 1)}`;
  return `${link}\n\n${text}`;
}

/** An inbox file's text as it is compared and appended: `\n` line breaks, no trailing space. */
function inboxText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
}

/** Whether `needle`'s lines are a run of whole lines of `haystack` (both with `\n` line breaks). */
function holdsLines(haystack: string, needle: string): boolean {
  return needle === '' || `\n${haystack.replace(/\r\n?/g, '\n')}\n`.includes(`\n${needle}\n`);
}

const DATE_KEY = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}[:-]\d{2}(?:[:-]\d{2})?)?/;
const FIRST_HEADING = /^ {0,3}#{1,3}[ \t]+(.*)$/m;

/** The member an inbox file's name starts with (`lambert-…` → lambert), else its first word. */
function authorOf(name: string, members: readonly string[]): string {
  const stem = name.replace(/\.md$/i, '');
  const member = [...members].sort((a, b) => b.length - a.length).find((folder) => stem === folder || stem.startsWith(`${folder}-`));
  return member ?? stem.split('-')[0]!;
}

/** The inbox merged into `decisions`: the new text, what was merged, and the files whose text it then holds. */
function mergeInbox(decisions: string, archive: string, inbox: readonly InboxFile[], members: readonly string[]): { text: string; report: InboxMerge; removable: string[] } {
  const groups = new Map<string, InboxFile[]>();
  for (const file of inbox) {
    const text = inboxText(file.text);
    groups.set(text, [...(groups.get(text) ?? []), file]);
  }
  const keyed = [...groups].map(([text, files]) => {
    const names = files.map((f) => f.name).sort(compareCodePoints);
    const heading = FIRST_HEADING.exec(text)?.[1] ?? '';
    const date = DATE_KEY.exec(heading)?.[0] ?? DATE_KEY.exec(names[0]!)?.[0] ?? '~';
    return { text, names, key: `${date}\u0000${names[0]}` };
  });
  keyed.sort((a, b) => compareCodePoints(a.key, b.key));

  let text = decisions;
  const report: InboxMerge = { merged: [], alreadyMerged: [], removed: [] };
  for (const group of keyed) {
    if (holdsLines(text, group.text) || holdsLines(archive, group.text)) {
      report.alreadyMerged.push(...group.names);
      continue;
    }
    const authors = [...new Set(group.names.map((name) => authorOf(name, members)))].join(', ');
    const headed = /^ {0,3}#{1,3}[ \t]/.test(group.text);
    const attributed = /^\s*\*\*By:?\*\*/im.test(group.text);
    const title = group.names[0]!.replace(/\.md$/i, '').replace(/-/g, ' ');
    const block = `${headed ? '' : `### ${title}\n\n`}${group.text}\n${attributed ? '' : `\n**By:** ${authors}\n`}`;
    text += `${text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n'}${block}`;
    report.merged.push(...group.names);
  }
  const removable = keyed.filter((group) => holdsLines(text, group.text) || holdsLines(archive, group.text)).flatMap((group) => group.names);
  report.removed = [...removable].sort(compareCodePoints);
  report.merged.sort(compareCodePoints);
  report.alreadyMerged.sort(compareCodePoints);
  return { text, report, removable };
}
