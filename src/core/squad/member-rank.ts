/**
 * Ranking members for a task by what distinguishes them (this module reads no file): each task
 * word counts by how few members hold it in the same kind of text, so a word every charter shares
 * ("prompt" in every charter of a squad of agents) weighs nothing there, though it still counts in
 * the one role that names it. The role title counts most, the charter's "what I own" part next,
 * charter boilerplate least; what a charter says its member does not handle is no evidence. Two task
 * words side by side as a role or ownership part puts them ("spawn template") count once more.
 */
import { tokenize } from '../base/text-match.js';
import { routingTerms, termsBySource } from './routing-table.js';

/** What routing reads of one member, as text. */
export interface MemberTexts {
  id: string;
  /** The role with its preset's aliases and routing line. */
  role: string;
  /** The charter's ownership part: "What I Own", the expertise and "I handle" lines. */
  owns: string;
  /** The rest of the charter. */
  charter: string;
  /** The member's own skills the task calls for. */
  skills: string;
}

export interface MemberScore {
  id: string;
  score: number;
  /** Field (role, owns, charter, skills) → the task words found there, as the task wrote them, sorted. Only fields that matched. */
  matches: Record<string, string[]>;
}

export const MEMBER_FIELD_WEIGHTS = { role: 3, owns: 2, skills: 2, charter: 1 } as const;
type Field = keyof typeof MEMBER_FIELD_WEIGHTS;

/**
 * How much a word held by `holders` of `count` members says: nothing when every member holds it
 * (with two members or more), more the fewer hold it.
 */
function rarity(holders: number, count: number): number {
  if (holders === 0 || (count >= 2 && holders >= count)) return 0;
  return Math.log(1 + (count - holders + 0.5) / (holders + 0.5));
}

/** Term sets of texts recently ranked: a squad's charters are the same for every task routed in one process (tests, the MCP server). */
const termSets = new Map<string, ReadonlySet<string>>();
const TERM_SETS_KEPT = 256;

/** The stems of `text` as a set, kept for the next task (the oldest dropped past TERM_SETS_KEPT texts). */
function termSet(text: string): ReadonlySet<string> {
  let set = termSets.get(text);
  if (set === undefined) {
    set = new Set(tokenize(text));
    if (termSets.size >= TERM_SETS_KEPT) termSets.delete(termSets.keys().next().value!);
    termSets.set(text, set);
  }
  return set;
}

/** Where a phrase ends: punctuation between two words makes them items of a list ("queues, workers"), not one thing. */
const PHRASE_BREAK = /[^\p{L}\p{N}\s'-]+/u;

/** The adjacent word pairs of `text` within each phrase: their stems' key ("spawn templat") and the words as written. */
function wordPairs(text: string): [key: string, written: string][] {
  return text
    .toLowerCase()
    .split(PHRASE_BREAK)
    .flatMap((phrase) => {
      const words = phrase.split(/[^\p{L}\p{N}]+/u).flatMap((word) => {
        const [term] = tokenize(word);
        return term === undefined ? [] : [[term, word] as const];
      });
      return words.slice(1).map(([term, word], i): [string, string] => [`${words[i]![0]} ${term}`, `${words[i]![1]} ${word}`]);
    });
}

const pairSets = new Map<string, ReadonlySet<string>>();

/** The word pairs of `text` as a set of keys ("spawn templates" and "memory profiling" in a role or what a member owns), kept as termSet keeps its terms. */
function pairSet(text: string): ReadonlySet<string> {
  let set = pairSets.get(text);
  if (set === undefined) {
    set = new Set(wordPairs(text).map(([key]) => key));
    if (pairSets.size >= TERM_SETS_KEPT) pairSets.delete(pairSets.keys().next().value!);
    pairSets.set(text, set);
  }
  return set;
}

/**
 * Members ranked for `task`, best first (equal scores keep input order). A word in the role, the
 * own skills and the charter counts in each; in the charter it counts once, at the ownership
 * weight when the ownership part holds it. Rarity is measured per kind of text: roles among roles,
 * charters (ownership part and rest together) among charters, skills among skills. `roleOnlyTerms`
 * (the verb a task starts with) count in the role alone.
 */
export function rankMembers(members: readonly MemberTexts[], task: string, roleOnlyTerms: readonly string[] = []): MemberScore[] {
  const bySource = termsBySource(routingTerms(task));
  const sets = members.map((m) => ({
    role: termSet(m.role),
    owns: termSet(m.owns),
    charter: termSet(m.charter),
    skills: termSet(m.skills),
  }));
  const count = members.length;
  const taskPairs = wordPairs(task);
  const scored = members.map((member, i) => {
    const own = sets[i]!;
    // Each term's credits: a word every member holds in that kind of text weighs nothing, and explains nothing either.
    const creditsOf = (term: string): [Field, number][] => {
      const credit = (field: Field, holds: (set: (typeof sets)[number]) => boolean): [Field, number] => [
        field,
        MEMBER_FIELD_WEIGHTS[field] * rarity(sets.filter(holds).length, count),
      ];
      const credits: [Field, number][] = [];
      if (own.role.has(term)) credits.push(credit('role', (set) => set.role.has(term)));
      if (roleOnlyTerms.includes(term)) return credits.filter(([, weight]) => weight > 0);
      if (own.owns.has(term) || own.charter.has(term)) {
        credits.push(credit(own.owns.has(term) ? 'owns' : 'charter', (set) => set.owns.has(term) || set.charter.has(term)));
      }
      if (own.skills.has(term)) credits.push(credit('skills', (set) => set.skills.has(term)));
      return credits.filter(([, weight]) => weight > 0);
    };
    let score = 0;
    const matches: Partial<Record<Field, string[]>> = {};
    // A task word and the domain word it stands for ("table" and "table→database") are one piece of evidence: the better counts.
    for (const variants of bySource.values()) {
      let best: { written: string; credits: [Field, number][]; total: number } | undefined;
      for (const [term, written] of variants) {
        const credits = creditsOf(term);
        const total = credits.reduce((sum, [, weight]) => sum + weight, 0);
        if (total > 0 && (best === undefined || total > best.total)) best = { written, credits, total };
      }
      if (best === undefined) continue;
      score += best.total;
      for (const [field] of best.credits) (matches[field] ??= []).push(best.written);
    }
    // Two task words side by side as the member's role or ownership part puts them ("spawn template") name one thing of theirs: a piece of evidence beyond the two words.
    const ownPairs = { role: pairSet(member.role), owns: pairSet(member.owns) };
    for (const [key, written] of taskPairs) {
      const field: Field | undefined = ownPairs.role.has(key) ? 'role' : ownPairs.owns.has(key) ? 'owns' : undefined;
      if (field === undefined) continue;
      const weight = MEMBER_FIELD_WEIGHTS[field] * rarity(members.filter((m) => pairSet(m.role).has(key) || pairSet(m.owns).has(key)).length, count);
      if (weight <= 0) continue;
      score += weight;
      (matches[field] ??= []).push(written);
    }
    for (const words of Object.values(matches)) words.sort();
    return { id: member.id, score, matches: matches as Record<string, string[]> };
  });
  return scored
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s.score - a.s.score || a.i - b.i)
    .map(({ s }) => s);
}

/** Headings of a charter's ownership part. */
const OWNERSHIP_HEADING = /^#{1,6}\s+(?:what i own|responsibilit|owns?\b|scope|focus|expertise|specialt)/i;
/** Lines of a charter's ownership part outside it: `**Role:**`, `**Expertise:**`, `**I handle:**`. */
const OWNERSHIP_LINE = /^\s*[-*]?\s*\*\*(?:role|expertise|focus|specialt\w*|i handle|i own)\s*:?\*\*/i;
/** Lines that say what a member does not do: evidence for someone else. */
const DISCLAIMER_LINE = /\b(?:don'?t|do not|never|won'?t|doesn'?t|does not)\s+(?:handle|own|do|touch|write)\b|\bnot (?:for|mine)\b/i;
const HEADING = /^#{1,6}\s/;

/** A charter cut into its ownership part and the rest; lines saying what the member does not handle are dropped. */
export function charterParts(charter: string): { owns: string; rest: string } {
  const owns: string[] = [];
  const rest: string[] = [];
  let inOwnership = false;
  for (const line of charter.split('\n')) {
    if (HEADING.test(line)) inOwnership = OWNERSHIP_HEADING.test(line);
    if (DISCLAIMER_LINE.test(line)) continue;
    (inOwnership || OWNERSHIP_LINE.test(line) ? owns : rest).push(line);
  }
  return { owns: owns.join('\n'), rest: rest.join('\n') };
}
