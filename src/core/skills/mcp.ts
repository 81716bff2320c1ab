/**
 * MCP requirements of skills (the squad extension `metadata.mcp-servers`) and which Copilot host
 * has each server: the Copilot CLI, VS Code or the cloud agent.
 *
 * MCP_HOSTS is the one table of what each host reads and what it ships: the configuration files
 * create-squad reads (never writes) for it, its built-in servers, and where else it gets servers.
 * For each host and server the answer is "configured" (a file that host reads lists it),
 * "built-in" (the host ships it), "not-configured" (every file that host reads could be used and
 * none lists it) or "unknown" (a file that host reads could not be used, or the host keeps its
 * configuration where create-squad cannot look: the cloud agent's repository settings on GitHub).
 * Server names compare case-insensitively (mcpServerKey).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { McpServerRequirement } from './skill.js';
import { warning, type Warning } from '../base/warnings.js';
import { renderTemplate } from '../fs/templates.js';
import { compareCodePoints, isMapping, jsonTypeName, quoted } from '../base/util.js';

export type McpHostId = 'copilot-cli' | 'vscode' | 'cloud-agent';
export type McpHostAnswer = 'configured' | 'built-in' | 'not-configured' | 'unknown';

/** Largest MCP configuration file read; a bigger one is reported and ignored. */
export const MCP_CONFIG_MAX_BYTES = 1024 * 1024;
export const MCP_BLOCK_TEMPLATE = 'prompts/mcp-requirements.md.hbs';

/**
 * What a member does when a server its skills declare is not among its tools: the one rule the
 * spawn prompt's MCP block and every member's agent both state. A missing required server stops
 * only the work that needs it, never the rest.
 */
export const MISSING_SERVER_RULE = {
  required:
    'A required server you do not have: before any work that needs it, stop, change nothing, and report which server is missing and which skill needs it; work that does not need it goes on.',
  optional: "An optional server you do not have: go on without it, follow the skill's fallback and say so in your report.",
} as const;

/** How a kind of configuration file is written, as its host reads it. */
interface ConfigFormat {
  /** The top-level key that holds the servers. */
  key: 'mcpServers' | 'servers';
  /** Comments, trailing commas and a byte-order mark are accepted; otherwise the host skips such a file. */
  jsonc: boolean;
  /** Without `key`, the top-level object itself may map names to servers. */
  bare: boolean;
  /** A server counts only when its settings have a `command` or a `url` (the host skips others). */
  needsCommandOrUrl: boolean;
}

const CLI_WORKSPACE_FORMAT: ConfigFormat = { key: 'mcpServers', jsonc: false, bare: true, needsCommandOrUrl: true };
const CLI_USER_FORMAT: ConfigFormat = { key: 'mcpServers', jsonc: true, bare: false, needsCommandOrUrl: true };
const VSCODE_FORMAT: ConfigFormat = { key: 'servers', jsonc: true, bare: false, needsCommandOrUrl: false };

/**
 * Where a host's configuration files are:
 * - `workspace-chain`: in every folder from the working folder up to the repository root,
 *   `.mcp.json`, or `.github/mcp.json` in a folder that has no `.mcp.json`;
 * - `copilot-home`: `mcp-config.json` in `$COPILOT_HOME`, else in `~/.copilot`;
 * - `repository`: one file at the repository root.
 */
type ConfigPlace = { kind: 'workspace-chain' } | { kind: 'copilot-home' } | { kind: 'repository'; relPath: string };

interface ConfigFile {
  place: ConfigPlace;
  format: ConfigFormat;
}

interface BuiltInServer {
  /** The name the host gives it. */
  name: string;
  /** Other names a skill may declare it by. */
  aliases?: readonly string[];
}

export interface McpHostRule {
  id: McpHostId;
  /** As messages name the host. */
  name: string;
  /** As the spawn prompt's table names it. */
  short: string;
  files: readonly ConfigFile[];
  builtIn: readonly BuiltInServer[];
  /** Where else the host gets servers; create-squad does not read it. */
  alsoFrom?: string;
  /** Whether a server the files do not list is "unknown" (the host's own settings hold the answer) rather than "not-configured". */
  unlistedIsUnknown: boolean;
  /** How to give the host a server, for doctor's fixes. */
  setup: (server: string) => string;
}

const REPOSITORY_MCP_JSON = '.mcp.json';
const REPOSITORY_GITHUB_MCP_JSON = '.github/mcp.json';
const VSCODE_MCP_JSON = '.vscode/mcp.json';
const COPILOT_HOME_MCP_FILE = 'mcp-config.json';

/** The hosts: what each reads and ships. The one source of these rules. */
export const MCP_HOSTS: readonly McpHostRule[] = [
  {
    id: 'copilot-cli',
    name: 'the Copilot CLI',
    short: 'CLI',
    files: [
      { place: { kind: 'workspace-chain' }, format: CLI_WORKSPACE_FORMAT },
      { place: { kind: 'copilot-home' }, format: CLI_USER_FORMAT },
    ],
    builtIn: [{ name: 'github-mcp-server', aliases: ['github'] }],
    unlistedIsUnknown: false,
    setup: (server) =>
      `for the Copilot CLI, create ${REPOSITORY_MCP_JSON} at the repository root with {"mcpServers": {${quoted(server)}: {…}}} (plain JSON; read once the folder is trusted), or add it to ~/.copilot/mcp-config.json for yourself`,
  },
  {
    id: 'vscode',
    name: 'VS Code',
    short: 'VS Code',
    files: [{ place: { kind: 'repository', relPath: VSCODE_MCP_JSON }, format: VSCODE_FORMAT }],
    builtIn: [],
    alsoFrom: 'the VS Code user profile',
    unlistedIsUnknown: false,
    setup: (server) => `for VS Code, create ${VSCODE_MCP_JSON} with {"servers": {${quoted(server)}: {…}}}`,
  },
  {
    id: 'cloud-agent',
    name: 'the cloud agent',
    short: 'cloud',
    files: [],
    builtIn: [{ name: 'github' }, { name: 'playwright' }],
    alsoFrom: "the repository's Copilot settings on GitHub",
    unlistedIsUnknown: true,
    setup: (server) => `for the cloud agent, add ${quoted(server)} to the MCP configuration in the repository's Copilot settings on GitHub`,
  },
];

/** A host's MCP configuration file at the repository root, where a server can be registered for it. */
export interface RepositoryMcpFile {
  relPath: string;
  /** The top-level key that holds the servers. */
  key: ConfigFormat['key'];
  /** Comments and trailing commas are allowed (otherwise the host skips a file that has them). */
  jsonc: boolean;
  /** The servers may sit at the top level, without `key`. */
  bare: boolean;
}

/** Where a server is registered for `host` in the repository; undefined for a host that reads no file there (the cloud agent). */
export function repositoryMcpFile(host: McpHostId): RepositoryMcpFile | undefined {
  const rule = MCP_HOSTS.find((h) => h.id === host);
  for (const file of rule?.files ?? []) {
    const relPath = file.place.kind === 'repository' ? file.place.relPath : file.place.kind === 'workspace-chain' ? REPOSITORY_MCP_JSON : undefined;
    if (relPath !== undefined) return { relPath, key: file.format.key, jsonc: file.format.jsonc, bare: file.format.bare };
  }
  return undefined;
}

/**
 * Files in a repository that no host reads as MCP configuration, though they may look like it
 * (create-squad once recommended them), and what to say about each.
 */
const UNREAD_FILES: readonly { relPath: string; base: 'repository' | 'squad'; note: string }[] = [
  { relPath: '.copilot/mcp-config.json', base: 'repository', note: 'the Copilot CLI reads mcp-config.json only in ~/.copilot (or $COPILOT_HOME), not in a repository' },
  { relPath: '.ai-team/mcp-config.json', base: 'squad', note: 'skills declare the servers they need in metadata.mcp-servers; the servers themselves are configured for each host' },
];

export interface McpConfigSource {
  /** Repository-relative path, or `~/.copilot/…` / `$COPILOT_HOME/…` for the user's own configuration. */
  path: string;
  /** The hosts that read this file. */
  hosts: McpHostId[];
  exists: boolean;
  /** Server names the file lists, sorted (empty when missing or unusable). */
  servers: string[];
  /** Why an existing file cannot be used; then its hosts' answers are "unknown". */
  error?: string;
  /** Entries the hosts skip, one line each. */
  invalidEntries?: string[];
  /** The names of those entries: for these servers the answer is "unknown". */
  skippedServers?: string[];
}

/** A file no host reads as MCP configuration, found in the repository. */
export interface UnreadMcpConfig {
  path: string;
  note: string;
}

export interface McpConfigDetection {
  /** Every file checked, the Copilot CLI's first (repository root down to the working folder, then the user's), then VS Code's. */
  sources: McpConfigSource[];
  /** One line per unusable file and per entry a host skips. */
  warnings: Warning[];
  unread: UnreadMcpConfig[];
  /** Hosts with a file create-squad could not look for (the user's, without a home folder): for them "not-configured" cannot be claimed. */
  incomplete: McpHostId[];
}

export interface McpDetectOptions {
  /** The squad's root folder. */
  root: string;
  /** The folder the command runs in (default: `root`). */
  cwd?: string;
  /** The user's home folder; undefined skips the user's configuration (unless COPILOT_HOME is set). */
  home?: string;
  /** The command's environment: COPILOT_HOME moves `~/.copilot`. */
  env?: Readonly<Record<string, string | undefined>>;
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

/** A file to read: where it is, how it is shown, and how it is written. */
interface Candidate {
  abs: string;
  display: string;
  format: ConfigFormat;
  hosts: McpHostId[];
}

/**
 * Read the MCP configuration files every host reads. A file that cannot be used becomes a
 * warning, never a failure.
 */
export async function detectMcpConfig(options: McpDetectOptions): Promise<McpConfigDetection> {
  const sources: McpConfigSource[] = [];
  const warnings: Warning[] = [];
  for (const candidate of configCandidates(options).candidates) {
    const source = await readConfig(candidate);
    if (source.error) warnings.push(warning('mcp-config-ignored', `MCP configuration ${source.path} ignored: ${source.error}`, source.path));
    for (const entry of source.invalidEntries ?? []) warnings.push(warning('mcp-config-entry-skipped', `MCP configuration ${source.path}: ${entry}`, source.path));
    sources.push(source);
  }
  return { sources, warnings, unread: unreadMcpConfigFiles(options), incomplete: configCandidates(options).incomplete };
}

/** The folder holding `.git` at or above the working folder; else the squad's root. */
export function mcpRepositoryRoot(options: Pick<McpDetectOptions, 'root' | 'cwd'>): string {
  let dir = path.resolve(options.cwd ?? options.root);
  for (;;) {
    if (pathExists(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(options.root);
    dir = parent;
  }
}

function pathExists(abs: string): boolean {
  try {
    fs.lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

/** Every file the hosts of MCP_HOSTS read, each once, with the hosts that read it; and the hosts with a file that cannot be looked for. */
function configCandidates(options: McpDetectOptions): { candidates: Candidate[]; incomplete: McpHostId[] } {
  const byPath = new Map<string, Candidate>();
  const incomplete = new Set<McpHostId>();
  for (const host of MCP_HOSTS) {
    for (const file of host.files) {
      const found = placeCandidates(file, options);
      if (found.length === 0) incomplete.add(host.id);
      for (const candidate of found) {
        const known = byPath.get(candidate.abs);
        if (known) known.hosts.push(host.id);
        else byPath.set(candidate.abs, { ...candidate, hosts: [host.id] });
      }
    }
  }
  return { candidates: [...byPath.values()], incomplete: [...incomplete] };
}

function placeCandidates(file: ConfigFile, options: McpDetectOptions): Omit<Candidate, 'hosts'>[] {
  const repo = mcpRepositoryRoot(options);
  const inRepo = (abs: string) => ({ abs, display: path.relative(repo, abs).split(path.sep).join('/'), format: file.format });
  switch (file.place.kind) {
    case 'repository':
      return [inRepo(path.join(repo, ...file.place.relPath.split('/')))];
    case 'workspace-chain':
      return workspaceChain(repo, path.resolve(options.cwd ?? options.root)).flatMap((dir) => {
        const own = path.join(dir, REPOSITORY_MCP_JSON);
        // A folder's .github/mcp.json is read only when the folder has no .mcp.json (of any kind).
        return pathExists(own) ? [inRepo(own)] : [inRepo(own), inRepo(path.join(dir, ...REPOSITORY_GITHUB_MCP_JSON.split('/')))];
      });
    case 'copilot-home': {
      const home = copilotHome(options);
      return home ? [{ abs: path.join(home.abs, COPILOT_HOME_MCP_FILE), display: `${home.display}/${COPILOT_HOME_MCP_FILE}`, format: file.format }] : [];
    }
  }
}

/** The folders from the repository root down to the working folder (only the working folder when it is outside the repository). */
function workspaceChain(repo: string, cwd: string): string[] {
  const rel = path.relative(repo, cwd);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return [cwd];
  const dirs = [repo];
  let dir = repo;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    dir = path.join(dir, part);
    dirs.push(dir);
  }
  return dirs;
}

/** The Copilot CLI's configuration folder: `$COPILOT_HOME` when set, else `~/.copilot`. */
function copilotHome(options: McpDetectOptions): { abs: string; display: string } | undefined {
  const moved = options.env?.COPILOT_HOME?.trim();
  if (moved) return { abs: path.resolve(options.cwd ?? options.root, moved), display: '$COPILOT_HOME' };
  return options.home ? { abs: path.join(options.home, '.copilot'), display: '~/.copilot' } : undefined;
}

/** Files in the repository that look like MCP configuration but that no host reads. */
export function unreadMcpConfigFiles(options: McpDetectOptions): UnreadMcpConfig[] {
  const repo = mcpRepositoryRoot(options);
  const read = new Set(configCandidates(options).candidates.map((c) => c.abs));
  const found: UnreadMcpConfig[] = [];
  for (const file of UNREAD_FILES) {
    const base = file.base === 'repository' ? repo : path.resolve(options.root);
    const abs = path.join(base, ...file.relPath.split('/'));
    if (read.has(abs) || !pathExists(abs)) continue;
    found.push({ path: path.relative(repo, abs).split(path.sep).join('/'), note: file.note });
  }
  return found;
}

async function readConfig(candidate: Candidate): Promise<McpConfigSource> {
  const base: McpConfigSource = { path: candidate.display, hosts: candidate.hosts, exists: false, servers: [] };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(candidate.abs);
  } catch {
    return base;
  }
  const fail = (error: string): McpConfigSource => ({ ...base, exists: true, error });
  if (!stat.isFile()) return fail('it is not a file');
  if (stat.size > MCP_CONFIG_MAX_BYTES) return fail(`it is larger than ${MCP_CONFIG_MAX_BYTES / 1024} KB`);
  let text: string;
  try {
    text = fs.readFileSync(candidate.abs, 'utf8');
  } catch (error) {
    return fail(`cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const { format } = candidate;
  const parsed = await parseConfigText(text, format);
  if ('error' in parsed) return fail(parsed.error);
  const read = readServers(parsed.value, format);
  if ('error' in read) return fail(`${read.error} (expected ${expectedShape(format)})`);
  return {
    ...base,
    exists: true,
    servers: read.servers,
    ...(read.invalid.length > 0 ? { invalidEntries: read.invalid, skippedServers: read.skipped } : {}),
  };
}

/** The JSON value of a file, or why its host cannot read it. */
async function parseConfigText(text: string, format: ConfigFormat): Promise<{ value: unknown } | { error: string }> {
  const parse = await loadJsonc();
  const errors: { error: number; offset: number }[] = [];
  const value = parse(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const line = text.slice(0, errors[0]!.offset).split('\n').length;
    return { error: `it is not valid JSON (line ${line})` };
  }
  if (!format.jsonc) {
    try {
      JSON.parse(text);
    } catch {
      return { error: 'it has comments, trailing commas or a byte-order mark, and the Copilot CLI skips such a file: write plain JSON' };
    }
  }
  return { value };
}

/** What a file of `format` should look like, for messages. */
function expectedShape(format: ConfigFormat): string {
  return `{"${format.key}": {"<name>": {…settings}}}`;
}

/**
 * The servers of a parsed file: names of entries that count, and a line (and the name) per entry
 * the host skips; or why the file as a whole cannot be used.
 */
function readServers(value: unknown, format: ConfigFormat): { servers: string[]; invalid: string[]; skipped: string[] } | { error: string } {
  if (!isMapping(value)) return { error: 'it is not a JSON object' };
  const other = format.key === 'mcpServers' ? 'servers' : 'mcpServers';
  let entries: unknown;
  if (Object.hasOwn(value, format.key)) {
    entries = value[format.key];
    if (!isMapping(entries)) return { error: `"${format.key}" is ${jsonTypeName(entries)}, not an object of servers` };
  } else if (format.bare && (Object.keys(value).length === 0 || Object.values(value).some(hasCommandOrUrl))) {
    entries = value;
  } else if (Object.hasOwn(value, other)) {
    return { error: `it lists servers under "${other}", but this file's servers go under "${format.key}"` };
  } else {
    return { error: `it has no "${format.key}"` };
  }
  const servers: string[] = [];
  const invalid: string[] = [];
  const skipped: string[] = [];
  for (const [name, settings] of Object.entries(entries as Record<string, unknown>)) {
    const problem = !isMapping(settings)
      ? `is ${jsonTypeName(settings)}, not an object of settings`
      : format.needsCommandOrUrl && !hasCommandOrUrl(settings)
        ? 'has neither "command" nor "url"'
        : undefined;
    if (problem === undefined) {
      if (name.trim()) servers.push(name.trim());
      continue;
    }
    invalid.push(`server ${quoted(name)} ${problem}: it does not count as configured`);
    skipped.push(name);
  }
  return { servers: [...new Set(servers)].sort(compareCodePoints), invalid, skipped };
}

function hasCommandOrUrl(settings: unknown): boolean {
  return isMapping(settings) && (typeof settings.command === 'string' || typeof settings.url === 'string');
}

/** The identity of an MCP server name: "Postgres" and "postgres" are one server. */
export function mcpServerKey(server: string): string {
  return server.toLowerCase();
}

/** What one host has of one server. */
export interface McpHostStatus {
  answer: McpHostAnswer;
  /** The files this host reads that list the server. */
  files: string[];
}

export type McpHostStatuses = Record<McpHostId, McpHostStatus>;

/** What each host has of `server`. Without a detection, only built-in servers are known. */
export function mcpServerHosts(server: string, detection: McpConfigDetection | undefined): McpHostStatuses {
  const statuses = {} as McpHostStatuses;
  for (const host of MCP_HOSTS) statuses[host.id] = hostStatus(host, server, detection);
  return statuses;
}

function hostStatus(host: McpHostRule, server: string, detection: McpConfigDetection | undefined): McpHostStatus {
  const key = mcpServerKey(server);
  const read = (detection?.sources ?? []).filter((s) => s.hosts.includes(host.id));
  const files = read.filter((s) => s.servers.some((name) => mcpServerKey(name) === key)).map((s) => s.path);
  if (files.length > 0) return { answer: 'configured', files };
  if (host.builtIn.some((b) => [b.name, ...(b.aliases ?? [])].some((name) => mcpServerKey(name) === key))) return { answer: 'built-in', files };
  const unusable = read.some((s) => s.error !== undefined || (s.skippedServers ?? []).some((name) => mcpServerKey(name) === key));
  const unseen = !detection || host.unlistedIsUnknown || detection.incomplete.includes(host.id);
  return { answer: unseen || unusable ? 'unknown' : 'not-configured', files };
}

/** The hosts that have the server: configured there or built in. */
export function hostsWithServer(hosts: McpHostStatuses): McpHostId[] {
  return MCP_HOSTS.filter((h) => hosts[h.id].answer === 'configured' || hosts[h.id].answer === 'built-in').map((h) => h.id);
}

/** One row of the MCP requirements table. */
export interface McpRequirementRow {
  skill: string;
  server: string;
  required: boolean;
  purpose?: string;
  /** What to do without the server; the prompt quotes it for optional servers. */
  fallback?: string;
  /** What each host has of the server. */
  hosts: McpHostStatuses;
  /** The hosts that have it (configured or built in), in MCP_HOSTS order. */
  seenBy: McpHostId[];
}

export interface SkillMcpNeeds {
  name: string;
  mcpServers: readonly McpServerRequirement[];
}

/**
 * Aggregate the MCP servers the given skills declare: one row per skill and server (a server
 * declared twice by one skill, in any letter case, is one row with the first spelling, required if
 * any declaration is), sorted by skill then server, each with what every host has of it.
 */
export function collectMcpRequirements(skills: readonly SkillMcpNeeds[], detection?: McpConfigDetection): McpRequirementRow[] {
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
      const hosts = mcpServerHosts(need.name, detection);
      rows.set(key, {
        skill: skill.name,
        server: need.name,
        required: !need.optional,
        ...(need.reason === undefined ? {} : { purpose: need.reason }),
        ...(need.fallback === undefined ? {} : { fallback: need.fallback }),
        hosts,
        seenBy: hostsWithServer(hosts),
      });
    }
  }
  return [...rows.values()].sort((a, b) => compareCodePoints(a.skill, b.skill) || compareCodePoints(a.server, b.server));
}

/**
 * Required servers no host has: every host whose files create-squad can read lacks them (a host
 * that keeps its configuration elsewhere, the cloud agent, does not ship them). The spawn prompt
 * flags them at the top of its block.
 */
export function missingRequiredServers(rows: readonly McpRequirementRow[]): McpRequirementRow[] {
  return rows.filter((row) => row.required && lackedByEveryHost(row.hosts));
}

function lackedByEveryHost(hosts: McpHostStatuses): boolean {
  const lacks = (host: McpHostRule) => hosts[host.id].answer === 'not-configured' || (hosts[host.id].answer === 'unknown' && host.unlistedIsUnknown);
  return MCP_HOSTS.every(lacks) && MCP_HOSTS.some((host) => hosts[host.id].answer === 'not-configured');
}

/** The "Seen by" cell: the hosts that have the server, then those create-squad cannot tell about. */
export function seenByCell(row: Pick<McpRequirementRow, 'hosts'>): string {
  const seen = MCP_HOSTS.filter((h) => row.hosts[h.id].answer === 'configured' || row.hosts[h.id].answer === 'built-in').map((h) =>
    row.hosts[h.id].answer === 'built-in' ? `${h.short} (built-in)` : h.short,
  );
  const unknown = MCP_HOSTS.filter((h) => row.hosts[h.id].answer === 'unknown').map((h) => h.short);
  return `${seen.join(', ') || 'none'}${unknown.length > 0 ? ` (${unknown.join(', ')}: ?)` : ''}`;
}

/** The MCP requirements block of a spawn prompt; empty string when no skill declares a server. */
export async function renderMcpBlock(rows: readonly McpRequirementRow[]): Promise<string> {
  if (rows.length === 0) return '';
  const text = await renderTemplate(MCP_BLOCK_TEMPLATE, {
    rows: rows.map((row) => ({ ...row, seen: seenByCell(row) })),
    missing: missingRequiredServers(rows),
    rule: MISSING_SERVER_RULE,
  });
  return text.trimEnd();
}

/** What each host has of a server, in one line, for doctor. */
export function describeServerHosts(hosts: McpHostStatuses): string {
  return MCP_HOSTS.map((host) => `${host.name}: ${describeHostStatus(host, hosts[host.id])}`).join('; ');
}

function describeHostStatus(host: McpHostRule, status: McpHostStatus): string {
  switch (status.answer) {
    case 'configured':
      return `configured (${status.files.join(', ')})`;
    case 'built-in':
      return 'built in';
    case 'not-configured':
      return host.alsoFrom ? `not configured (create-squad does not read ${host.alsoFrom})` : 'not configured';
    case 'unknown':
      return host.unlistedIsUnknown ? `cannot tell (create-squad cannot see ${host.alsoFrom})` : 'cannot tell (a file it reads could not be checked)';
  }
}

/**
 * How to give `server` to the hosts that lack it: those whose files do not list it, and with
 * `allHosts` also those create-squad cannot tell about.
 */
export function mcpSetupFixes(server: string, hosts: McpHostStatuses, allHosts: boolean): string[] {
  return MCP_HOSTS.filter((host) => hosts[host.id].answer === 'not-configured' || (allHosts && hosts[host.id].answer === 'unknown')).map((host) => host.setup(server));
}

/** What to do about a file no host reads. */
export const UNREAD_MCP_CONFIG_FIX = `move the servers it lists to ${REPOSITORY_MCP_JSON} at the repository root (the Copilot CLI; "mcpServers") or ${VSCODE_MCP_JSON} (VS Code; "servers"), then delete it`;

/** The names of the hosts that read a file, for messages. */
export function hostNames(ids: readonly McpHostId[]): string {
  return MCP_HOSTS.filter((host) => ids.includes(host.id))
    .map((host) => host.name)
    .join(' and ');
}
