/**
 * `skills add`, `skills update` and `skills remove` decided from what their read step read
 * (skill-change-state.ts), each as one plan (base/plan.ts), in the order it is applied:
 *   1. the members' agents the change touches (profile-sync.ts: written before the skill, so a rerun
 *      after a kill finishes both);
 *   2. add, update: per skill, the new one placed whole and the skill it replaces moved whole into
 *      the backups (skill-install-plan.ts decideSkillInstall); remove: the skill moved whole into
 *      the backups (never deleted file by file, so moving it back restores it);
 *   3. add, update: the record of each skill's source (its entry in skills-lock.json), last, so a
 *      record never names a skill that did not land; remove: the skill's record is forgotten before
 *      the skill moves (2), so a later `skills update` never fetches the removed skill back and a
 *      rerun after a kill still finds the skill to finish with.
 * Pure: no file-system access (the profile decision reads the agents' files through the recorded
 * DiskFacts).
 */
import { replay, type DiskFacts, type Recorded } from '../base/disk-facts.js';
import type { Change, Plan } from '../base/plan.js';
import { SKILL_FILE } from '../base/paths.js';
import type { SkillSource } from '../skills/skill-install.js';
import { decideSkillInstall, type InstallPlan, type InstalledFacts } from '../skills/skill-install-plan.js';
import { forgetRecordChanges, recordChanges, type SourceRecord, type SourcesFile } from '../skills/skill-sources.js';
import { pendingSkill, type SkillChanges } from '../squad/agents/profile-input.js';
import { decideMemberProfiles, profileChanges, type ProfilePlan, type ProfileState, type ProfileSyncOptions } from '../squad/agents/profile-sync.js';
import type { Agent } from '../roster/roster.js';
import { removalBackup, type InstalledSkill } from '../squad/skill-manage.js';

/** What the agents' part of a skill change is decided from: who is active and their skills, the agents' files as read. */
export interface SkillProfilesState {
  profiles: ProfileState;
  /** The agents' files, as the read step found them. */
  disk: DiskFacts;
  /** The create-squad version stamped into the agents. */
  version: string;
  /** Names the backup folders. */
  now: Date;
}

/**
 * The agents a skill change touches, planned with the change as if made: the member's for one of
 * its own skills (`agent`), every active member's for a team skill. The read step runs it once on
 * the live disk to ask every question it asks, then the decider runs it on the recorded answers.
 */
export function skillProfiles(state: SkillProfilesState, agent: string | undefined, changes: SkillChanges): Promise<ProfilePlan> {
  const members = agent === undefined ? state.profiles.members.map((member) => member.folder) : [agent];
  const options: ProfileSyncOptions & { version: string } = { ...changes, members, version: state.version, now: state.now };
  return decideMemberProfiles(state.disk, state.profiles, options);
}

/** The skills an add or update writes, as the agents' decision sees them: about to be written to `destination`. */
export function pendingChanges(skills: readonly { source: SkillSource; destination: string }[], agent: string | undefined): SkillChanges {
  return { pending: skills.map(({ source, destination }) => pendingSkill(source.report, `${destination}/${SKILL_FILE}`, agent)) };
}

/** The skill a remove takes out, as the agents' decision sees it. */
export function removalChanges(skill: InstalledSkill): SkillChanges {
  return { removed: [`${skill.destination}/${SKILL_FILE}`] };
}

/** A skill to add: its source folder as read and validated, and the record of where it came from. */
export interface SkillToAdd {
  source: SkillSource;
  record: SourceRecord;
}

/** One skill to add as read: where it goes (or why it cannot go there) and what stands there. */
export interface SkillToAddState extends SkillToAdd {
  destination: Recorded<string>;
  /** What stands at the destination; undefined when there is no destination. */
  installed: Recorded<InstalledFacts> | undefined;
}

export interface SkillsAddState extends SkillProfilesState {
  root: string;
  /** The member the skills go to (--agent); undefined for the team. */
  member: Agent | undefined;
  skills: SkillToAddState[];
  sources: SourcesFile;
}

export interface SkillsAddPlan extends Plan {
  root: string;
  member: Agent | undefined;
  added: { skill: SkillToAdd; install: InstallPlan }[];
  /** The records of the skills' sources change. */
  recorded: boolean;
  profiles: ProfilePlan;
  changes: Change[];
}

/** Decide adding the skills read into `state`: refused (skill-exists) where another skill stands, unless `force`. */
export async function decideSkillsAdd(state: SkillsAddState, options: { force: boolean }): Promise<SkillsAddPlan> {
  const { member } = state;
  const added = state.skills.map((skill) => ({
    skill: { source: skill.source, record: skill.record },
    install: decideSkillInstall(skill.source, replay(skill.destination), replay(skill.installed!), options.force, state.now),
  }));
  const records = recordChanges(state.sources, Object.fromEntries(added.map(({ skill, install }) => [install.destination, skill.record])));
  const written = added.map(({ skill, install }) => ({ source: skill.source, destination: install.destination }));
  const profiles = await skillProfiles(state, member?.name, pendingChanges(written, member?.name));
  return {
    root: state.root,
    member,
    added,
    recorded: records.length > 0,
    profiles,
    changes: [...profileChanges(profiles), ...added.flatMap(({ install }) => install.changes), ...records],
  };
}

export interface SkillsUpdateState extends SkillProfilesState {
  root: string;
  /** The skill updated (its folder may be missing: an update killed between its backup and its swap). */
  skill: InstalledSkill;
  /** The skill as fetched again from its recorded source, read and validated. */
  source: SkillSource;
  /** The record of that source as it is now (a git source's new commit). */
  record: SourceRecord;
  installed: InstalledFacts;
  sources: SourcesFile;
}

export interface SkillsUpdatePlan extends Plan {
  root: string;
  skill: InstalledSkill;
  install: InstallPlan;
  record: SourceRecord;
  /** The record of the skill's source changes. */
  recorded: boolean;
  profiles: ProfilePlan;
  changes: Change[];
}

/** Decide replacing the installed skill with the one fetched again (nothing when it is that one already). */
export async function decideSkillsUpdate(state: SkillsUpdateState): Promise<SkillsUpdatePlan> {
  const { skill, source, record } = state;
  // An update replaces the skill where it is; an old copy of a team skill left in .ai-team/skills/ is add --force's to clear.
  const { unchanged, replaces, isSource } = state.installed;
  const install = decideSkillInstall(source, skill.destination, { unchanged, isSource, ...(replaces === undefined ? {} : { replaces }) }, true, state.now);
  const records = recordChanges(state.sources, { [skill.destination]: record });
  const profiles = await skillProfiles(state, skill.agent, pendingChanges([{ source, destination: skill.destination }], skill.agent));
  return {
    root: state.root,
    skill,
    install,
    record,
    recorded: records.length > 0,
    profiles,
    changes: [...profileChanges(profiles), ...install.changes, ...records],
  };
}

export interface SkillsRemoveState extends SkillProfilesState {
  root: string;
  skill: InstalledSkill;
  sources: SourcesFile;
}

export interface SkillsRemovePlan extends Plan {
  root: string;
  skill: InstalledSkill;
  /** Where the skill moves. */
  backup: string;
  /** The record of the skill's source is forgotten (it had one). */
  forgotten: boolean;
  profiles: ProfilePlan;
  changes: Change[];
}

/** Decide taking the skill out: the agents that saw it, its source record forgotten, then the skill moved whole into the backups. */
export async function decideSkillsRemove(state: SkillsRemoveState): Promise<SkillsRemovePlan> {
  const { skill } = state;
  const backup = removalBackup(skill, state.now);
  const profiles = await skillProfiles(state, skill.agent, removalChanges(skill));
  const forget = forgetRecordChanges(state.sources, skill.destination);
  return {
    root: state.root,
    skill,
    backup,
    forgotten: forget.length > 0,
    profiles,
    changes: [...profileChanges(profiles), ...forget, { kind: 'move', from: skill.destination, to: backup }],
  };
}
