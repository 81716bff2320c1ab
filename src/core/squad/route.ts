/**
 * Skill-aware routing: which member fits a task, in which spawn mode, with which skills.
 * Everything here is explainable: BM25F text relevance over each member's role, charter and the
 * own skills the task calls for, a skill ranking with a confidence rule, and fixed word patterns
 * for tasks that must never get a lightweight spawn.
 */
import { readStateHead } from '../fs/confined.js';
import { discoverSkills, type DiscoveredSkill } from './discover.js';
import { charterPath, SCRIBE_AGENT } from '../base/paths.js';
import { findRolePreset } from '../roster/roles.js';
import { listAgents, requireSquad, type Agent } from '../roster/roster.js';
import { activatedSkills, rankSkills, skillConfidence, skillFields, type SkillConfidence, type SkillMatch } from './skill-rank.js';
import type { SpawnMode } from '../base/spawn-modes.js';
import { rankDocuments, type TextDocument } from '../base/text-match.js';
import { hasWord, wholeWordPattern } from '../base/util.js';

export { MAX_ACTIVATED_SKILLS, matchSkills, type SkillMatch } from './skill-rank.js';

/** Charter text beyond this many characters is not used for routing. */
const CHARTER_ROUTING_CHARS = 20_000;

export interface BroadTask {
  kind: 'architecture' | 'multi-agent';
  /** Human explanation: what in the task gave it away. */
  reason: string;
}

const ARCHITECTURE_PATTERNS: readonly RegExp[] = [
  /\barchitect\w*/,
  /\bsystem design\b/,
  /\bdesign (?:the|a|an|our) (?:system|architecture|api|schema|data model|database|service)/,
  /\b(?:choose|pick|select|decide|evaluate|compare)\b[^.]*\b(?:framework|library|database|stack|approach|between|vendor)\b/,
  /\btech(?:nology)? stack\b/,
  /\b(?:decision|decide)\b/,
  /\badrs?\b/,
  /\btrade-?offs?\b/,
  /\b(?:re-?architect|restructure|redesign|rewrite)\w*/,
  /\bmigrat\w* (?:to|from|off)\b/,
];

const MULTI_AGENT_PATTERNS: readonly RegExp[] = [
  /\b(?:whole|entire|full) team\b/,
  /\bteam-?wide\b/,
  /\beveryone\b/,
  /\b(?:all|multiple|several) (?:agents|members|of you)\b/,
  /\bcoordinat\w* (?:with|between|across)\b/,
  /\bpair(?:ing)? with\b/,
  /\bhand-?off\b/,
  /\bcross-(?:team|functional)\b/,
];

/**
 * Whether a task reads as an architecture decision or as work for several members: such tasks
 * never get a lightweight spawn. `otherMembers` are names of the squad's other members (see
 * otherMemberNames); a task that mentions one of them is multi-agent work.
 */
export function detectBroadTask(task: string, otherMembers: readonly string[] = []): BroadTask | undefined {
  const text = task.toLowerCase();
  for (const pattern of ARCHITECTURE_PATTERNS) {
    const found = pattern.exec(text);
    if (found) return { kind: 'architecture', reason: `it reads as an architecture decision ("${found[0]}")` };
  }
  for (const pattern of MULTI_AGENT_PATTERNS) {
    const found = pattern.exec(text);
    if (found) return { kind: 'multi-agent', reason: `it reads as multi-agent work ("${found[0]}")` };
  }
  for (const member of otherMembers) {
    if (member.length >= 3 && mentionsName(task, member)) {
      return { kind: 'multi-agent', reason: `it involves another member (${member})` };
    }
  }
  return undefined;
}

/**
 * Whether `task` mentions `name`: spelled exactly (case included) as a whole word, and not as the
 * first word of a sentence, where a capital letter says nothing ("Data migrations are slow" is not
 * about Data; "Add zod validation to the signup form data" is not either).
 */
function mentionsName(task: string, name: string): boolean {
  const pattern = wholeWordPattern(name, task, 'g');
  for (const found of task.matchAll(pattern)) {
    if (!startsSentence(task, found.index)) return true;
  }
  return false;
}

/** Characters that may stand between the end of a sentence and its first word: spaces, quotes, brackets, list marks. */
const BEFORE_FIRST_WORD = new Set([' ', '\t', '"', "'", '\u201C', '\u2018', '(', '[', '*', '_', '`', '-']);
const SENTENCE_END = new Set(['.', '!', '?', ':', '\n', '\r']);

/** Whether the word at `index` is the first of a sentence (or of a line). */
function startsSentence(text: string, index: number): boolean {
  let i = index - 1;
  while (i >= 0 && BEFORE_FIRST_WORD.has(text[i]!)) i -= 1;
  return i < 0 || SENTENCE_END.has(text[i]!);
}

/**
 * The names that identify the squad's other members in a task (for detectBroadTask): each roster
 * name as written ("Keaton", "Data"), and a folder name only when it cannot be an ordinary word
 * (it has a digit or a hyphen: "mr-pink", "agent-07"). A folder name that is a plain word
 * ("data", "worf") is left out: in a task it reads as the word.
 */
export function otherMemberNames(agents: readonly Agent[], self: string): string[] {
  return agents.filter((a) => a.name !== self).flatMap((a) => [...(a.inRoster ? [a.displayName] : []), ...(/[\d-]/.test(a.name) ? [a.name] : [])]);
}

/** Skills a prompt may show or activate: valid ones the model may invoke. */
export function promptableSkills(skills: readonly DiscoveredSkill[]): DiscoveredSkill[] {
  return skills.filter((skill) => skill.valid && !skill.disableModelInvocation);
}

export interface RankedMember {
  agent: string;
  displayName: string;
  role: string | undefined;
  score: number;
  /** Field (role, charter, skills) → matched task words, as written (lowercased). */
  matches: Record<string, string[]>;
}

/** A skill route ranks for the task, as route reports it. */
export interface RoutedSkill {
  name: string;
  location: string;
  /** Task words (as written, lowercased) found in the skill's name and description. */
  terms: string[];
}

export interface RankedSkill extends RoutedSkill {
  score: number;
}

export interface RouteSuggestion {
  task: string;
  agent: string;
  displayName: string;
  role: string | undefined;
  mode: SpawnMode;
  /** Skill names to activate, best first. */
  skills: RoutedSkill[];
  /** Why this member and this mode, in one or two sentences. */
  reason: string;
  /** Whether any member matched the task at all. */
  matched: boolean;
  ranking: RankedMember[];
  /** The skills the chosen member sees that best match the task, best first (at most MAX_CANDIDATES). */
  candidates: RankedSkill[];
  /** How clearly the best skill wins; a lightweight spawn needs a clear winner. */
  confidence: SkillConfidence;
  /**
   * Human members to ask (never spawned): every one when the task reads as a decision, else those
   * whose name or role the task mentions. Absent when there are none.
   */
  humans?: { name: string; displayName: string; role: string | undefined }[];
}

/** At most this many ranked skills are reported as candidates. */
export const MAX_CANDIDATES = 5;

/**
 * Field weights for routing: a role match says most, the member's own skills that the task calls
 * for next, charter prose least.
 */
const ROUTE_WEIGHTS = { role: 3, skills: 2, charter: 1 };

/**
 * Suggest a member, a mode and skills for `task`. Members are ranked by BM25F over their role (with
 * the aliases and routing line of its preset), charter and the own skills the task activates
 * (memberRoutingDocument); words every member's text shares, such as the project's name, are no
 * evidence. Team skills are shared by everyone and so say nothing about who should do the work, but
 * they count when choosing skills. The Scribe is never suggested. With no match at all, the lead (a
 * role containing "lead"), else the first member. Lightweight mode needs a member that matched, a
 * task that is neither broad nor multi-agent, and a skill that clearly wins (skillConfidence).
 */
export function routeTask(root: string, task: string): RouteSuggestion {
  requireSquad(root);
  const everyone = listAgents(root);
  const members = everyone.filter((agent) => agent.hasFolder && agent.name !== SCRIBE_AGENT);
  if (members.length === 0) {
    return {
      task,
      agent: '',
      displayName: '',
      role: undefined,
      mode: 'standard',
      skills: [],
      reason: 'the squad has no members yet',
      matched: false,
      ranking: [],
      candidates: [],
      confidence: skillConfidence([]),
    };
  }
  const discovered = discoverSkills(root).skills;
  const calledFor = activatedSkills(rankSkills(task, promptableSkills(discovered)));
  const ranked = rankDocuments(
    members.map((member) => memberRoutingDocument(root, member, calledFor)),
    task,
    { weights: ROUTE_WEIGHTS, ignoreSharedTerms: true },
  );
  const byName = new Map(members.map((m) => [m.name, m]));
  const ranking: RankedMember[] = ranked.map((hit) => {
    const member = byName.get(hit.id)!;
    return { agent: member.name, displayName: member.displayName, role: member.role, score: round(hit.score), matches: hit.matches };
  });

  const matched = ranked[0]!.score > 0;
  const chosen = matched ? byName.get(ranked[0]!.id)! : (members.find(isLead) ?? members[0]!);
  const skillRanking = rankSkills(task, promptableSkills(agentView(discovered, chosen.name)));
  const skillMatches = activatedSkills(skillRanking);
  const confidence = skillConfidence(skillRanking);
  const broad = detectBroadTask(task, otherMemberNames(everyone, chosen.name));
  const mode: SpawnMode = matched && confidence.clear && !broad ? 'lightweight' : 'standard';

  const top = ranking.find((r) => r.agent === chosen.name)!;
  const why = matched
    ? `${chosen.displayName} matched ${describeMatches(top.matches)}`
    : `no member's role, charter or skills match the task, so it goes to ${chosen.displayName}${isLead(chosen) ? ' (the lead) to triage' : ''}`;
  const modeWhy = broad
    ? `standard mode because ${broad.reason}`
    : !matched
      ? 'standard mode so it arrives with the full context'
      : confidence.clear
        ? `lightweight mode because the task is in a skilled domain (${skillMatches.map((m) => m.skill.name).join(', ')}, margin ${confidence.margin})`
        : `standard mode because ${confidence.reason}`;
  return {
    task,
    agent: chosen.name,
    displayName: chosen.displayName,
    role: chosen.role,
    mode,
    skills: skillMatches.map(routedSkill),
    reason: `${why}; ${modeWhy}.`,
    matched,
    ranking,
    candidates: skillRanking.slice(0, MAX_CANDIDATES).map((m) => ({ ...routedSkill(m), score: round(m.score) })),
    confidence,
    ...humansToAsk(task, everyone, broad),
  };
}

/** The human members a task is for (see RouteSuggestion.humans), as the suggestion's `humans`. */
function humansToAsk(task: string, everyone: readonly Agent[], broad: BroadTask | undefined): Pick<RouteSuggestion, 'humans'> {
  const named = (human: Agent) => hasWord(task, human.displayName) || (human.role !== undefined && hasWord(task, human.role));
  const humans = everyone.filter((agent) => agent.human && (broad?.kind === 'architecture' || named(agent)));
  return humans.length === 0 ? {} : { humans: humans.map(({ name, displayName, role }) => ({ name, displayName, role })) };
}

function routedSkill(match: SkillMatch): RoutedSkill {
  return { name: match.skill.name, location: match.skill.location, terms: match.terms };
}

/**
 * What routing reads of one member: the role with its preset's aliases and routing line ("ci" and
 * "infrastructure" say DevOps), the charter, and the member's own skills among those the task calls
 * for. A member is credited for holding the skills a task needs, never for how many skills it holds.
 */
export function memberRoutingDocument(root: string, member: Agent, calledFor: readonly SkillMatch[]): TextDocument {
  const ownCalledFor = calledFor.filter((m) => m.skill.scope === 'agent' && m.skill.agent === member.name);
  return {
    id: member.name,
    fields: {
      role: roleText(member.role),
      charter: readCharter(root, member),
      skills: ownCalledFor.map((m) => Object.values(skillFields(m.skill)).join('\n')).join('\n'),
    },
  };
}

/** A role and, when it is one of the presets (roles.json), its aliases and what it handles. */
export function roleText(role: string | undefined): string {
  if (!role) return '';
  const preset = findRolePreset(role);
  return preset ? [role, ...preset.aliases, preset.handles].join('\n') : role;
}

function isLead(member: Agent): boolean {
  return /\blead\b/i.test(member.role ?? '');
}

/**
 * The skills one agent sees, cut from a discovery of every scope (discoverSkills without an agent):
 * built-in and team skills, then the agent's own, an own skill hiding a shared one of the same
 * folder name. The same list, in the same order, as discoverSkills(root, { agent }).skills.
 */
export function agentView(all: readonly DiscoveredSkill[], agent: string): DiscoveredSkill[] {
  const own = new Set(all.filter((s) => s.scope === 'agent' && s.agent === agent).map((s) => s.dirName));
  return all.filter((s) => (s.scope === 'agent' ? s.agent === agent : !own.has(s.dirName)));
}

function describeMatches(matches: Record<string, string[]>): string {
  return Object.entries(matches)
    .sort(([a], [b]) => (ROUTE_WEIGHTS[b as keyof typeof ROUTE_WEIGHTS] ?? 0) - (ROUTE_WEIGHTS[a as keyof typeof ROUTE_WEIGHTS] ?? 0))
    .map(([field, terms]) => `${terms.map((t) => `"${t}"`).join(', ')} in ${field}`)
    .join(' and ');
}

/** The start of a member's charter, however large the file: routing reads no more (a huge charter never stops it). */
function readCharter(root: string, member: Agent): string {
  // Four UTF-8 bytes a character at most: enough bytes for the characters routing reads.
  return (readStateHead(root, charterPath(member.name), CHARTER_ROUTING_CHARS * 4) ?? '').slice(0, CHARTER_ROUTING_CHARS);
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
