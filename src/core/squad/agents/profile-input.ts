/**
 * What the profile generator needs to know of a member, read from the squad: its roster name and
 * role, its own skills as `prompt` lists them, and the MCP servers of every skill it sees. A skill
 * a command is about to write (teach, skills add) can be laid over what is on disk, so the profile
 * is planned, and written, before the skill.
 */
import type { DiscoveredSkill, Discovery } from '../discover.js';
import { discoverSkills } from '../discover.js';
import { mcpServerKey } from '../../skills/mcp.js';
import { NATIVE_SKILL_DIRS, SCRIBE_AGENT } from '../../base/paths.js';
import { promptableSkills } from '../route.js';
import type { SkillReport } from '../../skills/inspect.js';
import type { McpServerRequirement } from '../../skills/skill-fields.js';
import { compareCodePoints } from '../../base/util.js';
import { packageVersion } from '../../fs/version.js';
import type { ModelChoice } from '../../roster/models.js';
import { renderMemberProfile, type MemberProfileInput, type ProfileServer, type ProfileSkill } from './member-profile.js';

/** A member who gets an agent: roster name, role, folder, and its model when it has one (roster/models.ts). */
export interface ProfileMember {
  folder: string;
  displayName: string;
  role: string;
  model?: ModelChoice;
}

/** A skill about to be written (teach, skills add), planned as if it were there already. */
export interface PendingSkill {
  /** The member it goes to; undefined for a team skill. */
  agent?: string;
  /** Its folder name. */
  dirName: string;
  name: string;
  description: string;
  /** Repo-relative SKILL.md. */
  location: string;
  mcpServers: McpServerRequirement[];
  disableModelInvocation: boolean;
}

interface SeenSkill {
  dirName: string;
  name: string;
  description: string;
  location: string;
  own: boolean;
  mcpServers: McpServerRequirement[];
}

function seen(skill: DiscoveredSkill): SeenSkill {
  return { dirName: skill.dirName, name: skill.name, description: skill.description ?? '', location: skill.location, own: skill.scope === 'agent', mcpServers: skill.mcpServers };
}

/** `skills` (what `folder` sees) with one skill about to be written laid over them by the precedence rules. */
function withPending(skills: SeenSkill[], folder: string, pending: PendingSkill): SeenSkill[] {
  if (pending.disableModelInvocation) return skills;
  const mine = pending.agent === folder;
  if (pending.agent !== undefined && !mine) return skills;
  // A team skill does not reach a member who has an own skill of that name.
  if (!mine && skills.some((skill) => skill.own && skill.dirName === pending.dirName)) return skills;
  const kept = skills.filter((skill) => skill.dirName !== pending.dirName);
  return [...kept, { dirName: pending.dirName, name: pending.name, description: pending.description, location: pending.location, own: mine, mcpServers: pending.mcpServers }];
}

/** Skills about to change (teach, skills add, update, remove), planned as if they had. */
export interface SkillChanges {
  /** Skills about to be written. */
  pending?: readonly PendingSkill[];
  /** SKILL.md paths of skills about to be taken out. */
  removed?: readonly string[];
}

/**
 * The squad's skills, discovered once for every member: what the team sees (built-in and team
 * skills after their precedence), the team skills those hide, and each member's own skills.
 */
export interface SquadSkills {
  team: DiscoveredSkill[];
  hiddenTeam: DiscoveredSkill[];
  own: Map<string, DiscoveredSkill[]>;
}

export function readSquadSkills(root: string): SquadSkills {
  return squadSkillsOf(discoverSkills(root));
}

/** readSquadSkills from a discovery made already (every scope, no agent given). */
export function squadSkillsOf(discovery: Discovery): SquadSkills {
  const own = new Map<string, DiscoveredSkill[]>();
  for (const skill of discovery.skills) {
    if (skill.agent !== undefined) own.set(skill.agent, [...(own.get(skill.agent) ?? []), skill]);
  }
  return { team: discovery.skills.filter((skill) => skill.agent === undefined), hiddenTeam: discovery.overridden, own };
}

/**
 * What `folder` sees, as discovery would for that one member, once the skills whose SKILL.md is in
 * `removed` are gone: a team skill taken out gives way to the one it hid; an own skill hides the
 * team skill of its name.
 */
function memberView(squad: SquadSkills, folder: string, removed: readonly string[]): DiscoveredSkill[] {
  const kept = (skill: DiscoveredSkill) => !removed.includes(skill.location);
  const own = (squad.own.get(folder) ?? []).filter(kept);
  const revealed = squad.team.filter((skill) => !kept(skill)).flatMap((gone) => squad.hiddenTeam.filter((skill) => skill.dirName === gone.dirName && kept(skill)).slice(-1));
  const team = [...squad.team.filter(kept), ...revealed].filter((skill) => !own.some((mine) => mine.dirName === skill.dirName));
  return [...team, ...own];
}

/** The skills `folder` sees, as `prompt` lists them, with `changes` as if made. */
function visibleSkills(squad: SquadSkills, folder: string, changes: SkillChanges): SeenSkill[] {
  const skills = promptableSkills(memberView(squad, folder, changes.removed ?? [])).map(seen);
  return (changes.pending ?? []).reduce((seenSoFar, skill) => withPending(seenSoFar, folder, skill), skills);
}

/** A skill that passed validation (skills add), as about to be written to `location` for `agent` (undefined: the team). */
export function pendingSkill(report: SkillReport, location: string, agent: string | undefined): PendingSkill {
  const { fields } = report;
  return {
    ...(agent === undefined ? {} : { agent }),
    dirName: report.dirName,
    name: report.name,
    description: fields.description ?? '',
    location,
    mcpServers: fields.mcpServers,
    disableModelInvocation: fields.disableModelInvocation,
  };
}

/** The servers `skills` declare, once each (names compare case-insensitively; the first spelling is kept). */
function declaredServers(skills: readonly SeenSkill[]): ProfileServer[] {
  const byKey = new Map<string, ProfileServer>();
  for (const skill of skills) {
    for (const declared of skill.mcpServers) {
      const key = mcpServerKey(declared.name);
      const server = byKey.get(key) ?? { name: declared.name, required: false, skills: [] };
      server.required ||= !declared.optional;
      if (!server.skills.includes(skill.name)) server.skills.push(skill.name);
      if (server.fallback === undefined && declared.optional && declared.fallback !== undefined) server.fallback = declared.fallback;
      byKey.set(key, server);
    }
  }
  return [...byKey.values()].sort((a, b) => compareCodePoints(mcpServerKey(a.name), mcpServerKey(b.name)));
}

/** Names of the skills in the project skill folders Copilot reads itself (`.github/skills/`, …), with `changes` as if made. */
function projectSkillNames(squad: SquadSkills, changes: SkillChanges): Set<string> {
  const removed = new Set(changes.removed ?? []);
  const inProject = (location: string) => NATIVE_SKILL_DIRS.some((dir) => location.startsWith(`${dir}/`)) && !removed.has(location);
  return new Set([
    ...[...squad.team, ...squad.hiddenTeam].filter((skill) => inProject(skill.location)).map((skill) => skill.name),
    ...(changes.pending ?? []).filter((skill) => skill.agent === undefined && inProject(skill.location)).map((skill) => skill.name),
  ]);
}

/** What the generator needs to know of `member`, read from the squad (with `changes` as if made). */
export function readMemberProfileInput(root: string, member: ProfileMember, changes: SkillChanges = {}, squad: SquadSkills = readSquadSkills(root)): MemberProfileInput {
  const skills = visibleSkills(squad, member.folder, changes);
  const project = projectSkillNames(squad, changes);
  const ownSkills: ProfileSkill[] = skills
    .filter((skill) => skill.own)
    .sort((a, b) => compareCodePoints(a.dirName, b.dirName))
    .map(({ name, description, location }) => ({ name, description, location, ...(project.has(name) ? { shadowed: true } : {}) }));
  return {
    folder: member.folder,
    displayName: member.displayName,
    role: member.role,
    scribe: member.folder === SCRIBE_AGENT,
    ...(member.model === undefined ? {} : { model: member.model }),
    ownSkills,
    servers: declaredServers(skills),
  };
}

export interface ProfileTextOptions extends SkillChanges {
  version?: string;
  /** The squad's skills, when the caller read them already (one discovery for many members). */
  squad?: SquadSkills;
}

/** The profile text of `member` as create-squad writes it now. */
export async function memberProfileText(root: string, member: ProfileMember, options: ProfileTextOptions = {}): Promise<string> {
  const input = readMemberProfileInput(root, member, options, options.squad ?? readSquadSkills(root));
  return renderMemberProfile(input, options.version ?? packageVersion());
}
