/**
 * Spawn prompts: the text the coordinator gives Copilot's task tool to start one member.
 *
 * standard:    identity → charter (with the member's standing rules) → the team's standing rules → <available_skills> → MCP requirements → history and decisions
 *              pointers → after-work instructions → task. Skills are listed from frontmatter only,
 *              within a token budget (skill-budget.ts) that lifts only on request.
 * lightweight: identity → standing rules (the team's, the member's) → the relevant skills' bodies inlined → the other candidate skills, one
 *              line each → their MCP requirements → task → a one-line history note afterwards.
 *              Refused (standard instead) for architecture decisions, multi-agent work, or when no
 *              skill clearly wins (skillConfidence).
 *
 * Read, decide, read what was decided, render: readSpawnState (spawn-read.ts) reads the member, its
 * skills' frontmatter, its charter and the team's rules; decideSpawn picks the mode, the skills and
 * the listing within the budget; readSpawnSelection reads only what that selected (the bodies a
 * lightweight spawn inlines, the MCP configuration when a shown skill declares a server);
 * renderSpawnPrompt builds the prompt from those values. The decision and the render never touch
 * the disk. Every string the render returns (the prompt, its parts, what --json reports) shows
 * terminal controls and hidden characters from files as escapes (base/visible-text.ts).
 */
import type { DiscoveredSkill, Discovery } from '../squad/discover.js';
import type { Agent } from '../roster/roster.js';
import { usageError } from '../base/errors.js';
import { warning, type Warning } from '../base/warnings.js';
import { normalizeNewlines } from '../skills/frontmatter.js';
import { collectMcpRequirements, renderMcpBlock, type McpConfigSource, type McpRequirementRow } from '../skills/mcp.js';
import { MAX_NAME_LENGTH } from '../base/names.js';
import { agentSkillsDir, charterPath, decisionInboxPath, historyPath, squadPaths } from '../base/paths.js';
import { TEAM_RULES_PATH, standingRulesOf, type StandingRules } from '../team/standing-rules.js';
import { detectBroadTask, otherMemberNames, promptableSkills } from '../squad/route.js';
import { DEFAULT_SKILLS_BUDGET } from '../base/prompt-limits.js';
import { selectListedSkills, type LeftOutReason, type SkillListing } from './skill-budget.js';
import { activatedSkills, rankSkills, skillConfidence } from '../squad/skill-rank.js';
import type { SynonymTable } from '../base/text-match.js';
import { DEFAULT_SPAWN_MODE, type SpawnMode } from '../base/spawn-modes.js';
import { renderTemplate } from '../fs/templates.js';
import { hintCommand } from '../base/cli-invocation.js';
import { estimateTokens } from '../base/tokens.js';
import { MAX_BODY_LINES, MAX_DESCRIPTION_LENGTH } from '../skills/validate.js';
import { renderAvailableSkills } from '../base/xml.js';
import { visibleValues } from '../base/visible-text.js';
import { readSpawnSelection, readSpawnState, type SpawnSelection, type SpawnState } from './spawn-read.js';

export { MAX_INLINED_SKILL_BYTES } from './spawn-read.js';

export const SPAWN_TEMPLATES: Record<SpawnMode, string> = {
  standard: 'prompts/spawn-standard.md.hbs',
  lightweight: 'prompts/spawn-lightweight.md.hbs',
};

/** A lightweight prompt lists at most this many other candidate skills, one line each. */
export const MAX_LIGHTWEIGHT_CANDIDATES = 5;

const DEFAULT_ROLE = 'team member';

export interface SpawnPromptOptions {
  root: string;
  /** Folder name or roster name of the member. */
  agent: string;
  task: string;
  mode?: SpawnMode;
  /** Lightweight mode: the skills to inline (default: the skills the task matches). */
  skills?: readonly string[];
  /** Standard mode: token budget of the `<available_skills>` entries (default DEFAULT_SKILLS_BUDGET). */
  skillsBudget?: number;
  /** Standard mode: list every skill, whatever the budget. */
  allSkills?: boolean;
  /** Home folder, for `~/.copilot/mcp-config.json`; undefined skips that file. */
  home?: string;
  /** The folder the command runs in, where the Copilot CLI starts looking for `.mcp.json` (default: `root`). */
  cwd?: string;
  /** The command's environment (COPILOT_HOME moves `~/.copilot`). */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface PromptSkill {
  name: string;
  scope: DiscoveredSkill['scope'];
  location: string;
  description: string;
  /** Lightweight mode: the body is in the prompt. */
  inlined: boolean;
}

/** A skill a standard prompt does not list, and why. */
export interface LeftOutSkill {
  name: string;
  location: string;
  reason: LeftOutReason;
}

export interface SpawnPromptTokens {
  charter: number;
  /** The standing rules the prompt lists on their own (a standard prompt's member rules are in its charter). */
  standingRules: number;
  skills: number;
  mcp: number;
  task: number;
  /** The rest of the prompt's text: its instructions and headings (total less the parts above). */
  other: number;
  total: number;
}

export interface SpawnPrompt {
  agent: string;
  displayName: string;
  role: string;
  mode: SpawnMode;
  requestedMode: SpawnMode;
  prompt: string;
  /** The variable parts, as they appear in the prompt. */
  parts: { charter: string; skills: string; mcp: string; task: string };
  skills: PromptSkill[];
  /** Lightweight mode: other skills that may fit the task, listed one line each (not inlined). */
  candidates: PromptSkill[];
  /** Standard mode: the token budget of the skill list; null when lifted (allSkills) or in lightweight mode. */
  skillsBudget: number | null;
  /** Standard mode: the skills the prompt does not list, most relevant first. */
  skillsLeftOut: LeftOutSkill[];
  mcp: McpRequirementRow[];
  /** The MCP configuration files checked; none when no skill in the prompt declares a server. */
  mcpConfig: McpConfigSource[];
  /** The standing rules the prompt carries: the team's (.ai-team/rules.md) and the member's own (its charter). */
  standingRules: StandingRules;
  /** The archives `compact` made (older history, older decisions): their paths, which a standard prompt names; null when there is none. */
  archives: { history: string | null; decisions: string | null };
  warnings: Warning[];
  tokens: SpawnPromptTokens;
}

/**
 * What a spawn prompt holds, decided from what readSpawnState read: the mode, the skills listed or
 * inlined, the budget, and the warnings so far. Reads nothing.
 */
export interface SpawnDecision {
  /** The task, normalised. */
  task: string;
  requestedMode: SpawnMode;
  mode: SpawnMode;
  /** Lightweight: the skills whose bodies the prompt inlines (read by readSpawnSelection). */
  inline: DiscoveredSkill[];
  /** Lightweight: the other candidate skills, listed one line each. */
  candidates: DiscoveredSkill[];
  /** Standard: the token budget of the skill list; undefined when lifted, or in lightweight mode. */
  budget: number | undefined;
  /** Standard: the skills listed and those left out. */
  listing: SkillListing | undefined;
  /** The skills in the prompt: listed (standard) or inlined (lightweight). */
  shown: DiscoveredSkill[];
  /** A skill in the prompt declares an MCP server: the MCP configuration is read. */
  needsMcpConfig: boolean;
  warnings: Warning[];
}

/** The task, trimmed with its line breaks normalised; a usage error when nothing is left. */
function spawnTask(text: string): string {
  const task = normalizeNewlines(text).trim();
  if (!task) throw usageError('the task is empty', 'say what the agent should do: --task "<text>" (or --task - to read it from stdin)');
  return task;
}

export async function buildSpawnPrompt(options: SpawnPromptOptions): Promise<SpawnPrompt> {
  spawnTask(options.task); // an empty task is refused before anything is read
  const state = readSpawnState(options.root, options.agent);
  const decision = decideSpawn(state, options);
  const selection = await readSpawnSelection(state.root, decision, options);
  return renderSpawnPrompt(state, decision, selection);
}

/** buildSpawnPrompt's decision from what readSpawnState read: decides without touching the disk. */
export function decideSpawn(state: SpawnState, options: Omit<SpawnPromptOptions, 'root' | 'agent'>): SpawnDecision {
  const task = spawnTask(options.task);
  const requestedMode = options.mode ?? DEFAULT_SPAWN_MODE;
  const agent = state.member.name;
  const warnings: Warning[] = [];

  const { discovery } = state;
  for (const found of discovery.warnings) {
    warnings.push(warning(found.code, found.code === 'skill-invalid' ? `${found.message} (skipped)` : found.message, found.path));
  }
  const visible = promptableSkills(discovery.skills);

  let mode = requestedMode;
  let inline: DiscoveredSkill[] = [];
  let candidates: DiscoveredSkill[] = [];
  if (requestedMode === 'lightweight') {
    const chosen = chooseLightweightSkills(state.agents, agent, task, visible, discovery, options.skills, warnings, state.skillSynonyms);
    if (chosen.skills) {
      inline = chosen.skills;
      candidates = chosen.candidates;
    } else {
      warnings.push(warning('lightweight-refused', `lightweight mode refused: ${chosen.refusal}; building a standard spawn instead`));
      mode = 'standard';
    }
  } else if (options.skills && options.skills.length > 0) {
    warnings.push(warning('skill-option-ignored', '--skill only applies to lightweight mode; ignored (a standard spawn lists the skills itself)'));
  }

  const budget = mode === 'standard' && !options.allSkills ? (options.skillsBudget ?? DEFAULT_SKILLS_BUDGET) : undefined;
  const listing = mode === 'standard' ? selectListedSkills(task, visible, agent, budget, { synonyms: state.skillSynonyms }) : undefined;
  if (listing && listing.leftOut.length > 0) warnings.push(leftOutWarning(listing.listed.length, visible.length, budget!));
  const shown = listing ? listing.listed : inline;
  // No shown skill declares a server: nothing to look up (and no warning about a file that does not matter).
  return { task, requestedMode, mode, inline, candidates, budget, listing, shown, needsMcpConfig: shown.some((s) => s.mcpServers.length > 0), warnings };
}

/**
 * The spawn prompt from what was read and decided, and the bodies and MCP configuration the
 * decision selected (readSpawnSelection): the MCP table, the template, the token counts. Reads
 * nothing of the squad (templates are the package's, compiled once per process).
 */
export async function renderSpawnPrompt(state: SpawnState, decision: SpawnDecision, selection: SpawnSelection): Promise<SpawnPrompt> {
  const { member, charterText } = state;
  const { task, mode, requestedMode, listing, candidates, shown, budget } = decision;
  const { inlined, detection } = selection;
  const agent = member.name;
  // Warnings in the order they arise: the decision's, then reading the bodies and the MCP configuration, then the charter's.
  const warnings = [...decision.warnings, ...selection.warnings];
  const mcp = collectMcpRequirements(shown, detection);
  const mcpBlock = await renderMcpBlock(mcp);

  const charterFile = charterPath(agent);
  if (charterText === undefined && mode === 'standard') warnings.push(warning('charter-missing', `${charterFile} is missing; the prompt has no charter`, charterFile));
  const charter = mode === 'standard' ? normalizeNewlines(charterText ?? '').trim() : '';

  const skillsBlock = mode === 'standard' ? renderAvailableSkills(shown.map((s) => ({ name: s.name, description: s.description ?? '', location: s.location }))) : '';
  const standingRules = standingRulesOf(state.teamRulesText, charterText);
  const common = {
    agent,
    name: member.displayName,
    role: member.role || DEFAULT_ROLE,
    task,
    mcpBlock,
    historyPath: historyPath(agent),
    decisionsPath: squadPaths.decisions,
    historyArchive: state.archives.history,
    decisionsArchive: state.archives.decisions,
    maxLines: MAX_BODY_LINES,
  };
  const prompt =
    mode === 'standard'
      ? await renderTemplate(SPAWN_TEMPLATES.standard, {
          ...common,
          charter,
          charterMissing: charterText === undefined,
          charterPath: charterFile,
          teamRules: standingRules.team,
          teamRulesPath: TEAM_RULES_PATH,
          skillsBlock,
          leftOutCount: listing?.leftOut.length ?? 0,
          listAllCommand: hintCommand(`skills list --agent ${agent}`, state.cli.version, state.cli.installedVersion),
          agentSkillsDir: agentSkillsDir(agent),
          decisionInbox: decisionInboxPath(agent, '{brief-slug}'),
          maxName: MAX_NAME_LENGTH,
          maxDescription: MAX_DESCRIPTION_LENGTH,
        })
      : await renderTemplate(SPAWN_TEMPLATES.lightweight, {
          ...common,
          standingRules: [...standingRules.team, ...standingRules.member],
          skills: inlined.map(({ skill, body, notInlined }) => ({
            name: skill.name,
            location: skill.location,
            body,
            tooLarge: notInlined === 'too-large',
            unreadable: notInlined === 'unreadable',
          })),
          candidates: candidates.map((s) => ({ name: s.name, location: s.location, description: briefDescription(s.description ?? '') })),
        });

  const skillsText = mode === 'standard' ? skillsBlock : inlined.map((i) => i.body ?? '').join('\n');
  const inlinedSkills = new Set(inlined.filter((i) => i.body !== undefined).map((i) => i.skill));
  // The one point where every part from files meets: each string of the prompt and of what --json and
  // the MCP tool report shows controls, bidi and hidden characters as escapes (visible-text.ts).
  const shownPrompt = visibleValues({
    agent,
    displayName: member.displayName,
    role: common.role,
    mode,
    requestedMode,
    prompt,
    parts: { charter, skills: skillsText, mcp: mcpBlock, task },
    skills: shown.map((s) => promptSkill(s, inlinedSkills.has(s))),
    candidates: candidates.map((s) => promptSkill(s, false)),
    skillsBudget: budget ?? null,
    skillsLeftOut: (listing?.leftOut ?? []).map((s) => ({ name: s.name, location: s.location, reason: 'over-budget' as const })),
    mcp,
    mcpConfig: detection?.sources ?? [],
    standingRules,
    archives: { history: state.archives.history ?? null, decisions: state.archives.decisions ?? null },
  });
  const { parts } = shownPrompt;
  const shownRules = shownPrompt.standingRules;
  const listedRules = mode === 'standard' ? shownRules.team : [...shownRules.team, ...shownRules.member];
  const tokens = {
    charter: estimateTokens(parts.charter),
    standingRules: estimateTokens(listedRules.map((rule) => `- ${rule}\n`).join('')),
    skills: estimateTokens(parts.skills),
    mcp: estimateTokens(parts.mcp),
    task: estimateTokens(parts.task),
    total: estimateTokens(shownPrompt.prompt),
  };
  return {
    ...shownPrompt,
    warnings,
    tokens: {
      ...tokens,
      other: Math.max(0, tokens.total - tokens.charter - tokens.standingRules - tokens.skills - tokens.mcp - tokens.task),
    },
  };
}

type LightweightChoice = { skills: DiscoveredSkill[]; candidates: DiscoveredSkill[]; refusal?: undefined } | { skills?: undefined; refusal: string };

/**
 * The skills a lightweight prompt inlines, and the other candidates it lists: the ones asked for
 * with --skill, else the skills the task activates when the best one clearly wins (the rule route
 * uses). Refused for broad or multi-agent tasks, and when no skill clearly wins.
 */
function chooseLightweightSkills(
  agents: readonly Agent[],
  agent: string,
  task: string,
  visible: readonly DiscoveredSkill[],
  discovery: Pick<Discovery, 'skills' | 'refused'>,
  requested: readonly string[] | undefined,
  warnings: Warning[],
  synonyms: SynonymTable | undefined,
): LightweightChoice {
  const broad = detectBroadTask(task, otherMemberNames(agents, agent));
  if (broad) return { refusal: `${broad.reason}, which needs the full context of a standard spawn` };

  const ranked = rankSkills(task, visible, { synonyms });
  const othersThan = (chosen: readonly DiscoveredSkill[]): DiscoveredSkill[] =>
    ranked
      .map((m) => m.skill)
      .filter((skill) => !chosen.includes(skill))
      .slice(0, MAX_LIGHTWEIGHT_CANDIDATES);
  const requestedSkills = findRequestedSkills(agent, requested ?? [], visible, discovery, warnings);
  if (requestedSkills.length > 0) return { skills: requestedSkills, candidates: othersThan(requestedSkills) };
  if (ranked.length === 0) return { refusal: 'no skill of this agent matches the task (lightweight spawns are for a skilled domain)' };
  const confidence = skillConfidence(ranked);
  if (!confidence.clear) return { refusal: `${confidence.reason} (lightweight spawns need one skill that clearly fits)` };
  const skills = activatedSkills(ranked).map((m) => m.skill);
  return { skills, candidates: othersThan(skills) };
}

/** The skills named with --skill that the agent sees, with a warning for each one it cannot use. */
function findRequestedSkills(
  agent: string,
  requested: readonly string[],
  visible: readonly DiscoveredSkill[],
  { skills: all, refused }: Pick<Discovery, 'skills' | 'refused'>,
  warnings: Warning[],
): DiscoveredSkill[] {
  const skills: DiscoveredSkill[] = [];
  for (const name of [...new Set(requested)]) {
    const skill = visible.find((s) => s.name === name);
    if (skill) {
      skills.push(skill);
      continue;
    }
    const hidden = all.find((s) => s.name === name || s.dirName === name);
    const linkedOut = hidden ? undefined : refused.find((s) => s.name === name && (s.scope !== 'agent' || s.agent === agent));
    if (linkedOut) {
      warnings.push(warning('requested-skill-unknown', `skill "${name}" links outside the repository and is never read, skipped (${linkedOut.fix})`, linkedOut.location));
      continue;
    }
    warnings.push(
      hidden && !hidden.valid
        ? warning('requested-skill-invalid', `skill "${name}" is invalid, skipped (run "create-squad skills validate")`, hidden.location)
        : hidden
          ? warning('requested-skill-hidden', `skill "${name}" is not offered to the model (disable-model-invocation), skipped`, hidden.location)
          : warning('requested-skill-unknown', `${agent} has no skill named "${name}", skipped (see "create-squad skills list --agent ${agent}")`),
    );
  }
  return skills;
}

function promptSkill(skill: DiscoveredSkill, inlined: boolean): PromptSkill {
  return { name: skill.name, scope: skill.scope, location: skill.location, description: skill.description ?? '', inlined };
}

/** At most this many characters of a candidate's description in a lightweight prompt. */
const CANDIDATE_DESCRIPTION_CHARS = 160;

/** A description on one line, shortened, for the candidates of a lightweight prompt. */
function briefDescription(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= CANDIDATE_DESCRIPTION_CHARS ? line : `${line.slice(0, CANDIDATE_DESCRIPTION_CHARS - 1).trimEnd()}…`;
}

function leftOutWarning(listed: number, total: number, budget: number): Warning {
  return warning(
    'skills-left-out',
    `the prompt lists ${listed} of ${total} skills, the most relevant to the task within the skills budget of ` +
      `${budget} tokens (--skills-budget <tokens> changes it, --all-skills lists every skill)`,
  );
}
