/**
 * User-taught skills: "Fenster should know we always use Tailwind CSS" becomes a standard skill
 * folder with `metadata.author: user-taught`.
 */
import { SquadError, usageError } from './errors.js';
import { MAX_NAME_LENGTH, isValidName, nameProblems, slugify } from './names.js';
import { parseSkill } from './skill.js';
import { renderTemplate } from './templates.js';
import { MAX_DESCRIPTION_LENGTH, validateSkill } from './validate.js';

export const TAUGHT_SKILL_AUTHOR = 'user-taught';
export const TAUGHT_SKILL_VERSION = '1.0';
export const TAUGHT_SKILL_TEMPLATE = 'teach/SKILL.md.hbs';

/** Words that carry no topic; left out when a name is derived from the instruction. */
const FILLER_WORDS = new Set(
  ('a an the and or but of to for in on at by with from into as is are be been was were it its this that these those ' +
    'we our us you your they their he she his her i me my should must shall will would can could may might ' +
    'always use uses using used know knows knowing remember please make sure do does prefer prefers when whenever ' +
    'every all any each so then than also just only about team everyone agent agents follow follows following')
    .split(' '),
);

const MAX_DERIVED_WORDS = 4;

/** A skill name from an instruction: its first few topic words, hyphenated. */
export function deriveSkillName(instruction: string): string {
  const words = slugify(instruction, 1000).split('-').filter(Boolean);
  const topical = words.filter((word) => !FILLER_WORDS.has(word));
  const chosen = (topical.length > 0 ? topical : words).slice(0, MAX_DERIVED_WORDS);
  return slugify(chosen.join(' '), MAX_NAME_LENGTH);
}

export interface TaughtSkillInput {
  instruction: string;
  /** Explicit skill name (`--name`); derived from the instruction when absent. */
  name?: string;
  /** Agent display name, or undefined for a team-wide skill. */
  agentDisplayName?: string;
  date?: Date;
}

export interface TaughtSkill {
  name: string;
  description: string;
  content: string;
}

/** Build the SKILL.md of a taught skill. Throws a usage error for an empty instruction or a bad name. */
export async function buildTaughtSkill(input: TaughtSkillInput): Promise<TaughtSkill> {
  const instruction = input.instruction.trim();
  if (!instruction) throw usageError('the instruction is empty', 'say what to teach, e.g. teach fenster "always use Tailwind CSS"');

  const name = input.name ?? deriveSkillName(instruction);
  if (!name) {
    throw usageError('cannot derive a skill name from that instruction', 'pass one with --name <slug>');
  }
  const problems = nameProblems(name, 'skill name');
  if (problems.length > 0) {
    throw usageError(problems.map((p) => p.message).join('; '), 'use lowercase letters, digits and single hyphens, e.g. --name tailwind-css');
  }

  const firstLine = instruction.split(/\r?\n/)[0]!.trim();
  const title = firstLine.length > 80 ? `${firstLine.slice(0, 79).trimEnd()}…` : firstLine;
  const date = (input.date ?? new Date()).toISOString().slice(0, 10);
  const sentence = instruction.replace(/\s+/g, ' ');
  const description = truncate(
    `User-taught rule: ${/[.!?]$/.test(sentence) ? sentence : `${sentence}.`} Apply it whenever a task touches ${name.replace(/-/g, ' ')}.`,
    MAX_DESCRIPTION_LENGTH,
  );
  const content = await renderTemplate(TAUGHT_SKILL_TEMPLATE, {
    name,
    description,
    title: title.charAt(0).toUpperCase() + title.slice(1),
    instruction,
    date,
    author: TAUGHT_SKILL_AUTHOR,
    version: TAUGHT_SKILL_VERSION,
    agent: input.agentDisplayName,
  });

  // The template is ours; a skill it renders must pass our own validator.
  const check = validateSkill({ ...parseSkill(content), dirName: name });
  if (!check.valid || !isValidName(name)) {
    throw new SquadError('SKILL_INVALID', `internal error: the taught skill is invalid (${check.errors.map((e) => e.message).join('; ')})`);
  }
  return { name, description, content };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
