/**
 * What a planner asks of the disk, as a value: `DiskFacts` answers the questions upgrade's planners
 * ask (what stands at a path, its bytes, a folder's names, whether a file may be written there).
 * fs/disk-reader.ts answers them from the disk and records every answer; `factsFrom` answers from
 * that record alone, so a planner given it decides without touching the disk. A question the read
 * step did not ask is a bug of the read step, said loudly, never a silent read.
 */

/** What stands at a path, not following a final symlink. */
export type DiskEntryKind = 'missing' | 'file' | 'folder' | 'symlink' | 'other';

export interface DiskFacts {
  readonly root: string;
  /** Why a regular file cannot be written at `relPath` (fs/obstacles.ts blockedReason), undefined when it can. */
  blocked(relPath: string): string | undefined;
  /** Something stands there (a dangling link counts). */
  exists(relPath: string): boolean;
  /** A regular file there, directly or through a link. */
  isFile(relPath: string): boolean;
  /** A folder there, directly or through a link. */
  isDirectory(relPath: string): boolean;
  kind(relPath: string): DiskEntryKind;
  /** The bytes of the file there (undefined: missing, not a file, unreadable); throws what reading threw (a file too large). */
  bytes(relPath: string): Buffer | undefined;
  /** The permission bits of what is there, through links; throws what stat threw (nothing there). */
  mode(relPath: string): number;
  /** The names in the folder there (none when it is missing or not a folder). */
  names(relPath: string): string[];
  /** The folder there is missing or has nothing in it. */
  missingOrEmpty(relPath: string): boolean;
}

/** An answer as recorded: the value, or what was thrown. */
export type Recorded<T> = { value: T } | { error: unknown };

/** Every answer the read step got, by question and path. */
export interface DiskRecord {
  root: string;
  blocked: ReadonlyMap<string, string | undefined>;
  exists: ReadonlyMap<string, boolean>;
  isFile: ReadonlyMap<string, boolean>;
  isDirectory: ReadonlyMap<string, boolean>;
  kind: ReadonlyMap<string, DiskEntryKind>;
  bytes: ReadonlyMap<string, Recorded<Buffer | undefined>>;
  mode: ReadonlyMap<string, Recorded<number>>;
  names: ReadonlyMap<string, readonly string[]>;
  missingOrEmpty: ReadonlyMap<string, boolean>;
}

function answer<T>(map: ReadonlyMap<string, T>, question: string, relPath: string): T {
  if (!map.has(relPath)) throw new Error(`internal error: the read step did not read ${question} of ${relPath}`);
  return map.get(relPath) as T;
}

/** `read`'s value, or what it threw, as a value. */
export function attempt<T>(read: () => T): Recorded<T> {
  try {
    return { value: read() };
  } catch (error) {
    return { error };
  }
}

/** The value recorded, or what was thrown, thrown again. */
export function replay<T>(recorded: Recorded<T>): T {
  if ('error' in recorded) throw recorded.error;
  return recorded.value;
}

/** DiskFacts answered from `record` alone. */
export function factsFrom(record: DiskRecord): DiskFacts {
  return {
    root: record.root,
    blocked: (relPath) => answer(record.blocked, 'the obstacles', relPath),
    exists: (relPath) => answer(record.exists, 'whether something stands', relPath),
    isFile: (relPath) => answer(record.isFile, 'whether a file stands', relPath),
    isDirectory: (relPath) => answer(record.isDirectory, 'whether a folder stands', relPath),
    kind: (relPath) => answer(record.kind, 'what stands', relPath),
    bytes: (relPath) => replay(answer(record.bytes, 'the bytes', relPath)),
    mode: (relPath) => replay(answer(record.mode, 'the mode', relPath)),
    names: (relPath) => [...answer(record.names, 'the names', relPath)],
    missingOrEmpty: (relPath) => answer(record.missingOrEmpty, 'whether a folder is empty', relPath),
  };
}
