/**
 * Skill-aware routing (proposal 012 §5): which member fits a task, in which spawn mode, with which
 * skills. Everything here is explainable: BM25 text relevance over each member's role, charter
 * and own skills, and fixed word patterns for tasks that must never get a lightweight spawn.
 */
import { readStateText } from './confined.js';
import { discoverSkills, type DiscoveredSkill } from './discover.js';
import { charterPath, SCRIBE_AGENT } from './paths.js';
import { listAgents, requireSquad, type Agent } from './roster.js';
import type { SpawnMode } from './spawn-modes.js';
import { rankDocuments } from './text-match.js';
import { compareCodePoints, escapeRegExp } from './util.js';


/** At most this many skills are activated (inlined in a lightweight spawn) for one task. */
export const MAX_ACTIVATED_SKILLS = 3;
/** A skill is activated when it scores at least this share of the best skill's score. */
const ACTIVATION_SHARE = 0.5;
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
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'gu');
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
  return agents
    .filter((a) => a.name !== self)
    .flatMap((a) => [...(a.inRoster ? [a.displayName] : []), ...(/[\d-]/.test(a.name) ? [a.name] : [])]);
}

export interface SkillMatch {
  skill: DiscoveredSkill;
  score: number;
  /** Task words (as written, lowercased) found in the skill's name and description. */
  terms: string[];
}

/**
 * The skills a task calls for: BM25 of the task against each skill's name (weight 2) and
 * description, keeping at most MAX_ACTIVATED_SKILLS that score at least half the best score.
 */
export function matchSkills(task: string, skills: readonly DiscoveredSkill[]): SkillMatch[] {
  const ranked = rankDocuments(
    skills.map((skill, index) => ({
      id: String(index),
      fields: { name: skill.name.replace(/-/g, ' '), description: skill.description ?? '' },
    })),
    task,
    { weights: { name: 2, description: 1 } },
  );
  const best = ranked[0]?.score ?? 0;
  if (best <= 0) return [];
  return ranked
    .filter((hit) => hit.score > 0 && hit.score >= best * ACTIVATION_SHARE)
    .slice(0, MAX_ACTIVATED_SKILLS)
    .map((hit) => ({
      skill: skills[Number(hit.id)]!,
      score: hit.score,
      terms: [...new Set(Object.values(hit.matches).flat())].sort(compareCodePoints),
    }));
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

export interface RouteSuggestion {
  task: string;
  agent: string;
  displayName: string;
  role: string | undefined;
  mode: SpawnMode;
  /** Skill names to activate, best first. */
  skills: { name: string; location: string; terms: string[] }[];
  /** Why this member and this mode, in one or two sentences. */
  reason: string;
  /** Whether any member matched the task at all. */
  matched: boolean;
  ranking: RankedMember[];
}

/** Field weights for routing: a role match says most, skills next, charter prose least. */
const ROUTE_WEIGHTS = { role: 3, skills: 2, charter: 1 };

/**
 * Suggest a member, a mode and skills for `task`. Members are ranked by BM25 over their role,
 * charter and own (agent-scope) skills; team skills are shared by everyone and so say nothing about
 * who should do the work, but they count when choosing skills to activate. The Scribe is never
 * suggested. With no match at all, the lead (a role containing "lead"), else the first member.
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
    };
  }
  const discovered = discoverSkills(root).skills;
  const ownSkills = new Map<string, DiscoveredSkill[]>();
  for (const skill of promptableSkills(discovered)) {
    if (skill.scope !== 'agent' || !skill.agent) continue;
    ownSkills.set(skill.agent, [...(ownSkills.get(skill.agent) ?? []), skill]);
  }
  const ranked = rankDocuments(
    members.map((member) => ({
      id: member.name,
      fields: {
        role: member.role ?? '',
        charter: readCharter(root, member),
        skills: (ownSkills.get(member.name) ?? [])
          .map((s) => `${s.name.replace(/-/g, ' ')} ${s.description ?? ''}`)
          .join('\n'),
      },
    })),
    task,
    { weights: ROUTE_WEIGHTS },
  );
  const byName = new Map(members.map((m) => [m.name, m]));
  const ranking: RankedMember[] = ranked.map((hit) => {
    const member = byName.get(hit.id)!;
    return { agent: member.name, displayName: member.displayName, role: member.role, score: round(hit.score), matches: hit.matches };
  });

  const matched = ranked[0]!.score > 0;
  const chosen = matched ? byName.get(ranked[0]!.id)! : (members.find(isLead) ?? members[0]!);
  const skillMatches = matchSkills(task, promptableSkills(agentView(discovered, chosen.name)));
  const broad = detectBroadTask(task, otherMemberNames(everyone, chosen.name));
  const mode: SpawnMode = matched && skillMatches.length > 0 && !broad ? 'lightweight' : 'standard';

  const top = ranking.find((r) => r.agent === chosen.name)!;
  const why = matched
    ? `${chosen.displayName} matched ${describeMatches(top.matches)}`
    : `no member's role, charter or skills match the task, so it goes to ${chosen.displayName}${
        isLead(chosen) ? ' (the lead) to triage' : ''
      }`;
  const modeWhy = broad
    ? `standard mode because ${broad.reason}`
    : !matched
      ? 'standard mode so it arrives with the full context'
      : skillMatches.length > 0
      ? `lightweight mode because the task is in a skilled domain (${skillMatches.map((m) => m.skill.name).join(', ')})`
      : 'standard mode because no skill matches the task';
  return {
    task,
    agent: chosen.name,
    displayName: chosen.displayName,
    role: chosen.role,
    mode,
    skills: skillMatches.map((m) => ({ name: m.skill.name, location: m.skill.location, terms: m.terms })),
    reason: `${why}; ${modeWhy}.`,
    matched,
    ranking,
  };
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

function readCharter(root: string, member: Agent): string {
  return (readStateText(root, charterPath(member.name)) ?? '').slice(0, CHARTER_ROUTING_CHARS);
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
