/**
 * Name rules: the single source for what a skill name and an agent folder name may be.
 *
 * Skill names follow the Agent Skills standard: 1–64 characters, lowercase ASCII letters, digits
 * and hyphens, no leading or trailing hyphen, no `--`. Agent folder names use the same alphabet,
 * so one rule serves both. A name that becomes a folder must also not be a device name Windows
 * reserves (`con`, `aux`, `com1`, …): such a squad could not be checked out or exported there.
 */
import { controlCharacterProblem, quoted } from './util.js';

export const MAX_NAME_LENGTH = 64;
export const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface NameProblem {
  code: 'name-empty' | 'name-too-long' | 'name-uppercase' | 'name-invalid-chars' | 'name-edge-hyphen' | 'name-double-hyphen';
  message: string;
}

/** Every rule `name` breaks, in a stable order; empty when the name is valid. */
export function nameProblems(name: string, what = 'name'): NameProblem[] {
  if (name.length === 0) return [{ code: 'name-empty', message: `${what} is empty` }];
  const problems: NameProblem[] = [];
  if (name.length > MAX_NAME_LENGTH) {
    problems.push({
      code: 'name-too-long',
      message: `${what} is ${name.length} characters; the limit is ${MAX_NAME_LENGTH}`,
    });
  }
  if (name !== name.toLowerCase()) {
    problems.push({ code: 'name-uppercase', message: `${what} ${quoted(name)} must be lowercase` });
  }
  if (/[^a-zA-Z0-9-]/.test(name)) {
    problems.push({
      code: 'name-invalid-chars',
      message: `${what} ${quoted(name)} may only contain lowercase letters a-z, digits and hyphens`,
    });
  }
  if (name.startsWith('-') || name.endsWith('-')) {
    problems.push({
      code: 'name-edge-hyphen',
      message: `${what} ${quoted(name)} must not start or end with a hyphen`,
    });
  }
  if (name.includes('--')) {
    problems.push({
      code: 'name-double-hyphen',
      message: `${what} ${quoted(name)} must not contain consecutive hyphens`,
    });
  }
  return problems;
}

export function isValidName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && NAME_PATTERN.test(name);
}

/** Device names Windows reserves, with or without an extension (`aux.txt` too). */
export const WINDOWS_DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(?:\.|$)/i;

/**
 * Why `name` cannot be an agent or skill folder name, or undefined: the first name rule it breaks,
 * or a device name Windows reserves. Every command that makes such a folder, and the .squad
 * format, use this one rule.
 */
export function folderNameProblem(name: string, what = 'name'): string | undefined {
  const [problem] = nameProblems(name, what);
  if (problem) return problem.message;
  return WINDOWS_DEVICE_NAME.test(name) ? `${what} "${name}" is a device name Windows reserves` : undefined;
}

/**
 * Why a member's name (as `hire --name` gives it) cannot be used, said of the name: a control
 * character, a path separator, or a folder name (its slug) that folderNameProblem refuses. A name
 * with no letter or digit (no slug) is left to the caller.
 */
export function memberNameProblem(displayName: string): string | undefined {
  const control = controlCharacterProblem(displayName);
  if (control) return control;
  if (/[/\\]/.test(displayName)) return 'contains a path separator (/ or \\)';
  const folder = slugify(displayName);
  const problem = folder === '' ? undefined : folderNameProblem(folder, 'its folder name');
  return problem === undefined ? undefined : `cannot be used: ${problem}`;
}

/**
 * Turn free text into a valid name: ASCII-folds accents, lowercases, joins words with hyphens,
 * trims to `maxLength` on a word boundary. Returns '' when nothing usable is left.
 */
export function slugify(text: string, maxLength = MAX_NAME_LENGTH): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > maxLength) {
      if (!slug) slug = word.slice(0, maxLength);
      break;
    }
    slug = next;
  }
  return slug;
}
