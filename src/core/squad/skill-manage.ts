/**
 * Installed skills by name, for `skills remove` and `skills update`: where a team or agent skill
 * of that name is, and where one taken out goes (moved whole into .ai-team/backups/, never deleted:
 * skill-change-plan.ts decides the move).
 *
 * A team skill is found where create-squad writes team skills (.github/skills/), else among the
 * team skills of a squad not yet upgraded (.ai-team/skills/). Built-in squad- skills come with
 * create-squad (upgrade puts them back) and skills kept in .agents/skills/ or .claude/skills/
 * belong to other tools (create-squad never writes there): both are refused, with what to do.
 */
import { closestMatch } from '../base/edit-distance.js';
import { SquadError, usageError } from '../base/errors.js';
import { existsInside, readDirNames } from '../fs/fs-safe.js';
import { hasRecord, readSources } from '../skills/skill-sources.js';
import { installedBuiltinSkillDirs } from './owned.js';
import {
  NATIVE_SKILL_DIRS,
  TEAM_SKILLS_DIR,
  agentSkillDir,
  agentSkillsDir,
  backupPathFor,
  folderTimestamp,
  isBuiltinSkillName,
  nativeTeamSkillDir,
  resolveIn,
  aiTeamSkillDir,
} from '../base/paths.js';
import { listAgents, requireAgent, requireSquad } from '../roster/roster.js';
import { quoted } from '../base/util.js';

export interface InstalledSkill {
  name: string;
  /** Repo-relative folder of the skill. */
  destination: string;
  scope: 'team' | 'agent';
  /** The member's folder, for an agent skill. */
  agent?: string;
}

function checkName(name: string): void {
  if (name === '' || /[\\/]/.test(name) || name === '.' || name === '..') {
    throw usageError(`${quoted(name)} is not a skill name`, 'give the name of the skill folder, e.g. api-design');
  }
}

/** The team skill named `name`, or a refusal that says where it is instead (another tool's folder, an agent). */
function teamSkill(root: string, name: string, command: string): InstalledSkill {
  // A built-in lives in .github/skills/ or .ai-team/skills/ (installedBuiltinSkillDirs): never one of the team's.
  const builtinAt = isBuiltinSkillName(name) ? installedBuiltinSkillDirs(root).get(name) : undefined;
  for (const destination of [nativeTeamSkillDir(name), ...(isBuiltinSkillName(name) ? [] : [aiTeamSkillDir(name)])]) {
    if (destination !== builtinAt && existsInside(root, destination)) return { name, destination, scope: 'team' };
  }
  if (isBuiltinSkillName(name) && (existsInside(root, aiTeamSkillDir(name)) || (builtinAt !== undefined && existsInside(root, builtinAt)))) {
    throw new SquadError('invalid-input', `${name} is a built-in skill: it comes with create-squad, and upgrade puts it back`, {
      hint: 'built-in skills are not removed or updated one by one; "create-squad upgrade" keeps them current',
    });
  }
  const elsewhere = NATIVE_SKILL_DIRS.filter((dir) => dir !== TEAM_SKILLS_DIR)
    .map((dir) => `${dir}/${name}`)
    .find((dir) => existsInside(root, dir));
  if (elsewhere) {
    throw new SquadError('invalid-input', `${elsewhere} is kept for other tools: create-squad reads it and never writes there`, {
      hint: `change it there yourself${command === 'remove' ? ' (move it out of that folder to take it away)' : ''}`,
    });
  }
  const owners = listAgents(root).filter((agent) => agent.hasFolder && existsInside(root, agentSkillDir(agent.name, name)));
  if (owners.length > 0) {
    throw new SquadError('not-found', `no team skill named "${name}"`, { hint: `it is ${owners.map((a) => a.name).join(', ')}'s: add --agent ${owners[0]!.name}` });
  }
  const known = readDirNames(resolveIn(root, TEAM_SKILLS_DIR));
  const near = closestMatch(name, known);
  throw new SquadError('not-found', `no team skill named "${name}"`, {
    hint: near ? `did you mean ${near}? (see "create-squad skills list")` : 'see "create-squad skills list"',
  });
}

/** The installed skill `name` of the team, or of `agent` (folder or roster name). */
export function locateSkill(root: string, name: string, agent: string | undefined, command: 'remove' | 'update'): InstalledSkill {
  requireSquad(root);
  checkName(name);
  if (agent === undefined) return teamSkill(root, name, command);
  const member = requireAgent(root, agent);
  const destination = agentSkillDir(member.name, name);
  if (existsInside(root, destination)) return { name, destination, scope: 'agent', agent: member.name };
  const near = closestMatch(name, readDirNames(resolveIn(root, agentSkillsDir(member.name))));
  throw new SquadError('not-found', `${member.name} has no skill named "${name}"`, {
    hint: near ? `did you mean ${near}? (see "create-squad skills list --agent ${member.name}")` : `see "create-squad skills list --agent ${member.name}"`,
  });
}

/**
 * Where the skill `name` of the team, or of `agent`, is installed: its folder whether or not it is
 * there now (an update killed between its backup and its swap leaves it missing for a moment).
 */
export function skillHome(root: string, name: string, agent: string | undefined): InstalledSkill {
  requireSquad(root);
  checkName(name);
  if (agent === undefined) return { name, destination: nativeTeamSkillDir(name), scope: 'team' };
  const member = requireAgent(root, agent);
  return { name, destination: agentSkillDir(member.name, name), scope: 'agent', agent: member.name };
}

/** Where a skill taken out at `now` goes: the same path under a timestamped backup folder. */
export function removalBackup(skill: InstalledSkill, now: Date): string {
  return backupPathFor(folderTimestamp(now), skill.destination);
}

/**
 * The installed skill to update; one whose folder is missing but whose source is recorded (an update
 * killed between its backup and its swap) is updated where it was.
 */
export function locateForUpdate(root: string, name: string, agent: string | undefined): InstalledSkill {
  try {
    return locateSkill(root, name, agent, 'update');
  } catch (error) {
    const home = skillHome(root, name, agent);
    if (!hasRecord(readSources(root), home.destination)) throw error;
    return home;
  }
}
