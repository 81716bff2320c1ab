/**
 * Making skills in the original Squad's style standard (skill-migration.ts), decided: what each
 * SKILL.md becomes and where its old text goes, from the files skill-migration.ts
 * readOriginalSkillFiles read. Reads nothing.
 */
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR, backupPathFor, folderTimestamp } from '../../base/paths.js';
import type { Change } from '../../base/plan.js';
import { convertOriginalSkill, redoLegacyConversion, type EarlierOriginal } from './skills.js';
import { markCoordinatorOnly, rewriteSquadPaths } from './stale-paths.js';

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
  /** Its backups, newest first, when it declares MCP servers: an earlier upgrade may have made them from the original's `tools:` (redoLegacyConversion). */
  earlier?: EarlierOriginal[];
}

/** planOriginalSkillConversions from the files read (readOriginalSkillFiles with the same `dir`): decides without touching the disk. */
/**
 * `cameFromSquadDir`: the squad came from `.squad/` (or is moving out of it): the skills' `.squad/`
 * paths are pointed at `.ai-team/` too (stale-paths.ts).
 */
export function decideOriginalSkillConversions(files: readonly OriginalSkillFile[], options: { dir?: string; now?: Date; cameFromSquadDir?: boolean } = {}): SkillConversion[] {
  const dir = options.dir ?? AI_TEAM_DIR;
  const timestamp = folderTimestamp(options.now ?? new Date());
  const conversions: SkillConversion[] = [];
  for (const file of files) {
    const { text } = file;
    if (text === undefined) continue;
    const target = asAiTeamPath(dir, file.path);
    // Made standard, marked coordinator-only (squad-cli's own procedures), its `.squad/` paths pointed at `.ai-team/`: one write (stale-paths.ts).
    const converted = convertOriginalSkill(text, file.folder) ?? redoLegacyConversion(text, file.folder, file.earlier);
    const marked = markCoordinatorOnly(target, converted?.text ?? text);
    const kept = marked?.text ?? converted?.text ?? text;
    const rewritten = options.cameFromSquadDir === true ? rewriteSquadPaths(kept) : { text: kept, count: 0 };
    const changes = [...(converted?.changes ?? []), ...(marked?.changes ?? [])];
    if (rewritten.count > 0) changes.push(`${rewritten.count} ${ORIGINAL_SQUAD_DIR}/ path${rewritten.count === 1 ? '' : 's'} → ${AI_TEAM_DIR}/`);
    if (changes.length === 0) continue;
    // Backed up by the path it has once the squad is in `.ai-team/`: a dry run before the move names the real run's backup.
    conversions.push({ path: target, backup: backupPathFor(timestamp, target), content: rewritten.text, base: text, changes });
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
