/**
 * Making skills in the original Squad's style standard (skill-migration.ts), decided: what each
 * SKILL.md becomes and where its old text goes, from the files skill-migration.ts
 * readOriginalSkillFiles read. Reads nothing.
 */
import { AI_TEAM_DIR, backupPathFor, folderTimestamp } from '../../base/paths.js';
import type { Change } from '../../base/plan.js';
import { convertOriginalSkill } from './skills.js';

export interface SkillConversion {
  /** The SKILL.md, repo-relative, as it is once the squad is in `.ai-team/`. */
  path: string;
  /** Where its old text goes. */
  backup: string;
  content: string;
  /** Its old text, as read: copied to `backup`, and replaced only while the file still holds it. */
  base: string;
  /** What changes, one short phrase each. */
  changes: string[];
}

/** A skill's SKILL.md and the folder name it must match. */
export interface SkillFile {
  path: string;
  folder: string;
}

/** The `.ai-team/` path of a path in the squad folder `dir`. */
function asAiTeamPath(dir: string, relPath: string): string {
  return relPath.startsWith(`${dir}/`) ? `${AI_TEAM_DIR}${relPath.slice(dir.length)}` : relPath;
}

/** A SKILL.md upgrade may convert, as read: its path in the squad folder, the folder name it must match, and its text. */
export interface OriginalSkillFile extends SkillFile {
  /** Undefined when it is missing or not a readable file. */
  text: string | undefined;
}

/** planOriginalSkillConversions from the files read (readOriginalSkillFiles with the same `dir`): decides without touching the disk. */
export function decideOriginalSkillConversions(files: readonly OriginalSkillFile[], options: { dir?: string; now?: Date } = {}): SkillConversion[] {
  const dir = options.dir ?? AI_TEAM_DIR;
  const timestamp = folderTimestamp(options.now ?? new Date());
  const conversions: SkillConversion[] = [];
  for (const file of files) {
    const { text } = file;
    if (text === undefined) continue;
    const converted = convertOriginalSkill(text, file.folder);
    if (converted === undefined) continue;
    const target = asAiTeamPath(dir, file.path);
    // Backed up by the path it has once the squad is in `.ai-team/`: a dry run before the move names the real run's backup.
    conversions.push({ path: target, backup: backupPathFor(timestamp, target), content: converted.text, base: text, changes: converted.changes });
  }
  return conversions;
}

/** The conversions as the one plan type's changes: for each, the old text backed up, then the new SKILL.md. */
export function conversionChanges(conversions: readonly SkillConversion[]): Change[] {
  return conversions.flatMap((conversion): Change[] => [
    { kind: 'backup', path: conversion.backup, of: conversion.path, content: conversion.base },
    { kind: 'replace', path: conversion.path, content: conversion.content, base: conversion.base },
  ]);
}
