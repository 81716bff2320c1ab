/**
 * DiskFacts (base/disk-facts.ts) answered from the disk, each question once, every answer recorded:
 * a read step asks what its planner will ask, then hands the planner `factsFrom(reader.record())`.
 * Used as it is (`new DiskReader(root)`), it is also the live view of callers that plan and write
 * at once (import's skill moves after its swap).
 */
import fs from 'node:fs';
import { attempt, replay, type DiskEntryKind, type DiskFacts, type DiskRecord, type Recorded } from '../base/disk-facts.js';
import { resolveIn } from '../base/paths.js';
import { existsInside, isDirectory, isFile, readBytesIfExists, readDirNames } from './fs-safe.js';
import { blockedReason } from './obstacles.js';

function kindAt(abs: string): DiskEntryKind {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(abs);
  } catch {
    return 'missing';
  }
  return stat.isSymbolicLink() ? 'symlink' : stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : 'other';
}

/** A folder that is missing, or exists with nothing in it (git does not keep empty folders). */
function missingOrEmptyAt(abs: string): boolean {
  try {
    return fs.readdirSync(abs).length === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

export class DiskReader implements DiskFacts {
  private readonly answers = {
    blocked: new Map<string, string | undefined>(),
    exists: new Map<string, boolean>(),
    isFile: new Map<string, boolean>(),
    isDirectory: new Map<string, boolean>(),
    kind: new Map<string, DiskEntryKind>(),
    bytes: new Map<string, Recorded<Buffer | undefined>>(),
    mode: new Map<string, Recorded<number>>(),
    names: new Map<string, readonly string[]>(),
    missingOrEmpty: new Map<string, boolean>(),
  };

  constructor(readonly root: string) {}

  private once<T>(map: Map<string, T>, relPath: string, read: () => T): T {
    if (!map.has(relPath)) map.set(relPath, read());
    return map.get(relPath) as T;
  }

  blocked(relPath: string): string | undefined {
    return this.once(this.answers.blocked, relPath, () => blockedReason(this.root, relPath));
  }

  exists(relPath: string): boolean {
    return this.once(this.answers.exists, relPath, () => existsInside(this.root, relPath));
  }

  isFile(relPath: string): boolean {
    return this.once(this.answers.isFile, relPath, () => isFile(resolveIn(this.root, relPath)));
  }

  isDirectory(relPath: string): boolean {
    return this.once(this.answers.isDirectory, relPath, () => isDirectory(resolveIn(this.root, relPath)));
  }

  kind(relPath: string): DiskEntryKind {
    return this.once(this.answers.kind, relPath, () => kindAt(resolveIn(this.root, relPath)));
  }

  bytes(relPath: string): Buffer | undefined {
    return replay(this.once(this.answers.bytes, relPath, () => attempt(() => readBytesIfExists(resolveIn(this.root, relPath)))));
  }

  mode(relPath: string): number {
    return replay(this.once(this.answers.mode, relPath, () => attempt(() => fs.statSync(resolveIn(this.root, relPath)).mode & 0o777)));
  }

  names(relPath: string): string[] {
    return [...this.once(this.answers.names, relPath, () => readDirNames(resolveIn(this.root, relPath)))];
  }

  missingOrEmpty(relPath: string): boolean {
    return this.once(this.answers.missingOrEmpty, relPath, () => missingOrEmptyAt(resolveIn(this.root, relPath)));
  }

  /** Every answer so far, for factsFrom. */
  record(): DiskRecord {
    return { root: this.root, ...this.answers };
  }
}
