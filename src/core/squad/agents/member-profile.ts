/**
 * A member as a Copilot custom agent: the text of `.github/agents/{folder}.agent.md`, generated from
 * what the squad knows of the member (roster row, role, own skills, the MCP servers of the skills it
 * sees). Pure: the same input gives the same text, byte for byte.
 *
 * The profile is subagent-only (`user-invocable: false`, and VS Code's spelling `user-invokable`),
 * names its tools by role (role-tools.ts) plus `{server}/*` for each MCP server its skills declare
 * (the server itself stays configured where each host reads it), lists the member's own skills in
 * `skills` (but one whose name a project skill folder also holds: Copilot would preload that one
 * instead) and in its body, and points at the charter and history in `.ai-team/` instead of
 * copying them.
 *
 * The stamp, an HTML comment on the first line of the body, says which create-squad wrote it and
 * carries a hash of the rest of the text:
 *   <!-- create-squad: 0.1.0 member-agent sha256:0123456789abcdef -->
 * so a profile still as generated (only stale) is told from one a user edited, which is backed up
 * before it is replaced.
 */
import { locateFrontmatter, normalizeNewlines } from '../../skills/frontmatter.js';
import { sha256 } from '../../fs/fs-safe.js';
import { NATIVE_SKILL_DIRS, agentSkillsDir, charterPath, decisionInboxPath, historyPath, squadPaths } from '../../base/paths.js';
import { findRolePreset } from '../../roster/roles.js';
import { renderTemplate } from '../../fs/templates.js';
import { MISSING_SERVER_RULE } from '../../skills/mcp.js';
import { frontmatterModel, type ModelChoice } from '../../roster/models.js';
import { mcpServerTools, roleTools, scribeTools } from './role-tools.js';

/** Where Copilot hosts read a repository's custom agents. */
export const AGENTS_DIR = '.github/agents';
export const MEMBER_PROFILE_TEMPLATE = 'agents/member.agent.md.hbs';
export const MEMBER_DESCRIPTION_TEMPLATE = 'agents/member-description.hbs';
/** The role a member without one is given in its profile. */
const DEFAULT_ROLE = 'team member';
const HASH_LENGTH = 16;

/** The profile of the member in `folder`. */
export function memberProfilePath(folder: string): string {
  return `${AGENTS_DIR}/${folder}.agent.md`;
}

/** The member folder a profile path names, or undefined for another file. */
export function profileFolder(relPath: string): string | undefined {
  const match = /^\.github\/agents\/([^/]+)\.agent\.md$/.exec(relPath);
  return match?.[1];
}

export interface ProfileSkill {
  name: string;
  description: string;
  /** Repo-relative SKILL.md. */
  location: string;
  /**
   * A project skill folder Copilot reads (`.github/skills/`, …) holds a skill of this name: Copilot
   * would preload that one, not the member's, so it is left out of `skills` (the body still lists it).
   */
  shadowed?: boolean;
}

export interface ProfileServer {
  name: string;
  /** Some skill needs it (not `optional: true`). */
  required: boolean;
  /** The skills that declare it. */
  skills: string[];
  /** The first fallback an optional declaration gives. */
  fallback?: string;
}

export interface MemberProfileInput {
  /** Folder under `.ai-team/agents/`: also the agent's name. */
  folder: string;
  /** Roster name ("Fenster"). */
  displayName: string;
  role: string;
  scribe: boolean;
  /** The model the member runs on (roster/models.ts); absent: the session's. */
  model?: ModelChoice;
  /** The member's own skills, as `prompt` lists them. */
  ownSkills: ProfileSkill[];
  /** MCP servers the skills the member sees declare. */
  servers: ProfileServer[];
}

/** The tools of a member's agent: its role's, then one `{server}/*` per declared server. */
export function memberTools(input: Pick<MemberProfileInput, 'role' | 'scribe' | 'servers'>): string[] {
  const base = input.scribe ? scribeTools() : roleTools(input.role);
  return [...base, ...input.servers.map((server) => mcpServerTools(server.name))];
}

async function describeMember(input: MemberProfileInput, role: string): Promise<string> {
  const handles = input.scribe ? '' : (findRolePreset(role)?.handles ?? '');
  const text = await renderTemplate(MEMBER_DESCRIPTION_TEMPLATE, { name: input.displayName, role, handles, scribe: input.scribe });
  return text.trim();
}

/** The profile without its stamp. */
async function renderUnstamped(input: MemberProfileInput): Promise<string> {
  const role = input.role.trim() || DEFAULT_ROLE;
  return renderTemplate(MEMBER_PROFILE_TEMPLATE, {
    folder: input.folder,
    name: input.displayName,
    role,
    scribe: input.scribe,
    description: await describeMember(input, role),
    tools: memberTools(input),
    model: frontmatterModel(input.model),
    skills: input.ownSkills.filter((skill) => !skill.shadowed).map((skill) => skill.name),
    ownSkills: input.ownSkills,
    servers: input.servers,
    missingServerRule: MISSING_SERVER_RULE,
    charterPath: charterPath(input.folder),
    historyPath: historyPath(input.folder),
    decisionsPath: squadPaths.decisions,
    rulesPath: squadPaths.rules,
    decisionInbox: decisionInboxPath(input.folder, '{short-slug}'),
    agentSkillsDir: agentSkillsDir(input.folder),
    teamSkillDirs: NATIVE_SKILL_DIRS,
    proceduresDir: squadPaths.aiTeamSkills,
  });
}

const STAMP_LINE = /^<!-- create-squad: (\S+) member-agent sha256:([0-9a-f]+) -->\n/;

function contentHash(unstamped: string): string {
  return sha256(unstamped).slice(0, HASH_LENGTH);
}

/** The text split after its frontmatter (a text without one is all body). */
function splitAtBody(text: string): { head: string; body: string } {
  const location = locateFrontmatter(text, true);
  if (location.state !== 'closed') return { head: '', body: text };
  return { head: text.slice(0, location.bodyStart), body: text.slice(location.bodyStart) };
}

/** `unstamped` with its stamp for `version` as the first line of its body. */
function stamp(unstamped: string, version: string): string {
  const { head, body } = splitAtBody(unstamped);
  return `${head}<!-- create-squad: ${version} member-agent sha256:${contentHash(unstamped)} -->\n${body}`;
}

/** The text of a member's profile, stamped with `version`. */
export async function renderMemberProfile(input: MemberProfileInput, version: string): Promise<string> {
  return stamp(await renderUnstamped(input), version);
}

export interface ProfileStamp {
  version: string;
  /** The text is exactly what that version generated (line endings aside). */
  intact: boolean;
}

/** The stamp of a member profile text, or undefined when it has none (not written by create-squad). */
export function readProfileStamp(text: string): ProfileStamp | undefined {
  const normalized = normalizeNewlines(text);
  const { head, body } = splitAtBody(normalized);
  const match = STAMP_LINE.exec(body);
  if (!match) return undefined;
  const unstamped = `${head}${body.slice(match[0].length)}`;
  return { version: match[1]!, intact: contentHash(unstamped) === match[2] };
}
