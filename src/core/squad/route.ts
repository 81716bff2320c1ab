/**
 * Skill-aware routing that follows the team: which member fits a task (or which human to ask), in
 * which spawn mode, with which skills. Everything here is explainable: routing.md's rows and label
 * rules first (routing-table.ts), then the members' roles, charters and own skills by the words that
 * distinguish them (member-rank.ts), a skill ranking with a confidence rule, and fixed word
 * patterns for tasks that must never get a lightweight spawn.
 */
import { readStateHead, readStateText } from '../fs/confined.js';
import { discoverSkills, type DiscoveredSkill } from './discover.js';
import { charterPath, SCRIBE_AGENT, squadPaths } from '../base/paths.js';
import { findRolePreset } from '../roster/roles.js';
import { listAgents, requireSquad, type Agent } from '../roster/roster.js';
import { isNamed, nameKey } from '../roster/members.js';
import { charterParts, MEMBER_FIELD_WEIGHTS, rankMembers, type MemberScore, type MemberTexts } from './member-rank.js';
import { GENERIC_WORDS, matchRoutingRows, parseRoutingTable, routingTerms, taskWordCount, termsBySource, type LabelRule, type RoutingRow, type RowMatch } from './routing-table.js';
import { readTeamSynonyms } from './team-synonyms.js';
import { workKindMatch, workKindPhrase, type WorkKind } from './work-kind.js';
import { classifyWorkKind, LEARNED_KIND_CONFIDENCE, type LearnedKind, type LearnedKindGuess } from './work-kind-model.js';
import { activatedSkills, rankSkills, skillConfidence, skillFields, type SkillConfidence, type SkillMatch } from './skill-rank.js';
import type { SpawnMode } from '../base/spawn-modes.js';
import { tokenize } from '../base/text-match.js';
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
  /** The member to spawn; empty when there is none to spawn (no members, or a human to ask: see `ask`). */
  agent: string;
  displayName: string;
  role: string | undefined;
  mode: SpawnMode;
  /** Skill names to activate, best first. */
  skills: RoutedSkill[];
  /** Why this member and this mode, in one or two sentences. */
  reason: string;
  /** Whether a label, a routing.md row or a member's role, charter or skills matched the task. */
  matched: boolean;
  /** What decided the member: a label, a routing.md row, distinguishing words, or the default. */
  routedBy: RoutedBy;
  ranking: RankedMember[];
  /** The skills the chosen member sees that best match the task, best first (at most MAX_CANDIDATES). */
  candidates: RankedSkill[];
  /** How clearly the best skill wins; a lightweight spawn needs a clear winner. */
  confidence: SkillConfidence;
  /**
   * A human member the task's routing.md row or label names: ask them, never spawn them (`agent`
   * is then empty). Absent otherwise.
   */
  ask?: { name: string; displayName: string; role: string | undefined };
  /**
   * Human members to ask (never spawned): every one when the task reads as a decision, else those
   * whose name or role the task mentions, and the one `ask` names. Absent when there are none.
   */
  humans?: { name: string; displayName: string; role: string | undefined }[];
}

export interface RoutedBy {
  /**
   * `label`: an issue label (`squad:{name}`, or a label rule of routing.md); `routing-table`: a row
   * of routing.md's routing table; `charter`: the member's role, charter and own skills; `default`:
   * nothing matched (or an architecture question), so the lead.
   */
  source: 'label' | 'routing-table' | 'charter' | 'default';
  /** The label that decided (source `label`). */
  label?: string;
  /** The routing.md row that decided (source `routing-table`, or `label` from a label rule): its line, work type and Route To cell. */
  row?: { line: number; workType: string; routeTo: string };
  /** The task's words that decided: those the row holds, or those that distinguish the member. */
  words: string[];
  /** How clearly the choice leads the best choice of another member, as a share of its score (1: no other candidate; 0: a tie). */
  margin: number;
}

/** At most this many ranked skills are reported as candidates. */
export const MAX_CANDIDATES = 5;

/** Options of routeTask. */
export interface RouteOptions {
  /** The issue's labels (`squad:baer`): a label naming a member routes the task to them. */
  labels?: readonly string[];
  /** The squad as readRouteContext read it, for routing many tasks from one read; read anew when absent. */
  context?: RouteContext;
}

/** What routing reads of a squad, read once: the roster, every skill, the team's synonyms, routing.md, each member's charter. */
export interface RouteContext {
  root: string;
  everyone: readonly Agent[];
  /** The members routing may choose (folders of their own, not the Scribe). */
  members: readonly Agent[];
  discovered: readonly DiscoveredSkill[];
  synonyms: ReturnType<typeof readTeamSynonyms>;
  routing: ReturnType<typeof parseRoutingTable>;
  /** Member folder name → the charter cut into its ownership part and the rest. */
  charters: ReadonlyMap<string, { owns: string; rest: string }>;
}

/** Read what routing needs of the squad at `root` (a squad is required). */
export function readRouteContext(root: string): RouteContext {
  requireSquad(root);
  const everyone = listAgents(root);
  // The Scribe and members who run on their own in the background (the original Squad's Ralph) are never given a task.
  const members = everyone.filter((agent) => agent.hasFolder && agent.name !== SCRIBE_AGENT && !agent.background);
  return {
    root,
    everyone,
    members,
    discovered: members.length === 0 ? [] : discoverSkills(root).skills,
    synonyms: readTeamSynonyms(root),
    routing: parseRoutingTable(readStateText(root, squadPaths.routing) ?? ''),
    charters: new Map(members.map((member) => [member.name, charterParts(readCharter(root, member))])),
  };
}

/** A suggestion that spawns nobody (no member yet, or a human to ask): no agent, no skills. */
function noSpawn(task: string, why: Pick<RouteSuggestion, 'reason' | 'matched' | 'routedBy' | 'ranking'> & Partial<Pick<RouteSuggestion, 'ask' | 'humans'>>): RouteSuggestion {
  return { task, agent: '', displayName: '', role: undefined, mode: 'standard', skills: [], candidates: [], confidence: skillConfidence([]), ...why };
}

/** Someone a routing.md row, a label or the ranking can name: a member to spawn, or a human to ask. */
type Target = Agent;

/**
 * Suggest a member, a mode and skills for `task`, in this order of authority: an issue label that
 * names a member (`squad:{name}`, or routing.md's label rules); a human the task names and asks for
 * a yes, or the row of approvals (memberOfApproval); the kind of work the task's phrasing asks for, whatever its subject
 * (work-kind.ts): testing to whoever tests (memberOfTesting), a question of judgement to whoever
 * decides (memberOfDecision), and the same for phrasings the table does not list when the kinds
 * learned from tasks are nearly sure (work-kind-model.ts); a member whose role title names the task where the row it matched
 * holds it only in examples (memberOfRoleTitle); the routing.md row the task matches (memberOfRow:
 * its work type and examples, the words fewer rows hold counting more); the members' roles,
 * charters and own skills, by what distinguishes them (rankMembers, ties broken by breakTie); a
 * question for the lead goes to the lead; with no match at all, implementation work or a bug report
 * goes to the implementation row or role (memberOfImplementation), anything else to the lead, else
 * the first member. A human a row or label names is asked, never spawned. The Scribe is never
 * suggested. Lightweight mode needs a member that matched, a task that is neither broad nor
 * multi-agent, and a skill that clearly and
 * specifically wins (skillConfidence and specificSkillWords).
 */

export function routeTask(root: string, task: string, options: RouteOptions = {}): RouteSuggestion {
  const squad = options.context?.root === root ? options.context : readRouteContext(root);
  const { everyone, members, discovered, routing } = squad;
  if (members.length === 0) {
    return noSpawn(task, { reason: 'the squad has no members yet', matched: false, routedBy: { source: 'default', words: [], margin: 0 }, ranking: [] });
  }
  // The team's own synonyms (.ai-team/synonyms.md) rank skills here as in prompt.
  const rankContext = { synonyms: squad.synonyms };
  const calledFor = activatedSkills(rankSkills(task, promptableSkills(discovered), rankContext));
  // The implementation verb a task starts with says what kind of work it is: a role that takes that
  // work holds it, but charters use the same verbs for anything ("send it back with reasons").
  const verb = workKindPhrase(task, 'implementation');
  const memberRanking = rankMembers(
    members.map((member) => memberTexts(member, squad.charters.get(member.name)!, calledFor)),
    task,
    verb === undefined ? [] : tokenize(verb),
  );
  const byName = new Map(members.map((m) => [m.name, m]));
  const ranking: RankedMember[] = memberRanking.map((hit) => {
    const member = byName.get(hit.id)!;
    return { agent: member.name, displayName: member.displayName, role: member.role, score: round(hit.score), matches: hit.matches };
  });

  const targets = (names: readonly string[]) => names.map((name) => resolveTarget(name, everyone)).filter((t): t is Target => t !== undefined);
  const lead = members.find(isLead);
  const rowMatches = routableRowMatches(task, routing.rows, targets);
  const row = memberOfRow(rowMatches, memberRanking);
  const ranked = memberOfRanking(memberRanking, byName, (ids) => breakTie(ids, task, rowMatches, byName));
  const titled = row ? memberOfRoleTitle(task, row, members) : undefined;
  const leadQuestion = lead ? workKindPhrase(task, 'lead-question') : undefined;
  // Testing and a decision in one task: a decision asked before the testing is what the task asks ("Should we cache…? Think through
  // what goes wrong"); a decision about the tests themselves ("are the tests enough?") is testing.
  const testing = () => memberOfTesting(phraseReading(task, 'testing', 'testing'), routing.rows, targets, members);
  const decision = () => memberOfDecision(phraseReading(task, 'decision', 'a decision'), routing.rows, targets, lead);
  // Phrasings the table does not list: the kind learned from tasks, when it is nearly sure.
  const learned = classifyWorkKind(task);
  const leadQuestionDecision: Decision | undefined =
    lead && leadQuestion
      ? { target: lead, routedBy: { source: 'default', words: [leadQuestion.toLowerCase()], margin: 0 }, why: `"${leadQuestion}" is a question for ${lead.displayName} (the lead)` }
      : undefined;
  const sure = (kind: LearnedKind) => (learned.kind === kind && learned.probability >= LEARNED_KIND_CONFIDENCE ? learnedReading(learned) : undefined);
  const asksDecision = workKindMatch(task, 'decision');
  const asksTesting = workKindMatch(task, 'testing');
  const decisionFirst = asksDecision !== undefined && (asksTesting === undefined || asksDecision.end <= asksTesting.index);
  const decided =
    memberOfLabel(options.labels ?? [], routing.labels, targets) ??
    memberOfApproval(task, everyone, routing.rows, targets) ??
    memberOfReview(task, routing.rows, targets, lead) ??
    (decisionFirst ? (decision() ?? testing()) : (testing() ?? decision())) ??
    memberOfTesting(sure('testing'), routing.rows, targets, members) ??
    // A question for the lead the table lists explains itself better than the learned words do.
    (sure('lead') ? (leadQuestionDecision ?? memberOfDecision(sure('lead'), routing.rows, targets, lead)) : undefined) ??
    titled ??
    (row && !row.weak ? row : undefined) ??
    (sure('work') ? undefined : leadQuestionDecision) ??
    // A row that holds one word of the task yields to another member whose own texts hold several (the row explains its own member better).
    (ranked && (!row || (ranked.target.name !== row.target.name && taskWordCount(ranked.routedBy.words) >= 2)) ? ranked : undefined) ??
    // Asking a human blocks the work on a person: a row of a human decides only when it holds several words of the task.
    (row && !row.target.human ? row : undefined) ??
    ranked ??
    memberOfImplementation(task, routing.rows, targets, members, sure('work'));
  const fallback = lead ?? members[0]!;
  const chosen = decided?.target ?? fallback;
  const routedBy = decided?.routedBy ?? { source: 'default' as const, words: [], margin: 0 };
  const matched = routedBy.source !== 'default';
  const why =
    decided?.why ?? `no routing.md row and no member's role, charter or skills match the task, so it goes to ${chosen.displayName}${isLead(chosen) ? ' (the lead) to triage' : ''}`;

  if (chosen.human) {
    const ask = { name: chosen.name, displayName: chosen.displayName, role: chosen.role };
    const others = humansToAsk(task, everyone, detectBroadTask(task)).humans ?? [];
    return noSpawn(task, {
      reason: `${why}; ${chosen.displayName} is a human member: ask them, never spawn them.`,
      matched,
      routedBy,
      ranking,
      ask,
      humans: [ask, ...others.filter((h) => h.name !== ask.name)],
    });
  }

  const skillRanking = rankSkills(task, promptableSkills(agentView(discovered, chosen.name)), rankContext);
  const skillMatches = activatedSkills(skillRanking);
  const confidence = skillConfidence(skillRanking);
  const broad = detectBroadTask(task, otherMemberNames(everyone, chosen.name));
  const specific = skillMatches[0] ? specificSkillWords(skillMatches[0]) : [];
  // Strong: the skill holds two of the task's specific words, or the one it has.
  const strong = specific.length > 0 && specific.length >= Math.min(2, taskWordCount(routingTerms(task).map(([, written]) => written)));
  const mode: SpawnMode = matched && confidence.clear && strong && !broad ? 'lightweight' : 'standard';

  const skillNames = skillMatches.map((m) => m.skill.name).join(', ');
  const modeWhy = broad
    ? `standard mode because ${broad.reason}`
    : !matched
      ? 'standard mode so it arrives with the full context'
      : !confidence.clear
        ? `standard mode because ${confidence.reason}`
        : !strong
          ? `standard mode because the best skill (${skillNames}) matches only ${specific.length === 0 ? 'generic words' : `one word ("${specific[0]}")`} of the task, margin ${confidence.margin}`
          : `lightweight mode because the task is in a skilled domain (${skillNames}: ${specific.map((w) => `"${w}"`).join(', ')}, margin ${confidence.margin})`;
  return {
    task,
    agent: chosen.name,
    displayName: chosen.displayName,
    role: chosen.role,
    mode,
    skills: skillMatches.map(routedSkill),
    reason: `${why}; ${modeWhy}.`,
    matched,
    routedBy,
    ranking,
    candidates: skillRanking.slice(0, MAX_CANDIDATES).map((m) => ({ ...routedSkill(m), score: round(m.score) })),
    confidence,
    ...humansToAsk(task, everyone, broad),
  };
}

/** How the kind of work was read: the words that tell it, and the start of a reason that says so. */
interface KindReading {
  words: string[];
  says: string;
}

/** The kind of work as a phrase of work-kind.ts's table asks it ("try odd titles" asks for testing). */
function phraseReading(task: string, kind: WorkKind, name: string): KindReading | undefined {
  const phrase = workKindPhrase(task, kind);
  return phrase === undefined ? undefined : { words: [phrase.toLowerCase()], says: `"${phrase}" asks for ${name}` };
}

const LEARNED_KIND_NAMES: Record<LearnedKind, string> = { lead: "the lead's judgement", testing: 'testing', approval: 'a yes', work: 'work to do' };

/** The kind of work as the model learned from tasks reads it, with the features that told it. */
function learnedReading(guess: LearnedKindGuess): KindReading {
  const told = guess.evidence.map((words) => `"${words}"`).join(', ');
  return {
    words: guess.evidence,
    says: `it reads as ${LEARNED_KIND_NAMES[guess.kind]} (${told || 'its wording'}: ${Math.floor(guess.probability * 100)}% by the kinds of work learned from tasks)`,
  };
}

interface Decision {
  target: Target;
  /** A routing.md row that holds a single word of the task: a lead question, or a member whose own texts hold several, goes first. */
  weak?: boolean;
  /** For a routing.md row: the task words its Work Type cell holds (the others are in its examples). */
  inWorkType?: string[];
  routedBy: RoutedBy;
  /** Why, as the start of the reason. */
  why: string;
}

/**
 * Who a name of routing.md stands for: the member whose folder or roster name it is (any case),
 * else the one member whose role it is ("Lead"). Only someone routing can answer with: a member
 * with a folder (not the Scribe) or a human; the coding agent and the monitor are not spawned.
 */
function resolveTarget(name: string, everyone: readonly Agent[]): Target | undefined {
  const key = nameKey(name.replace(/^@/, ''));
  const routable = everyone.filter((a) => a.human || (a.hasFolder && a.name !== SCRIBE_AGENT && !a.background));
  const named = routable.find((a) => isNamed(a, key));
  if (named) return named;
  if (everyone.some((a) => isNamed(a, key))) return undefined;
  const byRole = routable.filter((a) => a.role !== undefined && nameKey(a.role) === key);
  return byRole.length === 1 ? byRole[0] : undefined;
}

function who(target: Target): string {
  return target.role ? `${target.displayName} (${target.role})` : target.displayName;
}

/** An issue label that names someone: a label rule of routing.md with that very label, else `squad:{name}`. */
function memberOfLabel(labels: readonly string[], rules: readonly LabelRule[], targets: (names: readonly string[]) => Target[]): Decision | undefined {
  for (const raw of labels) {
    const label = raw.trim();
    const rule = rules.find((r) => !/\{/.test(r.label) && r.label.toLowerCase() === label.toLowerCase());
    const named = rule ? targets(rule.names)[0] : undefined;
    if (rule && named) {
      return {
        target: named,
        routedBy: { source: 'label', label, row: { line: rule.line, workType: rule.label, routeTo: rule.who }, words: [], margin: 1 },
        why: `the label "${label}" goes to ${who(named)} (routing.md line ${rule.line})`,
      };
    }
    const member = /^squad:(.+)$/i.exec(label)?.[1];
    const target = member ? targets([member])[0] : undefined;
    if (target) return { target, routedBy: { source: 'label', label, words: [], margin: 1 }, why: `the label "${label}" names ${who(target)}` };
  }
  return undefined;
}

/** The routing.md rows the task matches (matchRoutingRows) among those that name someone routable, best first, each with that someone. */
interface RowTargets {
  matches: RowMatch[];
  targetOf: ReadonlyMap<RoutingRow, Target>;
}

function routableRowMatches(task: string, rows: readonly RoutingRow[], targets: (names: readonly string[]) => Target[]): RowTargets {
  const routable = rows.flatMap((row) => {
    const [target] = targets(row.names);
    return target ? [{ row, target }] : [];
  });
  const targetOf = new Map(routable.map(({ row, target }) => [row, target]));
  const matches = matchRoutingRows(
    task,
    routable.map(({ row }) => row),
  );
  return { matches, targetOf };
}

/**
 * The routing.md row the task falls under, for the first routable name of its Route To cell. Rows
 * of different members that tie are told apart by the members' ranking, else the first row in the
 * file wins.
 */
function memberOfRow({ matches, targetOf }: RowTargets, memberRanking: readonly MemberScore[]): Decision | undefined {
  if (matches.length === 0) return undefined;
  const top = matches[0]!.score;
  const tied = matches.filter((m) => m.score === top);
  const rank = (m: RowMatch) => {
    const index = memberRanking.findIndex((r) => r.id === targetOf.get(m.row)!.name && r.score > 0);
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  const best = tied.reduce((a, b) => (rank(b) < rank(a) ? b : a));
  const target = targetOf.get(best.row)!;
  const runnerUp = matches.find((m) => targetOf.get(m.row)!.name !== target.name);
  const margin = runnerUp ? round((best.score - runnerUp.score) / best.score) : 1;
  const { line, workType, routeTo } = best.row;
  return {
    target,
    weak: rowEvidence(best.words) < 2,
    inWorkType: best.words.filter((word) => tokenize(word.split('→').pop()!).some((term) => tokenize(workType).includes(term))),
    routedBy: byRow(best.row, best.words, margin),
    why: `routing.md line ${line} routes "${workType}" to ${routeTo} (matched ${best.words.map((w) => `"${w}"`).join(', ')}; margin ${margin})`,
  };
}

/**
 * How many pieces of evidence a row's matched words are for its strength: each word the row holds
 * as the task wrote it, and each domain the others reach it through once ("rest→api" and
 * "graphql→api" are one: several words of one family name one kind of work).
 */
function rowEvidence(words: readonly string[]): number {
  const own = words.filter((word) => !word.includes('→'));
  const domains = new Set(words.filter((word) => word.includes('→') && !own.includes(word.split('→')[0]!)).map((word) => word.split('→').pop()));
  return own.length + domains.size;
}

/** How a routing.md row decided: its line, work type and Route To cell, the task words that led to it, the margin. */
function byRow(row: RoutingRow, words: string[], margin: number): RoutedBy {
  return { source: 'routing-table', row: { line: row.line, workType: row.workType, routeTo: row.routeTo }, words, margin };
}

/** The stem a routing.md work type or a role holds when it takes implementation work. */
const [IMPLEMENTATION_TERM] = tokenize('implementation') as [string];

/**
 * Work nothing else matched (work-kind.ts: an implementation verb first, a bug report, or any
 * request that is no question and no planning, reviewing or deciding for the lead) goes to whoever routing.md's "implementation" row names,
 * else to the one member whose role handles implementation (the Core Dev), not to the lead: the
 * lead takes architecture, scope and review.
 */
function memberOfImplementation(
  task: string,
  rows: readonly RoutingRow[],
  targets: (names: readonly string[]) => Target[],
  members: readonly Agent[],
  learned: KindReading | undefined,
): Decision | undefined {
  const verb = workKindPhrase(task, 'implementation')?.replace(/^\W*(?:please\s+)?/i, '');
  const bug = verb === undefined ? workKindPhrase(task, 'bug-report') : undefined;
  // A question, or planning, reviewing or deciding, is the lead's to triage; any other request is work to do.
  if (verb === undefined && bug === undefined && learned === undefined && workKindPhrase(task, 'triage') !== undefined) return undefined;
  const word = (verb ?? bug)?.toLowerCase();
  const asks =
    verb !== undefined
      ? `"${word}" asks for implementation work`
      : bug !== undefined
        ? `"${word}" reports a bug to fix`
        : learned !== undefined
          ? `no row, role or charter names the task, and ${learned.says}`
          : 'no row, role or charter names the task, and it asks for work to be done, not a question or a plan for the lead';
  const words = word === undefined ? (learned?.words ?? []) : [word];
  // A member to spawn: implementation work is never a question for a human.
  const spawnable = (r: RoutingRow) => targets(r.names).find((t) => !t.human);
  const row = rows.find((r) => tokenize(r.workType).includes(IMPLEMENTATION_TERM) && spawnable(r) !== undefined);
  if (row) {
    const target = spawnable(row)!;
    return {
      target,
      routedBy: byRow(row, words, 0),
      why: `${asks}, and routing.md line ${row.line} routes "${row.workType}" to ${row.routeTo}`,
    };
  }
  const implementers = members.filter((m) => !isLead(m) && tokenize(roleText(m.role)).includes(IMPLEMENTATION_TERM));
  if (implementers.length !== 1) return undefined;
  const target = implementers[0]!;
  return {
    target,
    routedBy: { source: 'charter', words, margin: 0 },
    why: `${asks}, which ${who(target)} handles by role`,
  };
}

/** The stems a routing.md work type or a role title holds when it takes testing. */
const TESTING_TERMS: ReadonlySet<string> = new Set(tokenize('tests testing tester qa'));
/** The stems a routing.md row holds when it takes the team's decisions (not "architecture": a specialist's row may name theirs). */
const DECISION_TERMS: ReadonlySet<string> = new Set(tokenize('decisions tradeoffs scope priorities'));

/** The stems a routing.md work type holds when it takes code review ("Code review", "Review PRs"). */
const REVIEW_TERMS: readonly string[] = tokenize('code review');
const [PR_TERM] = tokenize('pr') as [string];

/**
 * A change to read and accept or send back (work-kind.ts: a PR, a branch, a diff) goes to whoever
 * reviews code: the member of the first routing.md row whose work type names code review or PRs,
 * else the lead. A review of a subject ("a security review of the install script") is no such task.
 */
function memberOfReview(task: string, rows: readonly RoutingRow[], targets: (names: readonly string[]) => Target[], lead: Agent | undefined): Decision | undefined {
  const phrase = workKindPhrase(task, 'review');
  if (phrase === undefined) return undefined;
  const words = [phrase.toLowerCase()];
  const row = rows.find((r) => {
    const terms = tokenize(`${r.workType} ${r.examples}`);
    return (REVIEW_TERMS.every((term) => tokenize(r.workType).includes(term)) || terms.includes(PR_TERM)) && targets(r.names).some((t) => !t.human);
  });
  if (row) {
    const target = targets(row.names).find((t) => !t.human)!;
    return {
      target,
      routedBy: byRow(row, words, 1),
      why: `"${phrase}" asks for a code review, and routing.md line ${row.line} routes "${row.workType}" to ${row.routeTo}`,
    };
  }
  if (lead === undefined) return undefined;
  return { target: lead, routedBy: { source: 'default', words, margin: 0 }, why: `"${phrase}" asks for a code review, which is ${lead.displayName}'s (the lead)` };
}

/**
 * A task phrased as testing (work-kind.ts: tests asked for, behaviour to try, confirm or
 * reproduce) goes to whoever tests, whatever it tests: the member of the first routing.md row
 * whose work type names testing, else the one member whose role title does.
 */
function memberOfTesting(
  asked: KindReading | undefined,
  rows: readonly RoutingRow[],
  targets: (names: readonly string[]) => Target[],
  members: readonly Agent[],
): Decision | undefined {
  if (asked === undefined) return undefined;
  const { words, says } = asked;
  const spawnable = (r: RoutingRow) => targets(r.names).find((t) => !t.human);
  const row = rows.find((r) => tokenize(r.workType).some((term) => TESTING_TERMS.has(term)) && spawnable(r) !== undefined);
  if (row) {
    const target = spawnable(row)!;
    return {
      target,
      routedBy: byRow(row, words, 1),
      why: `${says}, and routing.md line ${row.line} routes "${row.workType}" to ${row.routeTo}`,
    };
  }
  const testers = members.filter((m) => tokenize(m.role ?? '').some((term) => TESTING_TERMS.has(term)));
  if (testers.length !== 1) return undefined;
  const target = testers[0]!;
  return { target, routedBy: { source: 'charter', words, margin: 1 }, why: `${says}, which ${who(target)} does by role` };
}

/**
 * A question of judgement (work-kind.ts: whether, which, enough, worth it) goes to whoever the team
 * gives its decisions: the one member (or human, to ask) that routing.md's rows of decisions,
 * trade-offs, architecture or scope name, else the lead.
 */
function memberOfDecision(
  asked: KindReading | undefined,
  rows: readonly RoutingRow[],
  targets: (names: readonly string[]) => Target[],
  lead: Agent | undefined,
): Decision | undefined {
  if (asked === undefined) return undefined;
  const { words, says } = asked;
  const deciding = rows.filter((r) => tokenize(`${r.workType} ${r.examples}`).some((term) => DECISION_TERMS.has(term)) && targets(r.names).length > 0);
  const named = new Set(deciding.map((r) => targets(r.names)[0]!.name));
  if (named.size === 1) {
    const row = deciding[0]!;
    const target = targets(row.names)[0]!;
    return {
      target,
      routedBy: byRow(row, words, 1),
      why: `${says}, and routing.md line ${row.line} routes "${row.workType}" to ${row.routeTo}`,
    };
  }
  if (lead === undefined) return undefined;
  return { target: lead, routedBy: { source: 'default', words, margin: 0 }, why: `${says}, which is ${lead.displayName}'s (the lead)` };
}

/**
 * A task that asks for a yes (work-kind.ts: an approval, a sign-off, a go-ahead) is a question for
 * the one human it names, else for the one member or human routing.md's rows of approvals name
 * ("Product sign-off"), whatever its other words: ask a human, never spawn them.
 */
function memberOfApproval(task: string, everyone: readonly Agent[], rows: readonly RoutingRow[], targets: (names: readonly string[]) => Target[]): Decision | undefined {
  const approval = workKindPhrase(task, 'approval');
  if (approval === undefined) return undefined;
  const named = everyone.filter((agent) => agent.human && hasWord(task, agent.displayName));
  if (named.length === 1) {
    const human = named[0]!;
    return {
      target: human,
      routedBy: { source: 'default', words: [human.displayName.toLowerCase(), approval.toLowerCase()], margin: 1 },
      why: `the task names ${who(human)} and asks for a yes ("${approval}")`,
    };
  }
  if (named.length > 1) return undefined;
  const approving = rows.filter((r) => workKindPhrase(`${r.workType}; ${r.examples}`, 'approval') !== undefined && targets(r.names).length > 0);
  if (new Set(approving.map((r) => targets(r.names)[0]!.name)).size !== 1) return undefined;
  const row = approving[0]!;
  return {
    target: targets(row.names)[0]!,
    routedBy: byRow(row, [approval.toLowerCase()], 1),
    why: `"${approval}" asks for a yes, and routing.md line ${row.line} routes "${row.workType}" to ${row.routeTo}`,
  };
}

/**
 * The member whose role, charter and own skills hold the task's most distinguishing words. Members
 * that tie at the top are told apart by `breakTie`; a tie it cannot break decides nothing (never the
 * roster's order).
 */
function memberOfRanking(ranking: readonly MemberScore[], byName: ReadonlyMap<string, Agent>, breakTie: (ids: string[]) => BrokenTie | undefined): Decision | undefined {
  const [first] = ranking;
  if (!first || first.score <= 0) return undefined;
  const tied = ranking.filter((m) => sameScore(m.score, first.score));
  const broken = tied.length > 1 ? breakTie(tied.map((m) => m.id)) : undefined;
  if (tied.length > 1 && broken === undefined) return undefined;
  const top = broken ? tied.find((m) => m.id === broken.id)! : first;
  // Charter boilerplate alone ("gets hard", "final") is no evidence; the role, the ownership part or a skill is.
  const { charter = [], ...owned } = top.matches;
  if (Object.keys(owned).length === 0) return undefined;
  const target = byName.get(top.id)!;
  const words = [...new Set(Object.values(top.matches).flat())].sort();
  const next = ranking.find((m) => m.id !== top.id);
  const margin = next ? round((top.score - next.score) / top.score) : 1;
  return {
    target,
    routedBy: { source: 'charter', words, margin },
    why: `${target.displayName} matched ${describeMatches(top.matches)} (words that distinguish them from the other members; margin ${margin}${broken ? `; the tie goes to them because ${broken.because}` : ''})`,
  };
}

function sameScore(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
}

interface BrokenTie {
  id: string;
  /** Why this member, as the end of a sentence. */
  because: string;
}

/**
 * Which of the members that tie in the ranking takes the task: the one whose routing.md row
 * matches the task best (the team said the work is theirs), else the one member whose role title
 * holds a word of the task. Otherwise nobody: the task goes on down the order of authority (a row,
 * implementation work, the lead to triage) rather than to whoever the roster lists first.
 */
function breakTie(ids: readonly string[], task: string, { matches, targetOf }: RowTargets, byName: ReadonlyMap<string, Agent>): BrokenTie | undefined {
  const rowMatch = matches.find((m) => ids.includes(targetOf.get(m.row)!.name));
  if (rowMatch)
    return {
      id: targetOf.get(rowMatch.row)!.name,
      because: `routing.md line ${rowMatch.row.line} ("${rowMatch.row.workType}") holds ${rowMatch.words.map((w) => `"${w}"`).join(', ')}`,
    };
  const titled = ids.filter((id) => roleTitleWords(byName.get(id)!, task).length > 0);
  if (titled.length === 1) {
    const member = byName.get(titled[0]!)!;
    return {
      id: member.name,
      because: `their role (${member.role}) names ${roleTitleWords(member, task)
        .map((w) => `"${w}"`)
        .join(', ')}`,
    };
  }
  return undefined;
}

/** The task's words (their own or a domain reading, as routingTerms writes them) that a member's role title holds, one per task word. */
function roleTitleWords(member: Agent, task: string): string[] {
  const title = new Set(tokenize(member.role ?? ''));
  if (title.size === 0) return [];
  return [...termsBySource(routingTerms(task)).values()].flatMap((variants) => {
    const held = variants.find(([term]) => title.has(term));
    return held ? [held[1]] : [];
  });
}

/**
 * A member whose role title holds two of the task's words or more, when the routing.md row the task
 * matched holds none of them in its Work Type (only among its examples): a title naming the very
 * subject ("Copilot SDK Expert") says more than an example of another row.
 */
function memberOfRoleTitle(task: string, row: Decision, members: readonly Agent[]): Decision | undefined {
  if ((row.inWorkType ?? []).length > 0) return undefined;
  const titled = members
    .filter((m) => m.name !== row.target.name)
    .map((member) => ({ member, words: roleTitleWords(member, task) }))
    // A row that holds one word of the task among its examples yields to a title naming one; a stronger row to a title naming two.
    .filter(({ words }) => taskWordCount(words) >= (row.weak ? 1 : 2))
    .sort((a, b) => b.words.length - a.words.length);
  const [best, next] = titled;
  if (!best || (next && next.words.length === best.words.length)) return undefined;
  const margin = round((best.words.length - (next?.words.length ?? 0)) / best.words.length);
  return {
    target: best.member,
    routedBy: { source: 'charter', words: best.words, margin },
    why: `${who(best.member)}'s role names ${best.words.map((w) => `"${w}"`).join(', ')}, and routing.md line ${row.routedBy.row!.line} ("${row.routedBy.row!.workType}") holds the task's words only among its examples`,
  };
}

/** The task words a skill matched that say something specific (not GENERIC_WORDS). */
function specificSkillWords(match: SkillMatch): string[] {
  return match.terms.filter((word) => {
    const [term] = tokenize(word);
    return term !== undefined && !GENERIC_WORDS.has(term);
  });
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
 * "infrastructure" say DevOps), the charter cut into its ownership part and the rest, and the
 * member's own skills among those the task calls for. A member is credited for holding the skills
 * a task needs, never for how many skills it holds.
 */
function memberTexts(member: Agent, { owns, rest }: { owns: string; rest: string }, calledFor: readonly SkillMatch[]): MemberTexts {
  const ownCalledFor = calledFor.filter((m) => m.skill.scope === 'agent' && m.skill.agent === member.name);
  return {
    id: member.name,
    role: roleText(member.role),
    owns,
    charter: rest,
    skills: ownCalledFor.map((m) => Object.values(skillFields(m.skill)).join('\n')).join('\n'),
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
    .sort(([a], [b]) => (MEMBER_FIELD_WEIGHTS[b as keyof typeof MEMBER_FIELD_WEIGHTS] ?? 0) - (MEMBER_FIELD_WEIGHTS[a as keyof typeof MEMBER_FIELD_WEIGHTS] ?? 0))
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
