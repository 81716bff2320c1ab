/**
 * DiskFacts (disk-facts.ts) seen through planned changes (plan.ts): what the disk will answer once
 * `changes` are applied, for a decision that must see the tree after earlier changes of its own
 * plan (import decides its members' agents on the squad its swap puts in place). Pure: questions
 * about what the changes do not touch go to the facts the read step recorded.
 *
 * A file a change writes is answered from its content; a folder placed whole (`tree`) hides what
 * stood there; a move carries what the overlay knows to its new place, and what stood on disk is
 * asked at its old place.
 */
import type { DiskEntryKind, DiskFacts } from './disk-facts.js';
import type { Change, FileContent, TreeFile } from './plan.js';

/** A file the changes write: its content (undefined for one copied at apply time), made bytes when first asked, and mode. */
interface PlannedFile {
  content: FileContent | undefined;
  bytes?: Buffer;
  mode: number;
}

const DEFAULT_FILE_MODE = 0o644;
const FOLDER_MODE = 0o755;

function toBytes(content: FileContent): Buffer {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
}

function parentOf(relPath: string): string | undefined {
  const slash = relPath.lastIndexOf('/');
  return slash === -1 ? undefined : relPath.slice(0, slash);
}

function isUnder(relPath: string, folder: string): boolean {
  return relPath === folder || relPath.startsWith(`${folder}/`);
}

function treeFile(file: TreeFile): PlannedFile {
  if ('content' in file) return { content: file.content, mode: file.mode ?? DEFAULT_FILE_MODE };
  return { content: undefined, mode: file.copy.file.executable ? 0o755 : DEFAULT_FILE_MODE };
}

/** A planned file's bytes: converted once, on the first question (an import plans thousands of files and asks about a few). */
function bytesOf(file: PlannedFile): Buffer | undefined {
  if (file.content === undefined) return undefined;
  file.bytes ??= toBytes(file.content);
  return file.bytes;
}

/** The planned view: files written, paths that no longer hold what the disk has, disk folders moved. */
class Overlay {
  readonly files = new Map<string, PlannedFile>();
  /** Folders whose disk content is hidden (placed whole) or paths removed or moved away. */
  readonly hidden = new Set<string>();
  /** Folders the overlay makes (a tree's root, the parents of its files), answered as folders. */
  readonly folders = new Set<string>();
  /** Disk paths moved: `to` answers what the disk has at `from`. */
  readonly moved: { from: string; to: string }[] = [];

  addFile(relPath: string, file: PlannedFile): void {
    this.files.set(relPath, file);
    this.hidden.delete(relPath);
    for (let parent = parentOf(relPath); parent !== undefined; parent = parentOf(parent)) this.folders.add(parent);
  }

  /** Forget what the overlay says at and under `relPath` (its disk content stays as it is). */
  private forget(relPath: string): void {
    for (const path of [...this.files.keys()]) if (isUnder(path, relPath)) this.files.delete(path);
    for (const path of [...this.folders]) if (isUnder(path, relPath)) this.folders.delete(path);
  }

  hide(relPath: string): void {
    this.forget(relPath);
    this.hidden.add(relPath);
  }

  place(relPath: string, files: readonly TreeFile[]): void {
    this.hide(relPath);
    this.folders.add(relPath);
    for (let parent = parentOf(relPath); parent !== undefined; parent = parentOf(parent)) this.folders.add(parent);
    for (const file of files) this.addFile(`${relPath}/${file.path}`, treeFile(file));
  }

  move(from: string, to: string, knownFolder: boolean): void {
    const files = [...this.files].filter(([path]) => isUnder(path, from));
    if (files.length > 0 || this.files.has(from) || knownFolder) {
      const folders = [...this.folders].filter((path) => isUnder(path, from));
      this.hide(from);
      this.hide(to);
      for (const folder of folders) this.folders.add(`${to}${folder.slice(from.length)}`);
      for (const [path, file] of files) this.addFile(`${to}${path.slice(from.length)}`, file);
      return;
    }
    this.hide(from);
    this.hide(to);
    this.moved.push({ from, to });
  }
}

/** Where the disk's content at `relPath` is once the changes are applied (a moved path's old place), or undefined when they hide it. */
function diskPathOf(overlay: Overlay, relPath: string): string | undefined {
  // The nearest hidden or moved path above (or at) relPath decides; the last move made wins.
  for (let at: string | undefined = relPath; at !== undefined; at = parentOf(at)) {
    const move = overlay.moved.findLast((m) => m.to === at);
    if (move !== undefined) return `${move.from}${relPath.slice(at.length)}`;
    if (overlay.hidden.has(at)) return undefined;
  }
  return relPath;
}

/** What `relPath` is in the overlay: planned, hidden (missing), at a moved disk path, or as on disk. */
type Where = { planned: 'file'; file: PlannedFile } | { planned: 'folder' } | { planned: 'missing' } | { disk: string };

function locate(overlay: Overlay, relPath: string): Where {
  const file = overlay.files.get(relPath);
  if (file !== undefined) return { planned: 'file', file };
  if (overlay.folders.has(relPath)) return { planned: 'folder' };
  const disk = diskPathOf(overlay, relPath);
  return disk === undefined ? { planned: 'missing' } : { disk };
}

/** `base` as it will be once `changes` are applied, in order. */
export function factsAfter(base: DiskFacts, changes: readonly Change[]): DiskFacts {
  const overlay = new Overlay();
  for (const change of changes) {
    switch (change.kind) {
      case 'create':
      case 'replace':
        overlay.addFile(change.path, { content: change.content, mode: change.mode ?? DEFAULT_FILE_MODE });
        break;
      case 'backup':
        overlay.addFile(change.path, { content: change.content, mode: change.mode ?? DEFAULT_FILE_MODE });
        break;
      case 'tree':
        overlay.place(change.path, change.files);
        break;
      case 'move':
        overlay.move(change.from, change.to, overlay.folders.has(change.from));
        break;
      case 'remove':
        overlay.hide(change.path);
        break;
    }
  }

  // The names the overlay puts in each folder, indexed once (the overlay no longer changes): a
  // folder's listing then costs its own entries, not every planned path.
  let children: Map<string, Set<string>> | undefined;
  const plannedChildren = (): Map<string, Set<string>> => {
    if (children !== undefined) return children;
    const index = new Map<string, Set<string>>();
    for (const path of [...overlay.files.keys(), ...overlay.folders]) {
      // Every folder on the way lists the next one (a folder already listing it has its own way recorded).
      for (let child = path, parent = parentOf(child); parent !== undefined; child = parent, parent = parentOf(child)) {
        let names = index.get(parent);
        if (names === undefined) index.set(parent, (names = new Set()));
        const name = child.slice(parent.length + 1);
        if (names.has(name)) break;
        names.add(name);
      }
    }
    children = index;
    return index;
  };
  const kind = (relPath: string): DiskEntryKind => {
    const where = locate(overlay, relPath);
    if ('disk' in where) return base.kind(where.disk);
    return where.planned;
  };
  const names = (relPath: string): string[] => {
    if (overlay.files.has(relPath)) return [];
    const onDisk = diskPathOf(overlay, relPath);
    const gone = (name: string) => {
      const child = locate(overlay, `${relPath}/${name}`);
      return 'planned' in child && child.planned === 'missing';
    };
    const found = new Set(onDisk === undefined ? [] : base.names(onDisk).filter((name) => !gone(name)));
    for (const name of plannedChildren().get(relPath) ?? []) found.add(name);
    const prefix = `${relPath}/`;
    for (const move of overlay.moved) if (parentOf(move.to) === relPath) found.add(move.to.slice(prefix.length));
    return [...found];
  };
  return {
    root: base.root,
    blocked: (relPath) => {
      const where = locate(overlay, relPath);
      if ('disk' in where) return base.blocked(where.disk);
      return where.planned === 'folder' ? `${relPath} is a folder` : undefined;
    },
    exists: (relPath) => {
      const where = locate(overlay, relPath);
      return 'disk' in where ? base.exists(where.disk) : where.planned !== 'missing';
    },
    isFile: (relPath) => {
      const where = locate(overlay, relPath);
      return 'disk' in where ? base.isFile(where.disk) : where.planned === 'file';
    },
    isDirectory: (relPath) => {
      const where = locate(overlay, relPath);
      return 'disk' in where ? base.isDirectory(where.disk) : where.planned === 'folder';
    },
    kind,
    bytes: (relPath) => {
      const where = locate(overlay, relPath);
      if ('disk' in where) return base.bytes(where.disk);
      if (where.planned !== 'file') return undefined;
      const bytes = bytesOf(where.file);
      if (bytes === undefined) throw new Error(`internal error: ${relPath} is copied when the plan is applied; its bytes are not known before`);
      return bytes;
    },
    mode: (relPath) => {
      const where = locate(overlay, relPath);
      if ('disk' in where) return base.mode(where.disk);
      if (where.planned === 'file') return where.file.mode;
      if (where.planned === 'folder') return FOLDER_MODE;
      throw Object.assign(new Error(`ENOENT: no such file or directory, stat '${relPath}'`), { code: 'ENOENT' });
    },
    names,
    missingOrEmpty: (relPath) => {
      const where = locate(overlay, relPath);
      if ('disk' in where) {
        if (names(relPath).length > 0) return false;
        // Nothing is left of what the disk lists there; a path without names (missing, a file) is the disk's answer.
        return base.names(where.disk).length === 0 ? base.missingOrEmpty(where.disk) : true;
      }
      return where.planned === 'missing' || names(relPath).length === 0;
    },
  };
}
