/**
 * Making the squad's skills in the original Squad's style standard (convertOriginalSkill), for
 * `upgrade`, and naming them for `doctor`.
 *
 * Where: the squad's team skills (`.ai-team/skills/`, built-in skills left out, `.github/skills/`,
 * where the original's squad-cli also writes, and `.copilot/skills/`, where its `squad import` puts
 * learned skills) and every member's own skills.
 * Skills in `.agents/skills/` and `.claude/skills/` belong to other tools: never written.
 *
 * Each converted SKILL.md is two changes of upgrade's plan (skill-migration-plan.ts
 * conversionChanges): its old text copied to the backups first (exclusive write), then the new
 * text written (atomic replace, only while the file still holds the old text). A run killed
 * between them converts it again on the next upgrade (a second backup under a newer timestamp). A
 * converted skill is standard, so a rerun finds nothing more to do.
 */
import { SquadError } from '../../base/errors.js';
import { readStateText } from '../../fs/confined.js';
import { isDirectory, readDirNames } from '../../fs/fs-safe.js';
import { builtinSkillsIn, installedBuiltinSkillDirs } from '../owned.js';
import { AI_TEAM_DIR, SKILL_FILE, TEAM_SKILLS_DIR, backupPathFor, resolveIn, squadPaths } from '../../base/paths.js';
import { compareCodePoints } from '../../base/util.js';
import type { EarlierOriginal } from './skills.js';
import { COPILOT_SKILLS_DIR } from './stale-paths.js';
import { decideOriginalSkillConversions, type OriginalSkillFile, type SkillConversion, type SkillFile } from './skill-migration-plan.js';

export { conversionChanges, decideOriginalSkillConversions, type OriginalSkillFile, type SkillConversion } from './skill-migration-plan.js';

/**
 * The SKILL.md files upgrade may convert, in the squad folder `dir` (`.ai-team`, or `.squad` before
 * the move: paths are then given as they will be in `.ai-team/`).
 */
function squadSkillFiles(root: string, dir: string): SkillFile[] {
  const builtinDirs = installedBuiltinSkillDirs(root);
  // A folder of the squad's skills folder named like a built-in is that built-in.
  const builtins = new Set(builtinDirs.keys());
  const inDir = (relDir: string, skip: ReadonlySet<string> = new Set()) =>
    readDirNames(resolveIn(root, relDir))
      .filter((folder) => !skip.has(folder) && isDirectory(resolveIn(root, `${relDir}/${folder}`)))
      .map((folder) => ({ path: `${relDir}/${folder}/${SKILL_FILE}`, folder }));
  const agentsDir = `${dir}/agents`;
  return [
    ...inDir(`${dir}/skills`, builtins),
    ...inDir(TEAM_SKILLS_DIR, builtinSkillsIn(builtinDirs, TEAM_SKILLS_DIR)),
    ...inDir(COPILOT_SKILLS_DIR),
    ...readDirNames(resolveIn(root, agentsDir)).flatMap((agent) => inDir(`${agentsDir}/${agent}/skills`)),
  ];
}

/** Read the SKILL.md files upgrade may convert, in the squad folder `dir` (default `.ai-team`). */
export function readOriginalSkillFiles(root: string, dir: string = AI_TEAM_DIR): OriginalSkillFile[] {
  return squadSkillFiles(root, dir).flatMap((file) => {
    const text = readUnlessOutside(root, file.path);
    return text === OUTSIDE ? [] : [{ ...file, text, ...earlierOriginals(root, dir, file.path, text) }];
  });
}

const OUTSIDE = Symbol('outside the repository');

/**
 * A skill that leads outside the repository is neither read nor converted: upgrade never writes it,
 * so it must not refuse to run over it (discovery and doctor report it).
 */
function readUnlessOutside(root: string, relPath: string): string | undefined | typeof OUTSIDE {
  try {
    return readStateText(root, relPath);
  } catch (error) {
    if (error instanceof SquadError && error.code === 'unsafe-path') return OUTSIDE;
    throw error;
  }
}

/**
 * The backups of a SKILL.md that declares MCP servers, newest first: an earlier upgrade converted
 * the original's `tools:` into `metadata.mcp-servers` and backed up the original text, at this path
 * or at `.ai-team/skills/` before the skill moved to `.github/skills/`. Only in `.ai-team/`.
 */
function earlierOriginals(root: string, dir: string, relPath: string, text: string | undefined): { earlier?: EarlierOriginal[] } {
  if (dir !== AI_TEAM_DIR || text === undefined || !text.includes('mcp-servers')) return {};
  const candidates = [relPath, ...(relPath.startsWith(`${TEAM_SKILLS_DIR}/`) ? [`${AI_TEAM_DIR}/skills/${relPath.slice(TEAM_SKILLS_DIR.length + 1)}`] : [])];
  const timestamps = readDirNames(resolveIn(root, squadPaths.backups)).sort(compareCodePoints).reverse();
  const earlier = timestamps.flatMap((timestamp) =>
    candidates.flatMap((candidate) => {
      const backup = backupPathFor(timestamp, candidate);
      const found = readBackupQuietly(root, backup);
      return found === undefined ? [] : [{ backup, text: found }];
    }),
  );
  return earlier.length > 0 ? { earlier } : {};
}

/** A backup's text; undefined when it cannot be read (missing, too large, a link out): it then tells nothing. */
function readBackupQuietly(root: string, relPath: string): string | undefined {
  try {
    return readStateText(root, relPath);
  } catch {
    return undefined;
  }
}

/** Every skill in the original Squad's style, and what it becomes. Reads only. */
export function planOriginalSkillConversions(root: string, options: { dir?: string; now?: Date } = {}): SkillConversion[] {
  return decideOriginalSkillConversions(readOriginalSkillFiles(root, options.dir ?? AI_TEAM_DIR), options);
}

/** Whether a skill location is one upgrade converts (the squad's own folders, not other tools'). */
export function isConvertedLocation(location: string): boolean {
  return [squadPaths.root, TEAM_SKILLS_DIR, COPILOT_SKILLS_DIR].some((dir) => location.startsWith(`${dir}/`));
}
