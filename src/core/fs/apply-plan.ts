/**
 * The one applier: carries out a plan (base/plan.ts), change by change in order, through the
 * atomic writer. Before the first write every path is checked to stay inside the repository and
 * every replaced file to still hold what the plan was made from, so a plan made from files that
 * changed since writes nothing at all; the check is repeated right before each replace for an edit
 * made while writing. A killed run leaves a prefix of the plan, which the next run completes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import { SKILL_STAGING_PATTERN, resolveIn, skillStagingDir } from '../base/paths.js';
import type { Change, FileContent, Plan, TreeFile } from '../base/plan.js';
import {
  copyOpenFileAtomic,
  existsInside,
  holdWorkPath,
  moveInside,
  readBytesIfExists,
  removeFileInside,
  relativePathProblem,
  removeInside,
  resolveInside,
  sweepDebris,
  unsafePathError,
  workId,
  writeFileAtomic,
  stagingWriter,
  type StagingWriter,
} from './fs-safe.js';
import { modeFor, openWalkedFile } from './tree.js';

function sameBytes(current: Buffer | undefined, base: FileContent): boolean {
  if (current === undefined) return false;
  return typeof base === 'string' ? current.toString('utf8') === base : current.equals(base);
}

function changedSincePlanned(root: string, change: Change, at?: string): boolean {
  return change.kind === 'replace' && !sameBytes(readBytesIfExists(resolveInside(root, at ?? change.path)), change.base);
}

/** Where `relPath` is before the moves among `earlier` are made (a file below a folder the plan moves first is checked where it is now). */
function beforeMoves(earlier: readonly Change[], relPath: string): string {
  return earlier.reduceRight(
    (at, change) => (change.kind === 'move' && (at === change.to || at.startsWith(`${change.to}/`)) ? `${change.from}${at.slice(change.to.length)}` : at),
    relPath,
  );
}

function conflict(relPath: string, activity: string, wroteSome: boolean): SquadError {
  return new SquadError('conflict', `${relPath} changed while ${activity}; ${wroteSome ? 'nothing further' : 'nothing'} was written`, {
    hint: 'run the command again: it starts from the files as they are now',
  });
}

/** Refuse now, before any write, what a change would refuse halfway: a path out of the repository. */
function checkInside(root: string, change: Change): void {
  if (change.kind === 'move') {
    resolveInside(root, change.from, { allowFinalSymlink: true });
    resolveInside(root, change.to);
  } else resolveInside(root, change.path, { allowFinalSymlink: change.kind === 'remove' });
  if (change.kind === 'tree') {
    for (const file of change.files) {
      const problem = relativePathProblem(file.path);
      if (problem !== undefined) throw unsafePathError(`${change.path}/${file.path}`, problem);
    }
  }
}

function writeTreeFile(root: string, dir: string, staged: StagingWriter, file: TreeFile): void {
  const target = `${dir}/${file.path}`;
  if ('content' in file) {
    // The staging folder is private until it is renamed into place: no temporary file per file,
    // each folder made and checked once (import stages thousands; docs/budgets.md).
    staged.write(file.path, file.content, file.mode === undefined ? {} : { mode: file.mode });
    return;
  }
  const fd = openWalkedFile(file.copy.dir, file.copy.file);
  try {
    copyOpenFileAtomic(root, target, fd, file.copy.file.size, { mode: modeFor(file.copy.file.executable), sweep: false });
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Place a folder whole: its files go into a staging folder beside it (swept when a killed run left
 * one), which is renamed into place. `movedAway` is the change moving the folder's previous content
 * aside: it runs only once the staging is complete, and is undone when the rename fails, so the
 * folder is never left missing.
 */
function placeTree(root: string, change: Extract<Change, { kind: 'tree' }>, movedAway: Extract<Change, { kind: 'move' }> | undefined, activity: string): void {
  const parent = path.posix.dirname(change.path);
  sweepDebris(parent === '.' ? root : resolveInside(root, parent), SKILL_STAGING_PATTERN, 'dir');
  const staging = skillStagingDir(change.path, workId());
  const release = holdWorkPath(resolveIn(root, staging));
  try {
    const staged = stagingWriter(root, staging);
    for (const file of change.files) writeTreeFile(root, staging, staged, file);
    // On the disk before it is in place: a power loss after the rename leaves the files written, never empty ones.
    staged.flush();
    if (movedAway) moveAside(root, movedAway, activity, true);
    try {
      moveInside(root, staging, change.path);
    } catch (error) {
      if (movedAway && !existsInside(root, movedAway.from)) moveInside(root, movedAway.to, movedAway.from);
      throw error;
    }
  } finally {
    removeInside(root, staging);
    release();
  }
}

function moveAside(root: string, change: Extract<Change, { kind: 'move' }>, activity: string, wroteSome: boolean): void {
  if (!existsInside(root, change.from)) throw conflict(change.from, activity, wroteSome);
  moveInside(root, change.from, change.to);
}

/** The move right before a tree change that clears the tree's place: applied with the tree (placeTree). */
function clearsPlaceOf(change: Change | undefined, next: Change | undefined): change is Extract<Change, { kind: 'move' }> {
  return change?.kind === 'move' && next?.kind === 'tree' && next.path === change.from;
}

/** Refuse what applying `plan` would refuse before its first write: a path that leaves the repository. A dry run checks this too. */
export function checkPlanPaths(root: string, plan: Plan): void {
  for (const change of plan.changes) checkInside(root, change);
}

/** Carry out `plan` in `root`; `activity` says what was running ("hiring"), for a conflict's message. */
export function applyPlan(root: string, plan: Plan, activity: string): void {
  const { changes } = plan;
  checkPlanPaths(root, plan);
  const stale = changes.find((change, index) => change.kind === 'replace' && changedSincePlanned(root, change, beforeMoves(changes.slice(0, index), change.path)));
  if (stale && stale.kind === 'replace') throw conflict(stale.path, activity, false);
  changes.forEach((change, index) => {
    const wroteSome = index > 0;
    switch (change.kind) {
      case 'create':
        writeFileAtomic(root, change.path, change.content, { ...(change.mode === undefined ? {} : { mode: change.mode }), exclusive: true });
        return;
      case 'replace':
        if (changedSincePlanned(root, change)) throw conflict(change.path, activity, wroteSome);
        writeFileAtomic(root, change.path, change.content, change.mode === undefined ? {} : { mode: change.mode });
        return;
      case 'backup':
        writeFileAtomic(root, change.path, change.content, { ...(change.mode === undefined ? {} : { mode: change.mode }), exclusive: true });
        return;
      case 'move':
        if (!clearsPlaceOf(change, changes[index + 1])) moveAside(root, change, activity, wroteSome);
        return;
      case 'tree': {
        const previous = changes[index - 1];
        placeTree(root, change, clearsPlaceOf(previous, change) ? previous : undefined, activity);
        return;
      }
      case 'remove':
        removeFileInside(root, change.path);
        return;
    }
  });
}
