/**
 * The read steps of a spawn prompt (spawn-prompt.ts decides and renders from what they read):
 *
 *   readSpawnState       before deciding: the member among the squad's agents, the skills it sees
 *                        (discovery reads frontmatter only, never a body), its charter and the
 *                        team's standing rules.
 *   readSpawnSelection   after deciding, only what the decision selected: the bodies of the skills a
 *                        lightweight spawn inlines, and the MCP configuration when a skill in the
 *                        prompt declares a server.
 */
import fs from 'node:fs';
import { readStateText } from '../fs/confined.js';
import { existsInside } from '../fs/fs-safe.js';
import { charterPath, historyArchivePath, squadPaths } from '../base/paths.js';
import { detectMcpConfig, type McpConfigDetection } from '../skills/mcp.js';
import { readSkillFile } from '../skills/skill.js';
import { discoverSkills, type DiscoveredSkill, type Discovery } from '../squad/discover.js';
import { readTeamSynonyms } from '../squad/team-synonyms.js';
import type { SynonymTable } from '../base/text-match.js';
import { agentNamed, listAgents, requireSquad, type Agent } from '../roster/roster.js';
import { TEAM_RULES_PATH } from '../team/standing-rules.js';
import { warning, type Warning } from '../base/warnings.js';
import { packageVersion, startableInstallVersion } from '../fs/version.js';

/** A SKILL.md larger than this is not inlined in a lightweight prompt; the agent reads it instead. */
export const MAX_INLINED_SKILL_BYTES = 128 * 1024;

/** What a spawn prompt is decided from, read once. */
export interface SpawnState {
  root: string;
  /** The member spawned. */
  member: Agent;
  /** Every agent of the squad (a lightweight spawn is refused for a task that names another member). */
  agents: Agent[];
  /** The skills the member sees, frontmatter only. */
  discovery: Discovery;
  /** The member's charter; undefined when it is missing or not a readable file. */
  charterText: string | undefined;
  /** The team's standing rules file (`.ai-team/rules.md`); undefined when missing. */
  teamRulesText: string | undefined;
  /** The squad's own synonyms for ranking skills (`.ai-team/synonyms.md`); undefined when it keeps none. */
  skillSynonyms?: SynonymTable | undefined;
  /** The archives `compact` made beside the member's history and the decisions: their paths, when they exist (the prompt names them, never inlines them). */
  archives: { history: string | undefined; decisions: string | undefined };
  /** For the command lines the prompt gives (base/cli-invocation.ts hintCommand): this create-squad's version, and the one the repository installs (undefined: none). */
  cli: { version: string; installedVersion: string | undefined };
}

/** Why a lightweight prompt points to a skill instead of inlining its body. */
export type NotInlinedReason = 'too-large' | 'unreadable' | 'empty';

export interface InlinedSkill {
  skill: DiscoveredSkill;
  /** The body in the prompt; undefined when it is not inlined, for `notInlined`. */
  body: string | undefined;
  notInlined?: NotInlinedReason;
}

/** What the decision selected, read: the bodies to inline and the MCP configuration. */
export interface SpawnSelection {
  inlined: InlinedSkill[];
  /** Undefined when no skill in the prompt declares a server (nothing is looked up). */
  detection: McpConfigDetection | undefined;
  /** What reading them found, in the order found: the bodies', then the MCP configuration's. */
  warnings: Warning[];
}

/** Read what a spawn of `agent` (folder or roster name) is decided from: no-squad, or unknown-agent when there is no such member. */
export function readSpawnState(root: string, agent: string): SpawnState {
  requireSquad(root);
  const agents = listAgents(root);
  const member = agentNamed(agents, agent);
  return {
    root,
    member,
    agents,
    discovery: discoverSkills(root, { agent: member.name }),
    charterText: readStateText(root, charterPath(member.name)),
    teamRulesText: readStateText(root, TEAM_RULES_PATH),
    skillSynonyms: readTeamSynonyms(root),
    archives: {
      history: existsInside(root, historyArchivePath(member.name)) ? historyArchivePath(member.name) : undefined,
      decisions: existsInside(root, squadPaths.decisionsArchive) ? squadPaths.decisionsArchive : undefined,
    },
    cli: { version: packageVersion(), installedVersion: startableInstallVersion(root) },
  };
}

/** Where the MCP configuration is looked up (see SpawnPromptOptions). */
export interface McpLookup {
  home?: string;
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Read what the decision selected: the bodies of `inline` (a lightweight spawn's skills) and, when
 * `needsMcpConfig`, the MCP configuration files.
 */
export async function readSpawnSelection(root: string, selected: { inline: readonly DiscoveredSkill[]; needsMcpConfig: boolean }, where: McpLookup): Promise<SpawnSelection> {
  const warnings: Warning[] = [];
  const inlined = selected.inline.map((skill) => readInlineBody(root, skill, warnings));
  const detection = selected.needsMcpConfig ? await detectMcpConfig({ root, cwd: where.cwd, home: where.home, env: where.env }) : undefined;
  if (detection) warnings.push(...detection.warnings);
  return { inlined, detection, warnings };
}

/**
 * A skill for a lightweight prompt: its body, or why the prompt points to the file instead (too
 * large, unreadable: with a warning; an empty body: nothing to inline). Only a SKILL.md really
 * inside the repository `root` is read: one turned into a link out of it since discovery is unreadable.
 */
function readInlineBody(root: string, skill: DiscoveredSkill, warnings: Warning[]): InlinedSkill {
  let body: string;
  try {
    const size = fs.statSync(skill.file).size;
    if (size > MAX_INLINED_SKILL_BYTES) {
      warnings.push(
        warning('skill-not-inlined', `${skill.location} is larger than ${MAX_INLINED_SKILL_BYTES / 1024} KB; the prompt points to it instead of inlining it`, skill.location),
      );
      return { skill, body: undefined, notInlined: 'too-large' };
    }
    body = readSkillFile(skill.file, { root }).body.trim();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warnings.push(warning('skill-not-inlined', `cannot inline ${skill.location} (${reason}); the prompt points to it instead`, skill.location));
    return { skill, body: undefined, notInlined: 'unreadable' };
  }
  return body === '' ? { skill, body: undefined, notInlined: 'empty' } : { skill, body };
}
