/**
 * The one plan type: every writing command decides a list of changes to the repository, and
 * everything after the decision — the applier, `--dry-run`, the text report, the `--json` data and
 * the "commit it with" hint — is derived from that list, so none of them can disagree with what
 * was (or would be) done. Pure: no file-system access (fs/apply-plan.ts carries a plan out).
 */
import { commitPaths } from './paths.js';
import { compareCodePoints } from './util.js';

export type FileContent = string | Uint8Array;

/** A file as a folder walk saw it (fs/tree.ts): the copy reads that very file or refuses. */
export interface WalkedFile {
  path: string;
  size: number;
  executable: boolean;
  dev: number;
  ino: number;
}

/**
 * A file of a folder placed whole (`tree`), relative to that folder: written from `content`, or
 * copied at apply time from `file` of the folder `dir` (absolute) that was walked.
 */
export type TreeFile = { path: string; content: FileContent; mode?: number } | { path: string; copy: { dir: string; file: WalkedFile } };

/** One change to the repository; paths are repository-relative, with `/`. */
export type Change =
  /** A new file, created exclusively: a file already there stops the plan (file-exists). */
  | { kind: 'create'; path: string; content: FileContent; mode?: number }
  /**
   * An existing file replaced atomically, only while it still holds `base` (what the plan was made
   * from): a file changed since stops the plan (conflict) before anything is written.
   */
  | { kind: 'replace'; path: string; content: FileContent; base: FileContent; mode?: number }
  /** A copy of `of` (holding `content`) kept before it is replaced or removed: created exclusively at `path`. */
  | { kind: 'backup'; path: string; of: string; content: FileContent; mode?: number }
  /** A file or folder renamed: `from` must still be there and `to` free. */
  | { kind: 'move'; from: string; to: string }
  /** A folder placed whole: its files staged beside it, then renamed into place (`path` must be free then). */
  | { kind: 'tree'; path: string; files: readonly TreeFile[] }
  /** A regular file removed (quiet when it is already gone). */
  | { kind: 'remove'; path: string };

export type ChangeKind = Change['kind'];

/** What a writing command decided: its changes in the order they are applied. */
export interface Plan {
  readonly changes: readonly Change[];
}

/** A plan's changes as a report lists them: what the `--json` data carries as `changes`. */
export interface ChangeSummary {
  /** Files and folders created, sorted. */
  created: string[];
  /** Files replaced, sorted. */
  replaced: string[];
  /** Renames, in plan order. */
  moved: { from: string; to: string }[];
  /** Copies kept before a replace, `path` the original and `backup` the copy, sorted by path. */
  backedUp: { path: string; backup: string }[];
  /** Files removed, sorted. */
  removed: string[];
}

const sorted = (values: string[]): string[] => values.sort(compareCodePoints);

export function summarizeChanges(changes: readonly Change[]): ChangeSummary {
  const summary: ChangeSummary = { created: [], replaced: [], moved: [], backedUp: [], removed: [] };
  for (const change of changes) {
    if (change.kind === 'create' || change.kind === 'tree') summary.created.push(change.path);
    else if (change.kind === 'replace') summary.replaced.push(change.path);
    else if (change.kind === 'backup') summary.backedUp.push({ path: change.of, backup: change.path });
    else if (change.kind === 'move') summary.moved.push({ from: change.from, to: change.to });
    else summary.removed.push(change.path);
  }
  sorted(summary.created);
  sorted(summary.replaced);
  sorted(summary.removed);
  summary.backedUp.sort((a, b) => compareCodePoints(a.path, b.path));
  return summary;
}

/** Every repository-relative path the changes touch (a move by both ends), each once, sorted. */
export function changedPaths(changes: readonly Change[]): string[] {
  const paths = new Set<string>();
  for (const change of changes) {
    if (change.kind === 'move') {
      paths.add(change.from);
      paths.add(change.to);
    } else paths.add(change.path);
  }
  return sorted([...paths]);
}

/** What `git add -A --` needs to record the changes (paths.ts commitPaths); [] for no change. */
export function commitPathsOf(changes: readonly Change[]): string[] {
  return commitPaths(changedPaths(changes));
}

/** The commit hint of a plan: `git add -A -- … && git commit -m "<message>"`; undefined when nothing changes. */
export function commitHint(changes: readonly Change[], message: string): string | undefined {
  const paths = commitPathsOf(changes);
  if (paths.length === 0) return undefined;
  return `git add -A -- ${paths.join(' ')} && git commit -m ${JSON.stringify(message)}`;
}

/** One line per change for a text report: "created  path", "would create  path" in a dry run. */
export function changeLines(changes: readonly Change[], dryRun: boolean): string[] {
  const summary = summarizeChanges(changes);
  const verb = (done: string, planned: string) => (dryRun ? `would ${planned}` : done).padEnd(dryRun ? 15 : 9);
  return [
    ...summary.moved.map((m) => `${verb('moved', 'move')} ${m.from} → ${m.to}`),
    ...summary.backedUp.map((b) => `${verb('backed up', 'back up')} ${b.path} → ${b.backup}`),
    ...summary.created.map((p) => `${verb('created', 'create')} ${p}`),
    ...summary.replaced.map((p) => `${verb('updated', 'update')} ${p}`),
    ...summary.removed.map((p) => `${verb('removed', 'remove')} ${p}`),
  ];
}
