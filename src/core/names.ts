/**
 * Name rules: the single source for what a skill name and an agent folder name may be.
 *
 * Skill names follow the Agent Skills standard: 1–64 characters, lowercase ASCII letters, digits
 * and hyphens, no leading or trailing hyphen, no `--`. Agent folder names (SPEC §2) use the same
 * alphabet, so one rule serves both.
 */
import { quoted } from './util.js';

export const MAX_NAME_LENGTH = 64;
export const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface NameProblem {
  code:
    | 'name-empty'
    | 'name-too-long'
    | 'name-uppercase'
    | 'name-invalid-chars'
    | 'name-edge-hyphen'
    | 'name-double-hyphen';
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
