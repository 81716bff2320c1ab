/**
 * What `teach` decides from, read once under the squad lock: for a standing rule, the file the rule
 * goes into (`readRuleState`, decided by standing-rules.ts decideStandingRule); for a taught skill,
 * the taught member, the squad's skills, the folder the skill goes into and the members' Copilot
 * agents (`readTeachState`, decided by teach.ts decideTeach). What reading throws is recorded where
 * the decision would meet it, so a refusal of the instruction itself still comes first.
 */
import { readModelSources, withModels } from '../roster/models.js';
import { attempt, factsFrom, replay } from '../base/disk-facts.js';
import { isValidName } from '../base/names.js';
import { SKILL_FILE, alumniDir } from '../base/paths.js';
import { readStateBytes } from '../fs/confined.js';
import { DiskReader } from '../fs/disk-reader.js';
import { resolveInside } from '../fs/fs-safe.js';
import { packageVersion } from '../fs/version.js';
import { AGENTS_DIR, memberProfilePath, profileFolder } from '../squad/agents/member-profile.js';
import { readSquadSkills } from '../squad/agents/profile-input.js';
import { activeMembersOf, keptProfilePath, retiredProfilePath, type ProfileState } from '../squad/agents/profile-sync.js';
import { agentNamed, listAgents, requireSquad } from '../roster/roster.js';
import { decideStandingRule, requireInstructionContent, safeInstructionText, standingRulesPath, type RulePlan, type RuleState } from './standing-rules.js';
import { decideTeach, taughtSkillDir, taughtSkillName, type TeachOptions, type TeachPlan, type TeachState } from './teach.js';

/** Read what adding a standing rule for `agentName` (undefined: the team) decides from. */
export function readRuleState(root: string, agentName: string | undefined): RuleState {
  requireSquad(root);
  const agent = agentName === undefined ? undefined : agentNamed(listAgents(root), agentName);
  return { root, ...(agent ? { agent } : {}), current: attempt(() => readStateBytes(root, standingRulesPath(agent?.name))) };
}

/** Plan adding a standing rule for `agentName` (undefined: the team). Reads only. */
export function planStandingRule(root: string, instruction: string, agentName: string | undefined): RulePlan {
  requireSquad(root);
  requireInstructionContent(safeInstructionText(instruction)); // an empty instruction is refused before the member is looked up
  return decideStandingRule(readRuleState(root, agentName), instruction);
}

/** Ask `disk` now what decideMemberProfiles will ask about the agents of `members` (folders). */
export function readProfileFacts(disk: DiskReader, members: readonly string[]): void {
  const ask = (question: () => unknown) => {
    try {
      question();
    } catch {
      // recorded by the reader: the decision meets it where it asks
    }
  };
  for (const folder of members) {
    const profile = memberProfilePath(folder);
    if (disk.blocked(profile) === undefined) ask(() => disk.bytes(profile)); // a blocked agent is left as it is, unread
    const kept = keptProfilePath(folder);
    ask(() => disk.bytes(kept));
    disk.blocked(kept);
  }
  for (const name of disk.names(AGENTS_DIR)) {
    const relPath = `${AGENTS_DIR}/${name}`;
    const folder = profileFolder(relPath);
    if (folder === undefined || !members.includes(folder)) continue;
    if (disk.blocked(relPath) === undefined) ask(() => disk.bytes(relPath));
    if (isValidName(folder)) {
      disk.exists(alumniDir(folder));
      disk.exists(retiredProfilePath(folder));
    }
  }
}

/** Read what teaching a skill decides from: no-squad when there is no squad, unknown-agent for a member not in it. */
export function readTeachState(root: string, options: TeachOptions): TeachState {
  requireSquad(root);
  const agents = attempt(() => listAgents(root));
  const agent = options.agent === undefined ? undefined : agentNamed(replay(agents), options.agent);
  const profiles = attempt((): ProfileState => {
    const members = activeMembersOf(replay(agents));
    return {
      members: withModels(
        members,
        readModelSources(
          root,
          members.map((member) => member.folder),
        ),
      ),
      squad: readSquadSkills(root),
    };
  });
  const disk = new DiskReader(root);
  let destination: TeachState['destination'];
  try {
    const dir = taughtSkillDir(taughtSkillName(options.instruction, options.name), agent?.name);
    destination = { dir, inside: attempt(() => resolveInside(root, dir, { allowFinalSymlink: true })) };
  } catch {
    destination = undefined; // no folder for that name: the decision refuses the name
  }
  if (destination !== undefined && 'value' in destination.inside) {
    disk.exists(destination.dir);
    disk.isDirectory(destination.dir);
    disk.exists(`${destination.dir}/${SKILL_FILE}`);
  }
  if ('value' in profiles) readProfileFacts(disk, agent === undefined ? profiles.value.members.map((member) => member.folder) : [agent.name]);
  return { root, ...(agent ? { agent } : {}), profiles, ...(destination ? { destination } : {}), disk: factsFrom(disk.record()), version: packageVersion() };
}

/** Plan teaching a skill (decideTeach from readTeachState). Reads only. */
export async function planTeach(root: string, options: TeachOptions): Promise<TeachPlan> {
  return decideTeach(readTeachState(root, options), options);
}
