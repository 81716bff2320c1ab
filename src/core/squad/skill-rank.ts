/**
 * Which skills a task calls for, and how sure that is. One ranking serves route (the skills to
 * activate, the spawn mode), the lightweight prompt (the skills to inline and the other candidates)
 * and the standard prompt (which skills to list first when not all of them fit).
 */
import type { DiscoveredSkill } from './discover.js';
import { mergeSynonyms, rankCollection, scoreTexts, synonymTable, type RankOptions, type SynonymTable, type TextCollection } from '../base/text-match.js';
import { compareCodePoints, isAscii } from '../base/util.js';
import { SPELLING_MARKS, SPELLINGS, SYNONYM_GROUPS, SYNONYM_ONE_WAY } from './skill-synonyms.js';

/** At most this many skills are activated (inlined in a lightweight spawn) for one task. */
export const MAX_ACTIVATED_SKILLS = 3;
/** A skill is activated when it scores at least this share of the best skill's score. */
const ACTIVATION_SHARE = 0.5;

/**
 * A skill's fields for ranking. A name is a few words, and one generic word in it ("sheet",
 * "convert") must not outweigh a description's precise matches. Descriptions run from one line to a
 * paragraph of trigger phrases: full length normalisation (BM25's usual 0.75) keeps a long one from
 * matching every task by its many words (measured on bench/route-eval's tuning half, 0.3 and 0.5
 * rank worse). A "use when" clause weighted apart from the rest of the description ranked worse
 * there too, weighted up or down, so the description stays one field.
 */
const SKILL_WEIGHTS = { name: 1.5, description: 1 };
const SKILL_LENGTH_NORMALISATION = { name: 0.5, description: 0.75 };
/** A pair of task words a skill's name or description holds side by side scores once more their rarer word's weight. */
const SKILL_PHRASE_WEIGHT = 1;

/** The best skill clearly wins when it holds at least this share of the task's terms… */
export const MIN_CLEAR_COVERAGE = 1 / 3;
/**
 * …and scores at least this share more than the runner-up. A lightweight spawn with the wrong skill
 * costs a whole spawn: on bench/route-eval's tuning half, 0.15 let one clear winner in fifteen be
 * the wrong skill, 0.25 about one in twenty-five.
 */
export const MIN_CLEAR_MARGIN = 0.25;

export interface SkillMatch {
  skill: DiscoveredSkill;
  score: number;
  /** Task words (as written, lowercased) found in the skill's name and description. */
  terms: string[];
  /** The share of the task's weight the skill matched (see RankedDocument.coverage). */
  coverage: number;
}

/**
 * Where a description says what the skill is not for ("Do NOT use for PDFs…", "Not for…",
 * "Skip when…"): from there to the end of the sentence. Those words are no evidence for the skill.
 */
const EXCLUSION = /\b(?:(?:do not|don['\u2019]t|never) (?:use|trigger|invoke|apply)|not (?:for|when|to be used)|skip (?:for|when|if|only when))\b[^.;\n]*/gi;

/** Words every EXCLUSION holds one of: a cheap first test, since most descriptions hold none. */
const EXCLUSION_WORD = /not |n['\u2019]t |never |skip /i;

/** The text of a description that says what the skill is for. */
export function describedUse(description: string): string {
  return EXCLUSION_WORD.test(description) ? description.replace(EXCLUSION, ' ') : description;
}

/** What ranking reads of a skill: its name as words, and what its description says it is for. */
export function skillFields(skill: DiscoveredSkill): { name: string; description: string } {
  return { name: skill.name.replace(/-/g, ' '), description: describedUse(skill.description ?? '') };
}

/**
 * The skills as a collection to rank, read in place: no document per skill. A name's hyphens
 * separate words for the scan as spaces would (skillFields shows the same fields as text).
 */
function skillCollection(skills: readonly DiscoveredSkill[]): TextCollection {
  return {
    size: skills.length,
    fieldNames: SKILL_FIELD_NAMES,
    text: (index, field) => (field === 0 ? skills[index]!.name : describedUse(skills[index]!.description ?? '')),
  };
}
const SKILL_FIELD_NAMES = ['name', 'description'] as const;
/** Names often run words together ("multi-stage-dockerfile", "editorconfig"): a task's "docker" meets "dockerfile". */
const SKILL_PREFIX_FIELDS = ['name'];

/** The built-in synonyms (skill-synonyms.ts), made into a table on first use. */
let builtInSynonyms: SynonymTable | undefined;
export function builtInSkillSynonyms(): SynonymTable {
  builtInSynonyms ??= synonymTable(SYNONYM_GROUPS, SYNONYM_ONE_WAY);
  return builtInSynonyms;
}

/** How a task is matched against skills: the team's synonyms (if any) beside the built-in ones. */
function skillRankOptions(teamSynonyms: SynonymTable | undefined): RankOptions {
  const synonyms = teamSynonyms === undefined ? builtInSkillSynonyms() : mergeSynonyms(builtInSkillSynonyms(), teamSynonyms);
  return { weights: SKILL_WEIGHTS, b: SKILL_LENGTH_NORMALISATION, synonyms, phraseWeight: SKILL_PHRASE_WEIGHT, prefixFields: SKILL_PREFIX_FIELDS };
}

/** The task as ranking reads it: spellings the tokenizer would lose written as skill names spell them. */
export function skillQuery(task: string): string {
  if (!SPELLING_MARKS.test(task)) return task;
  let query = task;
  for (const { pattern, as } of SPELLINGS) query = query.replace(pattern, as);
  return query;
}

/** Options of skill ranking a caller may give: the squad's own synonyms (team-synonyms.ts). */
export interface SkillRankContext {
  synonyms?: SynonymTable;
}

/** Every skill that matches the task at all, best first (ties in the order given). */
export function rankSkills(task: string, skills: readonly DiscoveredSkill[], context: SkillRankContext = {}): SkillMatch[] {
  const ranked = rankCollection(skillCollection(skills), skillQuery(task), { ...skillRankOptions(context.synonyms), matchedOnly: true });
  return ranked.map((hit) => ({
    skill: skills[hit.index]!,
    score: hit.score,
    terms: [...new Set(Object.values(hit.matches).flat())].sort(compareCodePoints),
    coverage: hit.coverage,
  }));
}

/**
 * Each skill's relevance to the task, in the order given: rankSkills' score, 0 for a skill that
 * matches nothing, without the explanation (what ordering thousands of skills needs).
 */
export function skillScores(task: string, skills: readonly DiscoveredSkill[], context: SkillRankContext = {}): Float64Array {
  return scoreTexts(skillCollection(skills), skillQuery(task), skillRankOptions(context.synonyms));
}

/** The skills to activate from a ranking: at most MAX_ACTIVATED_SKILLS that score at least half the best. */
export function activatedSkills(ranked: readonly SkillMatch[]): SkillMatch[] {
  const best = ranked[0]?.score ?? 0;
  return ranked.filter((hit) => hit.score >= best * ACTIVATION_SHARE).slice(0, MAX_ACTIVATED_SKILLS);
}

/**
 * The skills a task calls for: BM25F of the task against each skill's name and description,
 * keeping at most MAX_ACTIVATED_SKILLS that score at least half the best score.
 */
export function matchSkills(task: string, skills: readonly DiscoveredSkill[], context: SkillRankContext = {}): SkillMatch[] {
  return activatedSkills(rankSkills(task, skills, context));
}

export interface SkillConfidence {
  /** How much the best skill leads the runner-up, as a share of its score (1: nothing else matched). */
  margin: number;
  /** The share of the task the best skill matched (0 when no skill matched). */
  coverage: number;
  /** Whether the best skill clearly wins: enough coverage and enough margin. */
  clear: boolean;
  /** Why not, when it does not clearly win. */
  reason?: string;
}

/** Whether the best skill of a ranking clearly wins (MIN_CLEAR_COVERAGE, MIN_CLEAR_MARGIN). */
export function skillConfidence(ranked: readonly SkillMatch[]): SkillConfidence {
  const [best, runnerUp] = ranked;
  if (!best) return { margin: 0, coverage: 0, clear: false, reason: 'no skill matches the task' };
  const margin = (best.score - (runnerUp?.score ?? 0)) / best.score;
  const reported = { margin: round(margin), coverage: round(best.coverage) };
  if (best.coverage < MIN_CLEAR_COVERAGE) {
    return { ...reported, clear: false, reason: `the best skill (${best.skill.name}) matches too little of the task` };
  }
  if (margin < MIN_CLEAR_MARGIN) {
    return { ...reported, clear: false, reason: `no skill clearly wins (${best.skill.name} and ${runnerUp!.skill.name} score alike)` };
  }
  return { ...reported, clear: true };
}

/**
 * The skills the task names: their name, hyphens included, as a whole word in the task, in any
 * case ("follow the api-design skill"). A named skill is always offered to the member.
 */
export function namedSkills(task: string, skills: readonly DiscoveredSkill[]): DiscoveredSkill[] {
  const spelled = new Set(task.toLowerCase().split(isAscii(task) ? /[^a-z0-9-]+/ : /[^\p{L}\p{N}-]+/u));
  return skills.filter((skill) => spelled.has(skill.name));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
