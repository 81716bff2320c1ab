/**
 * How many skills a standard spawn prompt lists. `<available_skills>` costs tokens on every spawn:
 * a squad with hundreds of skills would spend tens of thousands before the task. Within a token
 * budget the prompt lists every skill when they fit, else the most useful ones for this task, and
 * says how many it left out and how to find them.
 */
import type { DiscoveredSkill } from '../squad/discover.js';
import { namedSkills, skillScores, type SkillRankContext } from '../squad/skill-rank.js';
import { tokensOfLength } from '../base/tokens.js';
import { skillEntryLength } from '../base/xml.js';

export { DEFAULT_SKILLS_BUDGET } from '../base/prompt-limits.js';

/** Why a skill is not listed. */
export type LeftOutReason = 'over-budget';

export interface SkillListing {
  /** The skills to list, in the order to list them. */
  listed: DiscoveredSkill[];
  /** The skills left out, most relevant first. */
  leftOut: DiscoveredSkill[];
  /** Estimated tokens of the listed entries. */
  tokens: number;
}

/** The estimated tokens one skill's `<available_skills>` entry (and its line break) takes. */
export function skillEntryTokens(skill: DiscoveredSkill): number {
  // The entry and its line break, measured without being built.
  return tokensOfLength(skillEntryLength({ name: skill.name, description: skill.description ?? '', location: skill.location }) + 1);
}

/**
 * The skills a standard prompt for `agent` lists within `budget` tokens (undefined: no budget).
 * When every skill fits, all of them, in discovery order. Otherwise, in this order until the budget
 * is spent: the skills the task names (always listed, even past the budget), the agent's own
 * skills, then the others by relevance to the task, and those that match nothing in discovery order.
 */
export function selectListedSkills(task: string, skills: readonly DiscoveredSkill[], agent: string, budget: number | undefined, context: SkillRankContext = {}): SkillListing {
  // Each entry is weighed when first needed: over budget, only the skills that get listed (and the
  // first that does not fit) are, not every skill of a squad of thousands.
  const costs = new Map<DiscoveredSkill, number>();
  const cost = (skill: DiscoveredSkill): number => {
    let known = costs.get(skill);
    if (known === undefined) {
      known = skillEntryTokens(skill);
      costs.set(skill, known);
    }
    return known;
  };
  if (budget === undefined) return { listed: [...skills], leftOut: [], tokens: sum(skills.map(cost)) };
  let total = 0;
  for (const skill of skills) {
    total += cost(skill);
    if (total > budget) break;
  }
  if (total <= budget) return { listed: [...skills], leftOut: [], tokens: total };

  const named = new Set(namedSkills(task, skills));
  const listed: DiscoveredSkill[] = [...named];
  let tokens = sum(listed.map(cost));
  const rest = priorityOrder(
    task,
    skills.filter((skill) => !named.has(skill)),
    agent,
    context,
  );
  let next = 0;
  for (; next < rest.length; next += 1) {
    const weight = cost(rest[next]!);
    if (tokens + weight > budget) break;
    listed.push(rest[next]!);
    tokens += weight;
  }
  return { listed, leftOut: rest.slice(next), tokens };
}

/** The agent's own skills, then the others; within each, by relevance to the task, then in discovery order. */
function priorityOrder(task: string, skills: readonly DiscoveredSkill[], agent: string, context: SkillRankContext): DiscoveredSkill[] {
  const scores = skillScores(task, skills, context);
  // Only the skills that match are sorted: the rest keep discovery order behind them, within
  // their group (thousands of skills, most of which match nothing, need no comparison each).
  const groups: { matched: number[]; rest: number[] }[] = [
    { matched: [], rest: [] },
    { matched: [], rest: [] },
  ];
  for (let index = 0; index < skills.length; index += 1) {
    const skill = skills[index]!;
    const group = groups[skill.scope === 'agent' && skill.agent === agent ? 0 : 1]!;
    (scores[index]! > 0 ? group.matched : group.rest).push(index);
  }
  const byRelevance = (x: number, y: number): number => scores[y]! - scores[x]! || x - y;
  return groups.flatMap(({ matched, rest }) => [...matched.sort(byRelevance), ...rest]).map((index) => skills[index]!);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
