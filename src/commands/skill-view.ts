/**
 * The skills a command or an MCP tool works on: one member's view, or the team's, and one skill of
 * it by name (with the closest name, or where else it lives, when there is none).
 */
import { closestMatch } from '../core/base/edit-distance.js';
import { discoverSkills, type DiscoveredSkill, type Discovery } from '../core/squad/discover.js';
import { SquadError } from '../core/base/errors.js';
import { requireAgent } from '../core/roster/roster.js';
import { asWarning, type Warning } from '../core/base/warnings.js';

export interface SkillView {
  /** The member's folder name, when the view is one member's. */
  agent?: string;
  skills: DiscoveredSkill[];
  /** Discovery's warnings, but for invalid skills (they are in the list, marked invalid). */
  warnings: Warning[];
}

/**
 * The skills one member sees (built-in, team and its own, after precedence), or without a member
 * the skills every member sees (built-in and team).
 */
export function skillsSeenBy(root: string, agent: string | undefined): SkillView {
  const name = agent === undefined ? undefined : requireAgent(root, agent).name;
  const discovery = discoverSkills(root, name === undefined ? {} : { agent: name });
  const skills = name === undefined ? discovery.skills.filter((skill) => skill.agent === undefined) : discovery.skills;
  return { ...(name === undefined ? {} : { agent: name }), skills, warnings: listingWarnings(discovery) };
}

/** Discovery's warnings for a listing of skills: all but those of invalid skills, which the listing marks invalid itself. */
export function listingWarnings(discovery: Discovery): Warning[] {
  return discovery.warnings.filter((w) => w.code !== 'skill-invalid').map(asWarning);
}

/** One skill of a view by its name; not-found naming the closest one, or where else it is. */
export function findSkill(root: string, view: SkillView, name: string): DiscoveredSkill {
  const wanted = name.trim();
  const found = view.skills.find((skill) => skill.dirName === wanted) ?? view.skills.find((skill) => skill.dirName.toLowerCase() === wanted.toLowerCase());
  if (found) return found;
  const seen = view.agent === undefined ? 'the team' : view.agent;
  const owner = view.agent === undefined ? discoverSkills(root).skills.find((skill) => skill.dirName === wanted && skill.agent !== undefined)?.agent : undefined;
  const close = closestMatch(
    wanted,
    view.skills.map((skill) => skill.dirName),
  );
  const hint =
    owner !== undefined
      ? `it is ${owner}'s own skill: pass agent "${owner}"`
      : close !== undefined
        ? `did you mean "${close}"? list_skills (or skills list) shows the skills ${seen} sees`
        : `list_skills (or skills list) shows the skills ${seen} sees`;
  return notFound(`no skill "${wanted}" is visible to ${seen}`, hint);
}

function notFound(message: string, hint: string): never {
  throw new SquadError('not-found', message, { hint });
}
