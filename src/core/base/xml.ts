/**
 * XML text for prompts: escaping, and the `<available_skills>` block of the Agent Skills standard.
 *
 * Whatever a skill's name, description or path contains (`&`, `<`, `</available_skills>`, quotes,
 * control characters, lone surrogates, any script), the block stays well-formed XML 1.0: markup
 * characters are escaped, characters XML 1.0 forbids become U+FFFD, and line breaks are folded so
 * every `<skill>` stays on one line.
 */

import { foldLines } from './util.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const TEXT_MARKUP = /[&<>]/g;
const ATTRIBUTE_MARKUP = /[&<>"']/g;

/**
 * Characters XML 1.0 does not allow in a document: C0 controls other than tab, LF and CR, the
 * non-characters U+FFFE and U+FFFF, and unpaired surrogates.
 */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escape text for XML. Element content needs only `&`, `<` and `>` escaped (quotes stay readable,
 * which matters in a prompt); attribute values also get their quotes escaped.
 */
export function escapeXml(text: string, options: { attribute?: boolean } = {}): string {
  const markup = options.attribute ? ATTRIBUTE_MARKUP : TEXT_MARKUP;
  return text.replace(FORBIDDEN, '\uFFFD').replace(markup, (ch) => ESCAPES[ch]!);
}

/** Anything escapeXmlLine would change besides trimming: markup, line breaks, forbidden characters. */
const NEEDS_ESCAPING = /[&<>\r\n\u2028\u2029\u0085\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Escape element text and fold every run of whitespace holding a line break into one space (foldLines). */
export function escapeXmlLine(text: string): string {
  // Most names, descriptions and paths hold none of these: skip the replacements (1,000 skills add up).
  if (!NEEDS_ESCAPING.test(text)) return text.trim();
  return escapeXml(foldLines(text));
}

/** What `<available_skills>` shows of one skill. */
export interface SkillSummary {
  name: string;
  description: string;
  /** Repo-relative path of SKILL.md, forward slashes. */
  location: string;
}

export const AVAILABLE_SKILLS_TAG = 'available_skills';

/** The markup around a `<skill>` entry's three values, in order. */
const ENTRY_MARKUP = ['<skill><name>', '</name><description>', '</description><location>', '</location></skill>'] as const;
const ENTRY_MARKUP_LENGTH = ENTRY_MARKUP.join('').length;

/** One `<skill>` entry on one line. */
export function skillEntry(skill: SkillSummary): string {
  return ENTRY_MARKUP[0] + escapeXmlLine(skill.name) + ENTRY_MARKUP[1] + escapeXmlLine(skill.description) + ENTRY_MARKUP[2] + escapeXmlLine(skill.location) + ENTRY_MARKUP[3];
}

/** `skillEntry(skill).length`, without building the entry (a budget weighs every skill of a squad). */
export function skillEntryLength(skill: SkillSummary): number {
  return ENTRY_MARKUP_LENGTH + escapeXmlLine(skill.name).length + escapeXmlLine(skill.description).length + escapeXmlLine(skill.location).length;
}

/**
 * The `<available_skills>` block: the opening and closing tags on lines of their own, one compact
 * `<skill>` per line in the order given. Empty string for no skills (no skills, no block).
 */
export function renderAvailableSkills(skills: readonly SkillSummary[]): string {
  if (skills.length === 0) return '';
  const lines = [`<${AVAILABLE_SKILLS_TAG}>`];
  for (const skill of skills) lines.push(skillEntry(skill));
  lines.push(`</${AVAILABLE_SKILLS_TAG}>`);
  return lines.join('\n');
}
