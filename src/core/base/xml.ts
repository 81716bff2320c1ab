/**
 * XML text for prompts: escaping, and the `<available_skills>` block of the Agent Skills standard.
 *
 * Whatever a skill's name, description or path contains (`&`, `<`, `</available_skills>`, quotes,
 * control characters, bidi controls, lone surrogates, any script), the block stays well-formed XML
 * 1.0 and shows its reader what the model gets: markup characters are escaped, controls and hidden
 * characters show as escapes by the prompt's one rule (visible-text.ts), what XML 1.0 forbids beyond
 * them (non-characters, lone surrogates) becomes U+FFFD, and line breaks are folded so every
 * `<skill>` stays on one line.
 */

import { foldLines } from './util.js';
import { HIDDEN_CANDIDATE_CLASS, visibleText } from './visible-text.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const TEXT_MARKUP = /[&<>]/g;
const ATTRIBUTE_MARKUP = /[&<>"']/g;

/**
 * Characters XML 1.0 does not allow in a document that visibleText leaves: the non-characters U+FFFE
 * and U+FFFF, and unpaired surrogates (the C0 controls it forbids are escaped before).
 */
const FORBIDDEN = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escape text for XML. Element content needs only `&`, `<` and `>` escaped (quotes stay readable,
 * which matters in a prompt); attribute values also get their quotes escaped. Controls and hidden
 * characters show as their escapes (visibleText), which are plain ASCII and valid XML.
 */
export function escapeXml(text: string, options: { attribute?: boolean } = {}): string {
  const markup = options.attribute ? ATTRIBUTE_MARKUP : TEXT_MARKUP;
  return visibleText(text)
    .replace(FORBIDDEN, '\uFFFD')
    .replace(markup, (ch) => ESCAPES[ch]!);
}

/** Anything escapeXmlLine would change besides trimming: markup, line breaks, surrogates, non-characters, controls and hidden characters. */
const NEEDS_ESCAPING = new RegExp(`[&<>\\r\\n\\u0085\\uD800-\\uDFFF\\uFFFE\\uFFFF${HIDDEN_CANDIDATE_CLASS}]`);

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
