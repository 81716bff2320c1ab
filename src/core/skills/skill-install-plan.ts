/**
 * Installing one skill, decided from what was read (skill-install.ts readSkillSource and
 * readInstalledFacts): nothing when the destination holds this very skill already; else the new
 * one placed whole (a `tree` change: staged beside the destination and renamed into place) and the
 * skill it replaces moved whole into the backups (see decideSkillInstall for the order).
 * Pure: no file-system access; fs/apply-plan.ts copies the walked files.
 */
import { SquadError } from '../base/errors.js';
import { backupPathFor, folderTimestamp } from '../base/paths.js';
import type { Change } from '../base/plan.js';
import type { SkillSource } from './skill-install.js';

/** What stands where a skill is to be installed (skill-install.ts readInstalledFacts). */
export interface InstalledFacts {
  /** The destination holds this very skill already, file for file (isInstalledCopy). */
  unchanged: boolean;
  /**
   * The skill being replaced: the destination, or for a team skill, the same skill still in
   * `.ai-team/skills/` (a squad not yet upgraded).
   */
  replaces?: string;
  /** `replaces` is the folder the skill is added from (or inside it). */
  isSource: boolean;
  /** For a team skill, the same skill still in `.ai-team/skills/` (a squad not yet upgraded), if there is one. */
  legacy?: string;
}

export interface InstallPlan {
  /** Repo-relative destination folder. */
  destination: string;
  /** The destination holds this very skill already, file for file: nothing to write, nothing to back up. */
  unchanged?: boolean;
  /** Repo-relative backup folder of the skill being replaced, if any. */
  backup?: string;
  /** The skill being replaced (InstalledFacts.replaces); it moves to `backup`. */
  replaces?: string;
  files: string[];
  /** Symlinks and special files in the source that are not copied. */
  skipped: string[];
  /** `.git` folders and files in the source that are not copied. */
  git: string[];
  /** The new skill placed whole and the replaced one moved to its backup, in the order decideSkillInstall gives; none when unchanged. */
  changes: Change[];
}

/**
 * Decide installing `source` at `destination`. `unchanged`: the skill there is this one already,
 * so nothing is written or backed up (but with `force`, a team skill's old copy left in
 * `.ai-team/skills/`, which an install killed before its last move leaves, goes to the backups).
 * Another skill there is refused without `force` (skill-exists), and replaced (after its backup)
 * with it: the destination is moved aside and the new skill renamed into its place once staged
 * whole; a team skill's old copy in `.ai-team/skills/` moves to the backups only once the new one
 * is in place, so a refused copy leaves it where it was.
 */
export function decideSkillInstall(source: SkillSource, destination: string, installed: InstalledFacts, force: boolean, now: Date): InstallPlan {
  const listed = { files: source.tree.files.map((f) => f.path), skipped: source.tree.skipped, git: source.tree.git };
  const backupOf = (replaced: string) => backupPathFor(folderTimestamp(now), replaced);
  if (installed.unchanged) {
    if (!force || installed.legacy === undefined) return { destination, unchanged: true, ...listed, changes: [] };
    const backup = backupOf(installed.legacy);
    return { destination, unchanged: true, replaces: installed.legacy, backup, ...listed, changes: [{ kind: 'move', from: installed.legacy, to: backup }] };
  }
  const { replaces } = installed;
  if (replaces !== undefined && !force) {
    throw new SquadError('skill-exists', `a skill already exists at ${replaces}`, {
      hint: 'pass --force to replace it (the current one is backed up under .ai-team/backups/ first)',
    });
  }
  if (replaces !== undefined && installed.isSource) {
    throw new SquadError('conflict', `${destination} is the skill being added`, { hint: 'add a skill from a folder outside the squad' });
  }
  const tree: Change = { kind: 'tree', path: destination, files: source.tree.files.map((file) => ({ path: file.path, copy: { dir: source.dir, file } })) };
  if (replaces === undefined) return { destination, ...listed, changes: [tree] };
  const backup = backupOf(replaces);
  const moveAside: Change = { kind: 'move', from: replaces, to: backup };
  // Moved right before the tree that takes its place, the destination is moved back if the rename fails (fs/apply-plan.ts).
  const changes = replaces === destination ? [moveAside, tree] : [tree, moveAside];
  return { destination, replaces, backup, ...listed, changes };
}
