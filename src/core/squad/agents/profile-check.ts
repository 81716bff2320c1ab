/**
 * Whether the Copilot runtime would take a member's agent profile (doctor's checks of the agents
 * use it, in src/core/doctor/checks/agents.ts).
 *
 * What the runtime drops, as the Copilot CLI 1.0.102 runtime was measured to (agents.discover left
 * the whole agent out, without an error): no frontmatter or YAML it cannot parse; no `description`;
 * `tools` that is neither a string nor a list of strings; `skills` that is not a list of strings;
 * `user-invocable` that is not true or false; `mcp-servers` that is not a mapping, or a server in it
 * whose `type` is not local, stdio, http or sse, a local (or stdio, or untyped) one without
 * `command` or without an `args` list, a remote one without `url`, or any without a `tools` list.
 */
import { FrontmatterError, parseFrontmatterYaml, splitFrontmatter } from '../../skills/frontmatter.js';
import { isMapping, jsonTypeName, quoted } from '../../base/util.js';

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
