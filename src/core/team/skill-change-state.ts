/**
 * What `skills add`, `skills update` and `skills remove` decide from (skill-change-plan.ts), read
 * once under the squad lock: the member, what stands where each skill goes, the records of the
 * skills' sources, and the members' agents as the decision will ask about them. The skills
 * themselves (their source folders) are read and validated before, outside the squad.
 */
import { attempt, factsFrom, type Recorded } from '../base/disk-facts.js';
import { DiskReader } from '../fs/disk-reader.js';
import { packageVersion } from '../fs/version.js';
import { isInstalledCopy, readInstalledFacts, skillDestination, type SkillSource } from '../skills/skill-install.js';
import { readSources, type SourceRecord } from '../skills/skill-sources.js';
import type { SkillChanges } from '../squad/agents/profile-input.js';
import { readProfileState } from '../squad/agents/profile-sync.js';
import { requireAgent, requireSquad } from '../roster/roster.js';
import { locateForUpdate, locateSkill } from '../squad/skill-manage.js';
import {
  pendingChanges,
  removalChanges,
  skillProfiles,
  type SkillProfilesState,
  type SkillToAdd,
  type SkillToAddState,
  type SkillsAddState,
  type SkillsRemoveState,
  type SkillsUpdateState,
} from './skill-change-plan.js';

/** What a refusal of a skill's destination (a reserved or unportable name) tells to do. */
const DESTINATION_HINT = 'rename the skill (its folder and its name field), or add it to one agent with --agent';

/**
 * The members' part of a skill change as read: who is active and their skills, and the answers to
 * every question the decision asks of the agents' files, asked now by running it once on the disk.
 * `changes` undefined: the decision stops before the agents (a skill that may not go where it would).
 */
async function readSkillProfiles(root: string, agent: string | undefined, changes: SkillChanges | undefined, now: Date): Promise<SkillProfilesState> {
  const reader = new DiskReader(root);
  const state: SkillProfilesState = { profiles: readProfileState(root), disk: reader, version: packageVersion(), now };
  if (changes !== undefined) await skillProfiles(state, agent, changes);
  return { ...state, disk: factsFrom(reader.record()) };
}

/** `read`'s value, or what it threw, as a value (disk-facts.ts attempt, for a read that waits). */
async function attemptAsync<T>(read: () => Promise<T>): Promise<Recorded<T>> {
  try {
    return { value: await read() };
  } catch (error) {
    return { error };
  }
}

/**
 * Read what adding `skills` (to `agent`, or the team) decides from: no-squad or no such agent
 * first; then each skill's destination and what stands there, in order, up to the first the
 * decision refuses (what was thrown is recorded: the decision meets it where it did before).
 */
export async function readSkillsAddState(root: string, skills: readonly SkillToAdd[], agent: string | undefined, now = new Date()): Promise<SkillsAddState> {
  requireSquad(root);
  const member = agent === undefined ? undefined : requireAgent(root, agent);
  const read: SkillToAddState[] = [];
  const placed: { source: SkillSource; destination: string }[] = [];
  for (const skill of skills) {
    const destination = attempt(() => skillDestination(skill.source.report.dirName, member?.name, DESTINATION_HINT));
    const installed = 'value' in destination ? await attemptAsync(() => readInstalledFacts(root, destination.value, skill.source)) : undefined;
    read.push({ ...skill, destination, installed });
    if (!('value' in destination) || installed === undefined || 'error' in installed) break;
    placed.push({ source: skill.source, destination: destination.value });
  }
  const changes = placed.length === skills.length ? pendingChanges(placed, member?.name) : undefined;
  return { root, member, skills: read, sources: readSources(root), ...(await readSkillProfiles(root, member?.name, changes, now)) };
}

/** Read what updating the skill `name` (of `agent`, or the team) from `source`, fetched again and recorded as `record`, decides from. */
export async function readSkillsUpdateState(
  root: string,
  target: { name: string; agent?: string },
  source: SkillSource,
  record: SourceRecord,
  now = new Date(),
): Promise<SkillsUpdateState> {
  const skill = locateForUpdate(root, target.name, target.agent);
  const installed = await readInstalledFacts(root, skill.destination, source);
  const changes = pendingChanges([{ source, destination: skill.destination }], skill.agent);
  return { root, skill, source, record, installed, sources: readSources(root), ...(await readSkillProfiles(root, skill.agent, changes, now)) };
}

/** Read what taking the skill `name` (of `agent`, or the team) out decides from. */
export async function readSkillsRemoveState(root: string, target: { name: string; agent?: string }, now = new Date()): Promise<SkillsRemoveState> {
  const skill = locateSkill(root, target.name, target.agent, 'remove');
  return { root, skill, sources: readSources(root), ...(await readSkillProfiles(root, skill.agent, removalChanges(skill), now)) };
}

/**
 * The skills of a plan that are in place now, file for file, from the first on and up to the first
 * that is not: after applying the plan failed, what landed before the failure (the plan writes them
 * in order).
 */
export async function readLandedSkills<T extends { skill: SkillToAdd; install: { destination: string } }>(root: string, added: readonly T[]): Promise<T[]> {
  const landed: T[] = [];
  for (const one of added) {
    if (!(await isInstalledCopy(root, one.install.destination, one.skill.source))) break;
    landed.push(one);
  }
  return landed;
}
