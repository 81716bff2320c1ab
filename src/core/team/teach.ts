/**
 * User-taught skills: a procedure the user teaches ("When you release: bump the version, tag it,
 * then …") becomes a standard skill folder with `metadata.author: user-taught`, whose description
 * names the tasks it is for. Standing rules ("always use tabs") are not skills: standing-rules.ts.
 * `decideTeach` works out the skill, where it goes and the members' agents that list it, from what
 * teach-state.ts `readTeachState` read (no disk access here); the plan is one list of changes. The
 * instruction loses its control characters and is held to TAUGHT_PROCEDURE_MAX_BYTES
 * (base/limits.ts), as a rule is to its own limit.
 */
import { replay, type DiskFacts, type Recorded } from '../base/disk-facts.js';
import type { Change, Plan } from '../base/plan.js';
import type { PendingSkill } from '../squad/agents/profile-input.js';
import { decideMemberProfiles, profileChanges, type ProfilePlan, type ProfileState } from '../squad/agents/profile-sync.js';
import { SquadError, usageError } from '../base/errors.js';
import { MAX_NAME_LENGTH, folderNameProblem, slugify } from '../base/names.js';
import { SKILL_FILE } from '../base/paths.js';
import type { Agent } from '../roster/roster.js';
import { requireInstructionContent, safeInstructionText } from './standing-rules.js';
import { TAUGHT_PROCEDURE_MAX_BYTES, bytesText } from '../base/limits.js';
import { skillDestination } from '../skills/skill-install.js';
import { parseSkill } from '../skills/skill.js';
import { renderTemplate } from '../fs/templates.js';
import { MAX_DESCRIPTION_LENGTH, validateSkill } from '../skills/validate.js';

export const TAUGHT_SKILL_AUTHOR = 'user-taught';
export const TAUGHT_SKILL_VERSION = '1.0';
export const TAUGHT_SKILL_TEMPLATE = 'teach/SKILL.md.hbs';
/** The one-sentence description of a taught skill. */
export const TAUGHT_DESCRIPTION_TEMPLATE = 'teach/description.hbs';

/** Words that carry no topic; left out when a name is derived from the instruction. */
const FILLER_WORDS = new Set(
  (
    'a an the and or but of to for in on at by with from into as is are be been was were it its this that these those ' +
    'we our us you your they their he she his her i me my should must shall will would can could may might ' +
    'always use uses using used know knows knowing remember please make sure do does prefer prefers when whenever ' +
    'every all any each so then than also just only about team everyone agent agents follow follows following don dont t'
  ).split(' '),
);

const MAX_DERIVED_WORDS = 4;

/** A skill name from an instruction: its first few topic words, hyphenated. */
export function deriveSkillName(instruction: string): string {
  const words = slugify(instruction, 1000).split('-').filter(Boolean);
  const topical = words.filter((word) => !FILLER_WORDS.has(word));
  const chosen = (topical.length > 0 ? topical : words).slice(0, MAX_DERIVED_WORDS);
  return slugify(chosen.join(' '), MAX_NAME_LENGTH);
}

/** The name a taught skill gets: `--name`, else one derived from the (cleaned) instruction. */
export function taughtSkillName(instruction: string, name: string | undefined): string {
  return name ?? deriveSkillName(safeInstructionText(instruction).trim());
}

/** Where a taught skill goes: the member's skills, or the team's (where the reserved prefix is refused). */
export function taughtSkillDir(name: string, agent: string | undefined): string {
  return skillDestination(name, agent, 'choose another name with --name');
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
  const instruction = safeInstructionText(input.instruction).trim();
  requireInstructionContent(instruction);
  const bytes = Buffer.byteLength(instruction);
  if (bytes > TAUGHT_PROCEDURE_MAX_BYTES) {
    throw new SquadError('invalid-input', `the instruction is ${bytesText(bytes)}; a taught skill holds at most ${bytesText(TAUGHT_PROCEDURE_MAX_BYTES)}`, {
      hint: 'shorten it, or write the skill as a folder (SKILL.md and references) and add it with "create-squad skills add"; nothing was written',
    });
  }

  const name = taughtSkillName(instruction, input.name);
  if (!name) {
    throw usageError('cannot derive a skill name from that instruction', 'pass one with --name <slug>');
  }
  const problem = folderNameProblem(name, 'skill name');
  if (problem) throw usageError(problem, 'use lowercase letters, digits and single hyphens, e.g. --name tailwind-css');

  const firstLine = instruction.split(/\r?\n/)[0]!.trim();
  const title = firstLine.length > 80 ? `${firstLine.slice(0, 79).trimEnd()}…` : firstLine;
  const date = (input.date ?? new Date()).toISOString().slice(0, 10);
  const sentence = instruction.replace(/\s+/g, ' ');
  const rule = /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
  const trigger = taskTrigger(sentence);
  const description = truncate(
    (await renderTemplate(TAUGHT_DESCRIPTION_TEMPLATE, { rule, topic: name.replace(/-/g, ' '), ...(trigger ? { trigger } : {}) })).trim(),
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
  if (!check.valid) {
    throw new SquadError('skill-invalid', `internal error: the taught skill is invalid (${check.errors.map((e) => e.message).join('; ')})`);
  }
  return { name, description, content };
}

/**
 * The task an instruction names when it opens with one ("When you deploy, …", "Before a release,
 * …", "For database migrations, …"): "when you deploy". Undefined when it opens otherwise.
 */
export function taskTrigger(sentence: string): string | undefined {
  const match = /^(when|whenever|before|after|for|if)\s+([^,.;:!?]{3,80})[,:]/i.exec(sentence.trim());
  if (!match) return undefined;
  return `${match[1]!.toLowerCase()} ${match[2]!.trim()}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

export interface TeachOptions {
  instruction: string;
  /** Explicit skill name (`--name`); derived from the instruction when absent. */
  name?: string;
  /** The agent to teach (folder or roster name); the whole team when absent. */
  agent?: string;
  /** The day the skill is taught, and the time that names a backup of an edited agent (default: now). */
  date?: Date;
}

/** What teaching a skill decides from (teach-state.ts readTeachState), read once. */
export interface TeachState {
  root: string;
  /** The taught agent (the one `agent` named); undefined for a team skill. */
  agent?: Agent;
  /** Who gets a Copilot agent and the skills they see, or what reading them threw. */
  profiles: Recorded<ProfileState>;
  /**
   * The skill folder the read step derived from the instruction (or `--name`), and whether it stays
   * inside the repository; undefined when no folder can be derived (the decision says why).
   */
  destination?: { dir: string; inside: Recorded<unknown> };
  /** That folder and its SKILL.md, and the members' agents, as the disk answered. */
  disk: DiskFacts;
  /** The create-squad version the agents are stamped with. */
  version: string;
}

export interface TeachPlan extends Plan {
  root: string;
  skill: TaughtSkill;
  /** The taught agent; undefined for a team skill. */
  agent?: Agent;
  /** Repo-relative skill folder and SKILL.md. */
  dir: string;
  path: string;
  /** The members' Copilot agents, planned with the skill in place. */
  profile: ProfilePlan;
  /**
   * The agents first, then the skill (a new file, created exclusively): a teach killed in between
   * is finished by the next one, which finds the agents in step and the skill missing.
   */
  changes: Change[];
}

/**
 * Decide teaching a skill from what was read: a team skill may not take the reserved `squad-`
 * prefix, and an existing skill of the same name is never replaced. A skill is there when its
 * SKILL.md is: the folder alone (what a teach killed before its write leaves, perhaps with a
 * temporary file) is finished by the next teach. No disk access.
 */
export async function decideTeach(state: TeachState, options: TeachOptions): Promise<TeachPlan> {
  const { root, agent, disk } = state;
  const skill = await buildTaughtSkill({
    instruction: options.instruction,
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(agent ? { agentDisplayName: agent.displayName } : {}),
    ...(options.date === undefined ? {} : { date: options.date }),
  });
  const dir = taughtSkillDir(skill.name, agent?.name);
  if (state.destination?.dir !== dir) throw new Error(`internal error: the read step did not read ${dir}`);
  replay(state.destination.inside); // refuses a folder leading out of the repository
  if (disk.exists(dir) && !disk.isDirectory(dir)) {
    throw new SquadError('file-exists', `${dir} is in the way: it is not a skill folder`, {
      hint: 'pick another name with --name, or move that file aside',
    });
  }
  const path = `${dir}/${SKILL_FILE}`;
  if (disk.exists(path)) {
    throw new SquadError('skill-exists', `a skill named "${skill.name}" already exists at ${dir}`, {
      hint: 'pick another name with --name, or edit that SKILL.md to extend it',
    });
  }
  const profiles = replay(state.profiles);
  // The member's agent for one of its own skills, every active member's for a team skill.
  const members = agent === undefined ? profiles.members.map((member) => member.folder) : [agent.name];
  const profile = await decideMemberProfiles(disk, profiles, {
    pending: [taughtSkill(agent?.name, skill, path)],
    members,
    version: state.version,
    ...(options.date === undefined ? {} : { now: options.date }),
  });
  return {
    root,
    skill,
    ...(agent ? { agent } : {}),
    dir,
    path,
    profile,
    changes: [...profileChanges(profile), { kind: 'create', path, content: skill.content }],
  };
}

/** A taught skill as the members' agents see it. */
function taughtSkill(agent: string | undefined, skill: TaughtSkill, path: string): PendingSkill {
  return {
    ...(agent === undefined ? {} : { agent }),
    dirName: skill.name,
    name: skill.name,
    description: skill.description,
    location: path,
    mcpServers: [],
    disableModelInvocation: false,
  };
}
