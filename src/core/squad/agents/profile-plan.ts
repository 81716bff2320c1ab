/**
 * Deciding the members' Copilot agents from what was read (profile-sync.ts reads it): what each
 * active member's agent needs, what moves for members no longer active, as changes of the
 * command's own plan. See profile-sync.ts for the rules.
 */
import type { DiskFacts } from '../../base/disk-facts.js';
import type { Change } from '../../base/plan.js';
import { isValidName } from '../../base/names.js';
import { isShippedContent } from '../owned.js';
import { SCRIBE_AGENT, agentDir, alumniDir, backupPathFor, folderTimestamp } from '../../base/paths.js';
import type { Agent } from '../../roster/roster.js';
import { SCRIBE_MEMBER } from '../../roster/casting.js';
import { compareVersions } from '../../fs/version.js';
import { AGENTS_DIR, memberProfilePath, profileFolder, readProfileStamp } from './member-profile.js';
import { memberProfileText, type ProfileMember, type SkillChanges, type SquadSkills } from './profile-input.js';
/** activeMembers from the squad's agents as read (listAgents). */
export function activeMembersOf(agents: readonly Agent[]): ProfileMember[] {
  return agents
    .filter((agent) => agent.hasFolder && !agent.human && (agent.inRoster || agent.name === SCRIBE_AGENT))
    .map((agent) =>
      agent.inRoster
        ? { folder: agent.name, displayName: agent.displayName, role: agent.role ?? '' }
        : { folder: SCRIBE_AGENT, displayName: SCRIBE_MEMBER.name, role: SCRIBE_MEMBER.role },
    );
}

export type ProfileAction = 'create' | 'restore' | 'refresh' | 'replace' | 'retire' | 'orphan';

export interface ProfileChange {
  action: ProfileAction;
  /** The profile. */
  path: string;
  /** The member folder it is for. */
  member: string;
  /** create, refresh, replace: the new text. */
  content?: string;
  /** replace: where the current (edited) text is copied first. */
  backup?: string;
  /** retire, orphan: where the profile moves. */
  to?: string;
  /** restore: where the profile comes back from (the member's folder, back from the alumni). */
  from?: string;
  /** refresh, replace: what the profile holds now (replaced only while it still does; replace backs it up). */
  base?: Buffer;
}

export interface ProfileSkip {
  path: string;
  reason: string;
  /** A symlink, a folder or a blocked path stands there (else: a newer create-squad wrote it). */
  blocked: boolean;
}

export interface ProfilePlan {
  root: string;
  /** In write order. */
  changes: ProfileChange[];
  /** Profiles left as they are, with why: the squad's agents are not in step until they are cleared. */
  skipped: ProfileSkip[];
}

export interface ProfileSyncOptions extends SkillChanges {
  /**
   * Plan only the agents of these folders (written when the member is active, moved when not);
   * default: every profile there is.
   */
  members?: readonly string[];
  version?: string;
  /** Names the backup folder (default: now). */
  now?: Date;
}

/** A profile's bytes as read by `read`: one too large to be one create-squad wrote is an edit (empty). */
function profileBytes(read: () => Buffer | undefined): Buffer | undefined {
  try {
    return read();
  } catch {
    return Buffer.alloc(0); // too large to be one create-squad wrote: an edit
  }
}

function newerStamp(text: string, version: string): string | undefined {
  const stamp = readProfileStamp(text);
  return stamp !== undefined && compareVersions(stamp.version, version) > 0 ? stamp.version : undefined;
}

/** Where the agent of a member back from the alumni waits: in the member's folder. */
export function keptProfilePath(folder: string): string {
  return `${agentDir(folder)}/${folder}.agent.md`;
}

function planActive(disk: DiskFacts, member: ProfileMember, content: string, version: string, timestamp: string, plan: ProfilePlan): void {
  const relPath = memberProfilePath(member.folder);
  const obstacle = disk.blocked(relPath);
  if (obstacle !== undefined) {
    plan.skipped.push({ path: relPath, reason: obstacle, blocked: true });
    return;
  }
  let current = profileBytes(() => disk.bytes(relPath));
  const kept = keptProfilePath(member.folder);
  const keptText = current === undefined ? profileBytes(() => disk.bytes(kept)) : undefined;
  if (keptText !== undefined && readProfileStamp(keptText.toString('utf8')) !== undefined && disk.blocked(kept) === undefined) {
    // Back from the alumni: the agent that retired with the member returns, then is brought up to date.
    plan.changes.push({ action: 'restore', path: relPath, member: member.folder, from: kept });
    current = keptText;
  }
  if (current === undefined) {
    plan.changes.push({ action: 'create', path: relPath, member: member.folder, content });
    return;
  }
  if (isShippedContent(current, Buffer.from(content))) return;
  const text = current.toString('utf8');
  const newer = newerStamp(text, version);
  if (newer !== undefined) {
    plan.skipped.push({ path: relPath, reason: `written by create-squad ${newer}, newer than this ${version}`, blocked: false });
    return;
  }
  if (readProfileStamp(text)?.intact) {
    plan.changes.push({ action: 'refresh', path: relPath, member: member.folder, content, base: current });
    return;
  }
  plan.changes.push({ action: 'replace', path: relPath, member: member.folder, content, backup: backupPathFor(timestamp, relPath), base: current });
}

/** Where a retired member's agent is kept: in its folder among the alumni, so it comes back on rehire. */
export function retiredProfilePath(folder: string): string {
  return `${alumniDir(folder)}/${folder}.agent.md`;
}

/** Profiles create-squad wrote for folders that are no longer active members: where each goes. */
function planInactive(disk: DiskFacts, wanted: (folder: string) => boolean, version: string, timestamp: string, plan: ProfilePlan): void {
  for (const name of disk.names(AGENTS_DIR)) {
    const relPath = `${AGENTS_DIR}/${name}`;
    const folder = profileFolder(relPath);
    if (folder === undefined || !wanted(folder) || disk.blocked(relPath) !== undefined) continue;
    const current = profileBytes(() => disk.bytes(relPath));
    const text = current?.toString('utf8') ?? '';
    if (readProfileStamp(text) === undefined) continue; // the user's own agent
    if (newerStamp(text, version) !== undefined) continue;
    const retiredTo = retiredProfilePath(folder);
    const retired = isValidName(folder) && disk.exists(alumniDir(folder)) && !disk.exists(retiredTo);
    plan.changes.push({ action: retired ? 'retire' : 'orphan', path: relPath, member: folder, to: retired ? retiredTo : backupPathFor(timestamp, relPath) });
  }
}

/** Who gets an agent and the skills they see: what the profiles are generated from, read once. */
export interface ProfileState {
  members: ProfileMember[];
  squad: SquadSkills;
}

/**
 * planMemberProfiles from what was read: who is active and their skills (`state`), and the
 * profiles' paths as `disk` answers (their bytes, what blocks them, the alumni folders). Touches
 * the disk only through `disk`.
 */
export async function decideMemberProfiles(disk: DiskFacts, state: ProfileState, options: ProfileSyncOptions & { version: string }): Promise<ProfilePlan> {
  const { root } = disk;
  const { version } = options;
  const timestamp = folderTimestamp(options.now ?? new Date());
  const plan: ProfilePlan = { root, changes: [], skipped: [] };
  const everyone = state.members;
  const wanted = options.members === undefined ? everyone : everyone.filter((member) => options.members!.includes(member.folder));
  const { squad } = state;
  for (const member of wanted) {
    const content = await memberProfileText(root, member, { ...options, version, squad });
    planActive(disk, member, content, version, timestamp, plan);
  }
  const inactive = (folder: string) => !everyone.some((member) => member.folder === folder) && (options.members === undefined || options.members.includes(folder));
  planInactive(disk, inactive, version, timestamp, plan);
  return plan;
}

/** A profile plan as the one plan type's changes (base/plan.ts), in its write order: a backup before its replacement. */
export function profileChanges(plan: ProfilePlan): Change[] {
  return plan.changes.flatMap((change): Change[] => {
    const { action, path } = change;
    if (action === 'retire' || action === 'orphan') return [{ kind: 'move', from: path, to: change.to! }];
    if (action === 'restore') return [{ kind: 'move', from: change.from!, to: path }];
    if (action === 'create') return [{ kind: 'create', path, content: change.content! }];
    const replace: Change = { kind: 'replace', path, content: change.content!, base: change.base! };
    return action === 'refresh' ? [replace] : [{ kind: 'backup', path: change.backup!, of: path, content: change.base! }, replace];
  });
}

/** A change as commands report it (in --json): what happened to which profile, and where a copy or the file went. */
export interface ProfileChangeReport {
  action: ProfileAction;
  path: string;
  backup?: string;
  to?: string;
  from?: string;
}

export function reportProfileChanges(plan: ProfilePlan): ProfileChangeReport[] {
  return plan.changes.map(({ action, path, backup, to, from }) => ({
    action,
    path,
    ...(backup === undefined ? {} : { backup }),
    ...(to === undefined ? {} : { to }),
    ...(from === undefined ? {} : { from }),
  }));
}

/** One line per change, for a command's report: "created .github/agents/x.agent.md", or "would create …" in a dry run. */
export function describeProfileChange(change: ProfileChangeReport, dryRun = false): string {
  const verb = (done: string, planned: string) => (dryRun ? `would ${planned}` : done);
  switch (change.action) {
    case 'create':
      return `${verb('created', 'create')} ${change.path}`;
    case 'restore':
      return `${verb('moved', 'move')} ${change.from} back to ${change.path}`;
    case 'refresh':
      return `${verb('updated', 'update')} ${change.path}`;
    case 'replace':
      return `${verb('replaced', 'replace')} ${change.path}, which was edited (your version ${verb('is in', 'goes to')} ${change.backup})`;
    case 'retire':
      return `${verb('moved', 'move')} ${change.path} to ${change.to} (retired)`;
    case 'orphan':
      return `${verb('moved', 'move')} ${change.path} to ${change.to} (no such member)`;
  }
}
