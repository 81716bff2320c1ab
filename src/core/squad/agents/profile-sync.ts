/**
 * Keeping the members' Copilot agents (`.github/agents/{folder}.agent.md`) in step with the squad:
 * `planMemberProfiles` reads the roster, each member's skills and the profiles there are, and says
 * what to write; `profileChanges` turns that into changes of the command's own plan (base/plan.ts), which
 * every command that changes a member or what a member sees applies with the rest of its plan (init
 * and hire plan the one new profile themselves).
 *
 * Per active member (a roster member with a folder, and the Scribe):
 *   missing                               → create it (or, for a member back from the alumni, move
 *                                           the agent that retired with them back, then go on)
 *   what create-squad would write now     → nothing
 *   stamped and untouched (only stale)    → replace it
 *   edited, or not written by create-squad→ copy it to `.ai-team/backups/{timestamp}/…`, then replace it
 *   stamped by a newer create-squad       → leave it, with a reason
 *   a symlink, a folder, a blocked path   → leave it, with the obstacle
 * A profile create-squad wrote for someone who is no longer active moves: to the member's folder
 * among the alumni when they retired (`.ai-team/agents/_alumni/{folder}/{folder}.agent.md`, so a
 * rehire brings it back), else to the backups. A profile without a create-squad stamp that names
 * no member is the user's own agent: never touched.
 *
 * Every write is one atomic write or one rename, and the plan looks only at what is on disk, so a
 * run killed at any write and started again finishes the job; a backup is written before the
 * replacement, so an edit always exists somewhere.
 */
import { DiskReader } from '../../fs/disk-reader.js';
import { packageVersion } from '../../fs/version.js';
import { listAgents } from '../../roster/roster.js';
import { readModelSources, withModels } from '../../roster/models.js';
import { readSquadSkills, type ProfileMember, type SkillChanges } from './profile-input.js';
import { activeMembersOf, decideMemberProfiles, type ProfilePlan, type ProfileState, type ProfileSyncOptions } from './profile-plan.js';

export * from './profile-plan.js';

/** The members who get an agent: roster members with a folder (humans have none), and the Scribe; each with its model. */
export function activeMembers(root: string): ProfileMember[] {
  const members = activeMembersOf(listAgents(root));
  return withModels(
    members,
    readModelSources(
      root,
      members.map((member) => member.folder),
    ),
  );
}

export function readProfileState(root: string): ProfileState {
  return { members: activeMembers(root), squad: readSquadSkills(root) };
}

/** Plan the profiles of the squad at `root` (see the header). Reads only. */
export async function planMemberProfiles(root: string, options: ProfileSyncOptions = {}): Promise<ProfilePlan> {
  const state = readProfileState(root);
  return decideMemberProfiles(new DiskReader(root), state, { ...options, version: options.version ?? packageVersion() });
}

/**
 * The agents a skill change touches, planned with the change as if made (commands write them
 * before the skill, so a rerun after a kill finishes both): the member's for one of its own
 * skills, every active member's for a team skill.
 */
export async function planSkillChangeProfiles(root: string, agent: string | undefined, changes: SkillChanges): Promise<ProfilePlan> {
  const members = agent === undefined ? activeMembers(root).map((member) => member.folder) : [agent];
  return planMemberProfiles(root, { ...changes, members });
}
