/**
 * The rule for the path of a file inside a skill, one source for the door and for what comes after
 * it: `skills add` refuses a skill whose files `export` could not carry (checkSkillFilePaths), and
 * `export` and `import` hold every path to the same rule (portable/squad-files.ts re-exports it).
 */
import { SquadError } from '../base/errors.js';
import { SKILL_MAX_FILES, SKILL_PATH_MAX_CHARS, SKILL_PATH_SEGMENT_MAX_BYTES } from '../base/limits.js';
import { WINDOWS_DEVICE_NAME } from '../base/names.js';
import { controlCharacterProblem, quoted } from '../base/util.js';
import { relativePathProblem } from '../fs/fs-safe.js';

/** The limits a skill's paths are held to (a `.squad` document's limits are a superset). */
export interface SkillPathLimits {
  pathLength: number;
  segmentBytes: number;
}

export const SKILL_PATH_LIMITS: Readonly<SkillPathLimits> = Object.freeze({ pathLength: SKILL_PATH_MAX_CHARS, segmentBytes: SKILL_PATH_SEGMENT_MAX_BYTES });

/** Characters Windows refuses in a file name (besides `/`, `\\` and control characters). */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/** Why one segment of a path (or a name) cannot be a file name on Windows, or undefined. */
function windowsSegmentProblem(segment: string): string | undefined {
  const forbidden = WINDOWS_FORBIDDEN.exec(segment);
  if (forbidden) return `${forbidden[0] === '"' ? `'"'` : `"${forbidden[0]}"`} is a character Windows does not allow in file names`;
  if (WINDOWS_DEVICE_NAME.test(segment)) return `"${segment}" is a device name Windows reserves`;
  if (/[. ]$/.test(segment)) return `"${segment}" ends with a dot or a space, which Windows drops`;
  return undefined;
}

/**
 * Why a path inside a skill is unacceptable, or undefined. Adds to the repository path rules
 * (empty, NUL, backslash, absolute, `..`, empty or `.` segments): a drive letter as a segment
 * (`x/C:/y`), control characters, a `.git` folder, what Windows refuses (`<>:"|?*`, device names
 * such as `CON` or `aux.txt`, a trailing dot or space), and length limits.
 */
export function skillPathProblem(relPath: string, limits: SkillPathLimits = SKILL_PATH_LIMITS): string | undefined {
  // A name such as "a:b" is no drive (only "C:" and "C:/…" are): it is refused below for its ":".
  const base = relativePathProblem(relPath.replace(/^([a-zA-Z]):(?!\/|$)/, '$1_'));
  if (base) return base;
  if (relPath.length > limits.pathLength) return `the path is ${relPath.length} characters; the limit is ${limits.pathLength}`;
  if (controlCharacterProblem(relPath)) return 'the path contains a control character';
  for (const segment of relPath.split('/')) {
    if (/^[a-zA-Z]:$/.test(segment)) return 'the path contains a drive letter';
    if (segment.toLowerCase() === '.git') return 'the path contains a .git folder';
    const windows = windowsSegmentProblem(segment);
    if (windows) return `the path is not portable: ${windows}`;
    if (Buffer.byteLength(segment) > limits.segmentBytes) return `a path segment is longer than ${limits.segmentBytes} bytes`;
  }
  return undefined;
}

/**
 * The key under which two names or paths count as the same: Unicode NFC, case ignored, trailing
 * dots and spaces of each segment dropped (as Windows drops them).
 */
export function normalizedKey(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[. ]+(?=\/|$)/g, '');
}

/** The first file of a skill that breaks the rules, why, and how many others do too; no path when there are too many files. */
export interface SkillPathsVerdict {
  path?: string;
  problem: string;
  others: number;
}

/**
 * Judge every file of a skill (skill-relative paths, SKILL.md included) as export and import would:
 * at most `maxFiles` of them, each path by skillPathProblem, no two the same once case and Unicode
 * normalisation are ignored. Undefined when all pass. Pure.
 */
export function judgeSkillFilePaths(paths: readonly string[], maxFiles: number = SKILL_MAX_FILES, limits: SkillPathLimits = SKILL_PATH_LIMITS): SkillPathsVerdict | undefined {
  if (paths.length > maxFiles) return { problem: `it has ${paths.length} files; a skill holds at most ${maxFiles}`, others: 0 };
  const bad: { path: string; problem: string }[] = [];
  const seen = new Map<string, string>();
  for (const relPath of paths) {
    const problem = skillPathProblem(relPath, limits);
    if (problem) {
      bad.push({ path: relPath, problem });
      continue;
    }
    const key = normalizedKey(relPath);
    const twin = seen.get(key);
    if (twin !== undefined) bad.push({ path: relPath, problem: `the same file as ${quoted(twin)} once case and Unicode normalisation are ignored` });
    else seen.set(key, relPath);
  }
  const [first] = bad;
  return first === undefined ? undefined : { ...first, others: bad.length - 1 };
}

/**
 * Refuse a skill (shown as `given`) whose files (skill-relative paths) export could not carry, before anything is
 * written: invalid-input naming the first offending path (escaped to one line) and how many
 * other files break the rules too.
 */
export function checkSkillFilePaths(given: string, files: readonly { path: string }[], maxFiles: number = SKILL_MAX_FILES): void {
  const verdict = judgeSkillFilePaths(
    files.map((file) => file.path),
    maxFiles,
  );
  if (!verdict) return;
  const where = verdict.path === undefined ? given : `${given}/${quoted(verdict.path).slice(1, -1)}`;
  const others = verdict.others === 0 ? '' : ` (and ${verdict.others} other file${verdict.others === 1 ? '' : 's'})`;
  throw new SquadError('invalid-input', `${where}: ${verdict.problem}${others}`, {
    hint:
      verdict.path === undefined
        ? 'split the skill, or leave out files it does not need; export and import refuse more; nothing was written'
        : 'rename or remove those files so every system can hold them (export and import refuse them too); nothing was written',
  });
}
