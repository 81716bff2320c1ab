/**
 * MCP requirements of skills (the squad extension `metadata.mcp-servers`) and what the workspace's
 * MCP configuration says about them.
 *
 * create-squad only reads MCP configuration files, never writes them. Whether a server is
 * configured has three answers: "yes" (a checked file lists it), "no" (checked files exist, were
 * read, and none lists it) and "unknown" (no checked file exists, or one could not be used: not
 * readable, not JSON, servers missing or under another key or of the wrong type, or an entry that
 * is not an object of settings). Even
 * "no" is not certain: Copilot can also get servers from VS Code user settings or profiles and from
 * the coding agent's repository settings, which are not files create-squad reads. Server names
 * compare case-insensitively (mcpServerKey).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MCP_CONFIG_PATHS, resolveIn } from './paths.js';
import type { McpServerRequirement } from './skill.js';
import { renderTemplate } from './templates.js';
import { compareCodePoints, isMapping, jsonTypeName, quoted } from './util.js';

export type McpConfigured = 'yes' | 'no' | 'unknown';

/** Largest MCP configuration file read; a bigger one is reported and ignored. */
export const MCP_CONFIG_MAX_BYTES = 1024 * 1024;
export const MCP_BLOCK_TEMPLATE = 'prompts/mcp-requirements.md.hbs';

interface ConfigLocation {
  /** As shown to users: repo-relative, or `~/…` under the home folder. */
  display: string;
  base: 'root' | 'home';
  relPath: string;
  /** Top-level keys that hold the servers, in the order tried. */
  keys: readonly string[];
  /** The key other kinds of MCP file use: a sign the file was written for another client. */
  foreignKey?: string;
  /** Whether the servers may also be a list of names or `{name}` entries (the squad's own file). */
  lists?: boolean;
}

/** The files checked, in the order they are reported. */
const CONFIG_LOCATIONS: readonly ConfigLocation[] = [
  { display: MCP_CONFIG_PATHS.vscode, base: 'root', relPath: MCP_CONFIG_PATHS.vscode, keys: ['servers'], foreignKey: 'mcpServers' },
  { display: MCP_CONFIG_PATHS.workspace, base: 'root', relPath: MCP_CONFIG_PATHS.workspace, keys: ['mcpServers'], foreignKey: 'servers' },
  { display: MCP_CONFIG_PATHS.copilot, base: 'root', relPath: MCP_CONFIG_PATHS.copilot, keys: ['mcpServers'], foreignKey: 'servers' },
  { display: MCP_CONFIG_PATHS.squad, base: 'root', relPath: MCP_CONFIG_PATHS.squad, keys: ['mcpServers', 'servers'], lists: true },
  {
    display: `~/${MCP_CONFIG_PATHS.userCopilot}`,
    base: 'home',
    relPath: MCP_CONFIG_PATHS.userCopilot,
    keys: ['mcpServers'],
    foreignKey: 'servers',
  },
];

export interface McpConfigSource {
  /** Repo-relative path, or `~/…` for the user's own configuration. */
  path: string;
  exists: boolean;
  /** Server names the file lists, sorted (empty when missing or unreadable). */
  servers: string[];
  /** Why an existing file could not be used; such a file makes "no" impossible to claim. */
  error?: string;
  /** Entries of a usable file that do not count (not an object of settings), one line each; they too make "no" impossible to claim. */
  invalidEntries?: string[];
}

export interface McpConfigDetection {
  /** Every file checked, in a fixed order. */
  sources: McpConfigSource[];
  /** One line per unusable file (malformed JSON, wrong shape, too large, unreadable) and per entry that does not count. */
  warnings: string[];
}

type JsoncParse = (text: string, errors: { error: number; offset: number }[], options: object) => unknown;
let jsoncParse: JsoncParse | undefined;

async function loadJsonc(): Promise<JsoncParse> {
  if (!jsoncParse) {
    const mod = (await import('jsonc-parser')) as unknown as { parse?: JsoncParse; default?: { parse: JsoncParse } };
    jsoncParse = mod.parse ?? mod.default!.parse;
  }
  return jsoncParse;
}

/**
 * Read the MCP configuration files (SPEC §5). JSON with comments and trailing commas is accepted,
 * as VS Code accepts it. A malformed file becomes a warning, never a failure.
 */
export async function detectMcpConfig(root: string, home: string | undefined): Promise<McpConfigDetection> {
  const sources: McpConfigSource[] = [];
  const warnings: string[] = [];
  for (const location of CONFIG_LOCATIONS) {
    if (location.base === 'home' && !home) continue;
    const abs = location.base === 'root' ? resolveIn(root, location.relPath) : path.join(home!, ...location.relPath.split('/'));
    const source = await readConfig(abs, location);
    if (source.error) warnings.push(`MCP configuration ${source.path} ignored: ${source.error}`);
    for (const entry of source.invalidEntries ?? []) warnings.push(`MCP configuration ${source.path}: ${entry}`);
    sources.push(source);
  }
  return { sources, warnings };
}

async function readConfig(abs: string, location: ConfigLocation): Promise<McpConfigSource> {
  const base = { path: location.display, exists: false, servers: [] as string[] };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    return base;
  }
  if (!stat.isFile()) return { ...base, exists: true, error: 'it is not a file' };
  if (stat.size > MCP_CONFIG_MAX_BYTES) {
    return { ...base, exists: true, error: `it is larger than ${MCP_CONFIG_MAX_BYTES / 1024} KB` };
  }
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (error) {
    return { ...base, exists: true, error: `cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  const parse = await loadJsonc();
  const errors: { error: number; offset: number }[] = [];
  const value = parse(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const offset = errors[0]!.offset;
    const line = text.slice(0, offset).split('\n').length;
    return { ...base, exists: true, error: `it is not valid JSON (line ${line})` };
  }
  if (!isMapping(value)) return { ...base, exists: true, error: `it is not a JSON object (expected ${expectedShape(location)})` };
  const key = location.keys.find((k) => Object.hasOwn(value, k));
  if (key === undefined) {
    const foreign = location.foreignKey !== undefined && Object.hasOwn(value, location.foreignKey);
    const wanted = location.keys.map((k) => `"${k}"`).join(' or ');
    const error = foreign
      ? `it lists servers under "${location.foreignKey}", but this file's servers go under ${wanted} (expected ${expectedShape(location)})`
      : `it has no ${wanted} (expected ${expectedShape(location)})`;
    return { ...base, exists: true, error };
  }
  const read = readServers(value[key], key, location.lists === true);
  if (read === undefined) {
    return { ...base, exists: true, error: `"${key}" is ${jsonTypeName(value[key])}, not ${location.lists ? 'an object or a list' : 'an object'} of servers (expected ${expectedShape(location)})` };
  }
  return { ...base, exists: true, servers: read.servers, ...(read.invalid.length > 0 ? { invalidEntries: read.invalid } : {}) };
}

/** What a file of `location` should look like, for messages. */
function expectedShape(location: ConfigLocation): string {
  const object = `{"${location.keys[0]}": {"<name>": {…settings}}}`;
  return location.lists ? `${object}, or a list of names` : object;
}

/**
 * Server names from `{name: {settings}}` or (with `lists`) from a list of names or `{name}` entries,
 * and a line per entry that does not count (a server whose settings are not an object, a list
 * entry that names nothing); undefined when `value` has neither shape.
 */
function readServers(value: unknown, key: string, lists: boolean): { servers: string[]; invalid: string[] } | undefined {
  const names: string[] = [];
  const invalid: string[] = [];
  if (isMapping(value)) {
    for (const [name, settings] of Object.entries(value)) {
      if (isMapping(settings)) names.push(name);
      else invalid.push(`server ${quoted(name)} is ${jsonTypeName(settings)}, not an object of settings: it does not count as configured`);
    }
  } else if (lists && Array.isArray(value)) {
    value.forEach((entry, i) => {
      if (typeof entry === 'string') names.push(entry);
      else if (isMapping(entry) && typeof entry.name === 'string') names.push(entry.name);
      else invalid.push(`entry ${i + 1} of "${key}" is ${jsonTypeName(entry)}, neither a name nor {"name": …}: ignored`);
    });
  } else {
    return undefined;
  }
  return { servers: [...new Set(names.map((n) => n.trim()).filter(Boolean))].sort(compareCodePoints), invalid };
}

/** The identity of an MCP server name: "Postgres" and "postgres" are one server. */
export function mcpServerKey(server: string): string {
  return server.toLowerCase();
}

/** The checked files that exist and could be read, as shown to users. */
export function foundMcpConfigFiles(detection: McpConfigDetection | undefined): string[] {
  return (detection?.sources ?? []).filter((s) => s.exists && !s.error).map((s) => s.path);
}

/** Whether `server` is configured, and where. Names compare case-insensitively. */
export function mcpServerStatus(
  server: string,
  detection: McpConfigDetection | undefined,
): { configured: McpConfigured; configuredIn: string[] } {
  if (!detection) return { configured: 'unknown', configuredIn: [] };
  const key = mcpServerKey(server);
  const configuredIn = detection.sources
    .filter((source) => source.servers.some((name) => mcpServerKey(name) === key))
    .map((source) => source.path);
  if (configuredIn.length > 0) return { configured: 'yes', configuredIn };
  const certain = detection.sources.some((s) => s.exists) && detection.sources.every((s) => s.error === undefined && s.invalidEntries === undefined);
  return { configured: certain ? 'no' : 'unknown', configuredIn };
}

/** One row of the MCP requirements table. */
export interface McpRequirementRow {
  skill: string;
  server: string;
  required: boolean;
  purpose?: string;
  /** What to do without the server; the prompt quotes it for optional servers. */
  fallback?: string;
  configured: McpConfigured;
  /** The checked files that list the server. */
  configuredIn: string[];
}

export interface SkillMcpNeeds {
  name: string;
  mcpServers: readonly McpServerRequirement[];
}

/**
 * Aggregate the MCP servers the given skills declare: one row per skill and server (a server
 * declared twice by one skill, in any letter case, is one row with the first spelling, required if
 * any declaration is), sorted by skill then server. With `detection`, each row says whether the
 * server is configured.
 */
export function collectMcpRequirements(
  skills: readonly SkillMcpNeeds[],
  detection?: McpConfigDetection,
): McpRequirementRow[] {
  const rows = new Map<string, McpRequirementRow>();
  for (const skill of skills) {
    for (const need of skill.mcpServers) {
      const key = `${skill.name}\u0000${mcpServerKey(need.name)}`;
      const row = rows.get(key);
      if (row) {
        row.required ||= !need.optional;
        row.purpose ??= need.reason;
        row.fallback ??= need.fallback;
        continue;
      }
      rows.set(key, {
        skill: skill.name,
        server: need.name,
        required: !need.optional,
        ...(need.reason === undefined ? {} : { purpose: need.reason }),
        ...(need.fallback === undefined ? {} : { fallback: need.fallback }),
        ...mcpServerStatus(need.name, detection),
      });
    }
  }
  return [...rows.values()].sort(
    (a, b) => compareCodePoints(a.skill, b.skill) || compareCodePoints(a.server, b.server),
  );
}

/** Required servers no checked configuration file lists: the ones the block flags at its top. */
export function missingRequiredServers(rows: readonly McpRequirementRow[]): McpRequirementRow[] {
  return rows.filter((row) => row.required && row.configured === 'no');
}

/** The MCP requirements block of a spawn prompt; empty string when no skill declares a server. */
export async function renderMcpBlock(rows: readonly McpRequirementRow[], detection?: McpConfigDetection): Promise<string> {
  if (rows.length === 0) return '';
  const sources = detection?.sources ?? [];
  const text = await renderTemplate(MCP_BLOCK_TEMPLATE, {
    rows,
    missing: missingRequiredServers(rows),
    checked: sources.map((s) => s.path).join(', '),
    found: foundMcpConfigFiles(detection).join(', '),
  });
  return text.trimEnd();
}
