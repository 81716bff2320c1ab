/**
 * Doctor's checks of the members' Copilot agents: a profile that drifted from the squad (missing,
 * stale, edited, left for someone no longer on the team) and one the Copilot runtime would drop.
 *
 * What the runtime drops, as the Copilot CLI 1.0.102 runtime was measured to (agents.discover left
 * the whole agent out, without an error): no frontmatter or YAML it cannot parse; no `description`;
 * `tools` that is neither a string nor a list of strings; `skills` that is not a list of strings;
 * `user-invocable` that is not true or false; `mcp-servers` that is not a mapping, or a server in it
 * whose `type` is not local, stdio, http or sse, a local (or stdio, or untyped) one without
 * `command` or without an `args` list, a remote one without `url`, or any without a `tools` list.
 */
import { isSquadError } from '../../base/errors.js';
import { FrontmatterError, parseFrontmatterYaml, splitFrontmatter } from '../../skills/frontmatter.js';
import { existsInside, readBytesIfExists, readDirNames } from '../../fs/fs-safe.js';
import { isShippedContent } from '../owned.js';
import { alumniDir, resolveIn } from '../../base/paths.js';
import { blockedReason, obstacleFix } from '../upgrade.js';
import { isMapping, jsonTypeName, quoted } from '../../base/util.js';
import { compareVersions, packageVersion } from '../../fs/version.js';
import { AGENTS_DIR, memberProfilePath, profileFolder, readProfileStamp } from './member-profile.js';
import { memberProfileText, readSquadSkills, type ProfileMember } from './profile-input.js';
import { activeMembers } from './profile-sync.js';

export interface ProfileFinding {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  fix: string;
  path: string;
}

const SYNC = 'run "create-squad upgrade": it writes the members\' agents from the roster and their skills';
const LOCAL_TYPES = new Set(['local', 'stdio']);
const REMOTE_TYPES = new Set(['http', 'sse']);

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Why the runtime would drop the MCP server `name` of a profile, or undefined. */
function serverProblem(name: string, server: unknown): string | undefined {
  const at = `mcp-servers.${name}`;
  if (!isMapping(server)) return `${at} is ${jsonTypeName(server)}, not a mapping`;
  const type = server.type ?? 'local';
  if (typeof type !== 'string' || (!LOCAL_TYPES.has(type) && !REMOTE_TYPES.has(type))) return `${at}.type is ${quoted(String(type))}, not local, stdio, http or sse`;
  if (LOCAL_TYPES.has(type)) {
    if (typeof server.command !== 'string') return `${at} (a local server) has no "command"`;
    if (!isStringList(server.args)) return `${at} (a local server) has no "args" list (write args: [] when it takes none)`;
  } else if (typeof server.url !== 'string') {
    return `${at} (a remote server) has no "url"`;
  }
  if (!isStringList(server.tools)) return `${at} has no "tools" list (write tools: ["*"] for all of its tools)`;
  return undefined;
}

/** Why the Copilot runtime would drop the agent profile `text` (see the header), or undefined. */
export function runtimeDropReason(text: string, shown: string): string | undefined {
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseFrontmatterYaml(splitFrontmatter(text, shown).yaml, shown);
  } catch (error) {
    if (error instanceof FrontmatterError) return error.message;
    throw error;
  }
  if (typeof frontmatter.description !== 'string') return 'its frontmatter has no "description"';
  const tools = frontmatter.tools;
  if (tools !== undefined && typeof tools !== 'string' && !isStringList(tools)) return '"tools" is neither a string nor a list of strings';
  if (frontmatter.skills !== undefined && !isStringList(frontmatter.skills)) return '"skills" is not a list of skill names';
  for (const key of ['user-invocable', 'disable-model-invocation']) {
    if (frontmatter[key] !== undefined && typeof frontmatter[key] !== 'boolean') return `${quoted(key)} is not true or false`;
  }
  const servers = frontmatter['mcp-servers'];
  if (servers === undefined || servers === null) return undefined;
  if (!isMapping(servers)) return '"mcp-servers" is not a mapping of server names to servers';
  for (const [name, server] of Object.entries(servers)) {
    const problem = serverProblem(name, server);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function readText(root: string, relPath: string): string | undefined {
  try {
    return readBytesIfExists(resolveIn(root, relPath))?.toString('utf8');
  } catch {
    return undefined;
  }
}

/** Findings about the agents of active members: missing, dropped, stale or edited. */
async function checkActive(root: string, members: readonly ProfileMember[], findings: ProfileFinding[]): Promise<Set<string>> {
  const active = new Set<string>();
  const squad = readSquadSkills(root);
  for (const member of members) {
    active.add(member.folder);
    const relPath = memberProfilePath(member.folder);
    const who = `${member.displayName}${member.role ? ` (${member.role})` : ''}`;
    const obstacle = blockedReason(root, relPath);
    if (obstacle !== undefined) {
      findings.push({ severity: 'warning', code: 'copilot-agent-blocked', path: relPath, message: `${who}'s Copilot agent cannot be written: ${obstacle}`, fix: obstacleFix(obstacle) });
      continue;
    }
    const text = readText(root, relPath);
    if (text === undefined) {
      findings.push({ severity: 'warning', code: 'copilot-agent-missing', path: relPath, message: `${who} has no Copilot agent (${relPath}): the coordinator can only paste a prompt for them`, fix: SYNC });
      continue;
    }
    const dropped = runtimeDropReason(text, relPath);
    if (dropped !== undefined) {
      findings.push({ severity: 'error', code: 'copilot-agent-dropped', path: relPath, message: `Copilot ignores ${relPath}: ${dropped}`, fix: `${SYNC} (your version is backed up first)` });
      continue;
    }
    const stamp = readProfileStamp(text);
    if (stamp !== undefined && compareVersions(stamp.version, packageVersion()) > 0) continue;
    if (isShippedContent(Buffer.from(text), Buffer.from(await memberProfileText(root, member, { squad })))) continue;
    if (stamp?.intact) {
      findings.push({ severity: 'warning', code: 'copilot-agent-stale', path: relPath, message: `${relPath} is out of step with ${who}'s role or skills`, fix: SYNC });
    } else {
      findings.push({
        severity: 'warning',
        code: 'copilot-agent-edited',
        path: relPath,
        message: `${relPath} ${stamp === undefined ? 'was not written by create-squad' : 'was edited'}: the next command that updates ${who} replaces it (after a backup)`,
        fix: `put what you changed in ${who}'s charter or skills, which the agent points to; then ${SYNC}`,
      });
    }
  }
  return active;
}

/** Findings about agents create-squad wrote for someone no longer on the team. */
function checkInactive(root: string, active: ReadonlySet<string>, findings: ProfileFinding[]): void {
  for (const name of readDirNames(resolveIn(root, AGENTS_DIR))) {
    const relPath = `${AGENTS_DIR}/${name}`;
    const folder = profileFolder(relPath);
    if (folder === undefined || active.has(folder)) continue;
    const text = readText(root, relPath);
    if (text === undefined || readProfileStamp(text) === undefined) continue;
    const retired = existsInside(root, alumniDir(folder));
    findings.push({
      severity: 'warning',
      code: retired ? 'copilot-agent-retired' : 'copilot-agent-orphan',
      path: relPath,
      message: `${relPath} is the Copilot agent of ${folder}, who is ${retired ? 'retired' : 'not on the roster'}: Copilot still offers it`,
      fix: `${SYNC} (it moves the agent ${retired ? `to ${alumniDir(folder)}/` : 'to the backups'})`,
    });
  }
}

/** Every finding about the members' agents. Reads only. */
export async function checkMemberProfiles(root: string): Promise<ProfileFinding[]> {
  let members: ProfileMember[];
  try {
    members = activeMembers(root);
  } catch (error) {
    if (isSquadError(error)) return []; // a roster that cannot be read is a finding of its own
    throw error;
  }
  const findings: ProfileFinding[] = [];
  const active = await checkActive(root, members, findings);
  checkInactive(root, active, findings);
  return findings;
}
