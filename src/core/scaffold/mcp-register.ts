/**
 * Registering create-squad's own MCP server (`create-squad mcp`) with the Copilot hosts the user
 * picks (`init --mcp`): an entry named MCP_SERVER_NAME in each host's configuration file at the
 * repository root (repositoryMcpFile: `.vscode/mcp.json` for VS Code, `.mcp.json` for the Copilot
 * CLI), running the repository's own install (`npx --no-install create-squad mcp`: never a download,
 * so it starts wherever the repository's dependencies are installed, published or not). The cloud
 * agent reads its servers from the repository's settings on GitHub, which no file reaches: it gets
 * the entry to paste. A repository without create-squad (neither in `node_modules/.bin/` nor in
 * package.json) is refused with the fix: an entry there could not start.
 *
 * Never touches an existing entry: a server of that name, or any server that already runs
 * create-squad's `mcp`, is kept as it is. An existing file is changed by inserting the one entry
 * (jsonc-parser's edit, so comments, order and formatting stay); a file that cannot be read safely
 * (not JSON, comments where the host reads plain JSON, servers at the top level, the key not an
 * object, a symlink) is refused with what to do instead, before anything is written.
 *
 * Decided from what init's read step read (init-state.ts readMcpRegistrationState: each host's
 * file and the repository's install), as changes of the one plan type: no disk access here
 * (test/unit/decide-init.test.ts).
 */
import { createRequire } from 'node:module';
import { replay, type Recorded } from '../base/disk-facts.js';
import { SquadError } from '../base/errors.js';
import type { Change } from '../base/plan.js';
import { isMapping, jsonTypeName } from '../base/util.js';
import { MCP_HOSTS, mcpServerKey, repositoryMcpFile, type McpHostId } from '../skills/mcp.js';

/** The name the squad's server is registered under. */
export const MCP_SERVER_NAME = 'squad';
/** The tools the cloud agent may call without asking (it never asks): all but the ones that run or write. */
export const CLOUD_AGENT_TOOLS = ['list_skills', 'read_skill', 'build_spawn_prompt', 'route', 'validate_skill'] as const;
export const MCP_HOST_IDS = MCP_HOSTS.map((host) => host.id);

type JsoncModule = typeof import('jsonc-parser');
let jsoncModule: JsoncModule | undefined;
function jsonc(): JsoncModule {
  jsoncModule ??= createRequire(import.meta.url)('jsonc-parser') as JsoncModule;
  return jsoncModule;
}

/**
 * What every host runs: the repository's own create-squad, never a download (`--no-install` fails
 * at once when it is not installed, where `--yes` would fetch whatever the registry has).
 */
export const MCP_SERVER_COMMAND = ['npx', '--no-install', 'create-squad', 'mcp'] as const;

/** What installs create-squad in a repository, so that the registered command starts. */
export const LOCAL_INSTALL_COMMAND = 'npm install -D create-squad';
/** init's fix for a repository without create-squad. */
export const LOCAL_INSTALL_FIX = `${LOCAL_INSTALL_COMMAND}, then run init --mcp again`;

/**
 * The entry for `host`, as that host's configuration writes a server. VS Code gets its workspace
 * folder twice: `--prefix` makes npx find the install there whatever folder VS Code starts it in,
 * and `--cwd` tells the server which squad to serve. The Copilot CLI starts it in the folder
 * `copilot` runs in, from where npx finds the install and the server the squad, both looking up.
 */
export function mcpServerEntry(host: McpHostId): Record<string, unknown> {
  const [command, ...args] = MCP_SERVER_COMMAND;
  if (host === 'vscode') return { type: 'stdio', command, args: ['--prefix', '${workspaceFolder}', ...args, '--cwd', '${workspaceFolder}'] };
  if (host === 'copilot-cli') return { type: 'local', command, args, tools: ['*'] };
  return { type: 'local', command, args, tools: [...CLOUD_AGENT_TOOLS] };
}

/** create-squad in the repository, as the read step found it (init-state.ts readLocalInstall). */
export interface LocalInstall {
  /** The executable npm installed (`node_modules/.bin/create-squad`, repository-relative), when there is one. */
  bin: string | undefined;
  /** The installed version (`node_modules/create-squad/package.json`), when readable. */
  version: string | undefined;
  /** Where package.json asks for create-squad (`devDependencies`, …) and the range it asks for. */
  declared: { field: string; range: string } | undefined;
}

/** What init's read step read for `--mcp`: each host file, by repository-relative path, and the install. */
export interface McpRegistrationState {
  files: McpFiles;
  install: LocalInstall;
}

export type McpRegistrationStatus = 'added' | 'kept' | 'manual';

export interface McpRegistration {
  host: McpHostId;
  status: McpRegistrationStatus;
  /** The file, for a host that reads one in the repository. */
  path?: string;
  /** The entry name: ours, or the one already there. */
  name: string;
  entry: Record<string, unknown>;
  note: string;
}

/** The largest host configuration file read: more is not one. */
export const MCP_FILE_MAX_BYTES = 1024 * 1024;

/** A host's configuration file in the repository, as the read step found it. */
export interface McpFileState {
  /** Why a regular file cannot be written there (a symlink, a folder on the way leading out), undefined when it can. */
  problem: string | undefined;
  /** Something stands there. */
  exists: boolean;
  /** Its text (undefined: nothing there, or no regular file), or what reading it threw (larger than MCP_FILE_MAX_BYTES). */
  text: Recorded<string | undefined>;
}

/** The host files read, by repository-relative path. */
export type McpFiles = ReadonlyMap<string, McpFileState>;

/** The repository files the hosts in `hosts` read their servers from, once each. */
export function mcpFilesOf(hosts: readonly McpHostId[]): string[] {
  return [...new Set(hosts.flatMap((host) => repositoryMcpFile(host)?.relPath ?? []))];
}

export interface McpRegistrationPlan {
  /** The create-squad the entries run: the installed version, else the range package.json asks for (undefined: neither known). */
  version: string | undefined;
  /** How the repository has create-squad: installed, only asked for by package.json (npm install brings it), or not at all (every entry was kept). */
  install: 'installed' | 'declared' | 'missing';
  registrations: McpRegistration[];
  /** Each file written: created (exclusively) or replaced (only while it holds what was read). */
  changes: Change[];
}

function refuse(relPath: string, reason: string, hint: string): never {
  throw new SquadError('invalid-format', `cannot add the squad's MCP server to ${relPath}: ${reason}`, { file: relPath, hint });
}

/** Whether a server entry already runs create-squad's MCP server (whatever its name). */
export function runsCreateSquadMcp(entry: unknown): boolean {
  if (!isMapping(entry) || !Array.isArray(entry.args)) return false;
  const words = [entry.command, ...entry.args].filter((w): w is string => typeof w === 'string');
  return words.some((w) => /(^|[/\\@])create-squad(@[^/\\]*)?$/.test(w) || /^create-squad@/.test(w)) && words.includes('mcp');
}

/**
 * The entries of a host file's text that are the squad's server: named MCP_SERVER_NAME (any case)
 * or running create-squad's `mcp` under another name, as init keeps them. Text that is not JSON
 * (comments allowed) or holds no servers has none (doctor's configuration check reports it).
 */
export function squadServerEntries(host: McpHostId, text: string): { name: string; entry: Record<string, unknown> }[] {
  const file = repositoryMcpFile(host);
  if (file === undefined) return [];
  const errors: import('jsonc-parser').ParseError[] = [];
  const document: unknown = jsonc().parse(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !isMapping(document)) return [];
  const servers = document[file.key] ?? (file.bare ? document : undefined);
  if (!isMapping(servers)) return [];
  return Object.entries(servers).flatMap(([name, entry]) =>
    isMapping(entry) && (mcpServerKey(name) === mcpServerKey(MCP_SERVER_NAME) || runsCreateSquadMcp(entry)) ? [{ name, entry }] : [],
  );
}

/** The file's indentation unit (its first indented line), else two spaces. */
function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

/**
 * `text` with one property inserted at `path` and nothing else changed: jsonc-parser finds where
 * (keeping comments, order and formatting), and the new property alone is written out, indented
 * as the file is, `depth` levels deep. Undefined when the edit would be anything but one insertion.
 */
function insertProperty(text: string, path: string[], value: unknown, depth: number): string | undefined {
  const edits = jsonc().modify(text, path, value, {});
  if (edits.length !== 1 || edits[0]!.length !== 0) return undefined;
  const edit = edits[0]!;
  const comma = edit.content.startsWith(',') ? ',' : '';
  let property: Record<string, unknown>;
  try {
    property = JSON.parse(`{${edit.content.slice(comma.length)}}`) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const [name, inserted] = Object.entries(property)[0] ?? [];
  if (name === undefined) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = indentUnit(text);
  const at = (level: number) => unit.repeat(level);
  const rendered = `${JSON.stringify(name)}: ${JSON.stringify(inserted, null, unit)
    .split('\n')
    .join(`${eol}${at(depth)}`)}`;
  const rest = text.slice(edit.offset);
  const closesOnSameLine = /^[ \t]*\}/.test(rest);
  return `${text.slice(0, edit.offset)}${comma}${eol}${at(depth)}${rendered}${closesOnSameLine ? `${eol}${at(depth - 1)}` : ''}${rest}`;
}

/** The file the read step read at `relPath`; one it did not read is a bug of the read step, said loudly. */
function fileRead(files: McpFiles, relPath: string): McpFileState {
  const read = files.get(relPath);
  if (read === undefined) throw new Error(`internal error: the read step did not read ${relPath}`);
  return read;
}

/** The plan for one host that reads a file in the repository (`writes`: the files planned so far, by path). */
function planFile(files: McpFiles, host: McpHostId, writes: Map<string, { content: string; base?: string }>): McpRegistration {
  const file = repositoryMcpFile(host)!;
  const relPath = file.relPath;
  const entry = mcpServerEntry(host);
  const hostName = MCP_HOSTS.find((h) => h.id === host)!.name;
  const onDisk = fileRead(files, relPath);
  if (onDisk.problem) refuse(relPath, onDisk.problem, `make ${relPath} a real file in the repository, or add the entry yourself (docs/commands.md, "Registering the server")`);
  const planned = writes.get(relPath);
  let text: string | undefined;
  try {
    text = planned?.content ?? replay(onDisk.text);
  } catch {
    refuse(relPath, `it is larger than ${MCP_FILE_MAX_BYTES / 1024 / 1024} MB or cannot be read`, 'add the entry yourself');
  }
  if (text === undefined) {
    if (onDisk.exists) refuse(relPath, 'it is not a regular file', 'move it away, or add the entry yourself');
    writes.set(relPath, { content: `${JSON.stringify({ [file.key]: { [MCP_SERVER_NAME]: entry } }, null, 2)}\n` });
    return { host, status: 'added', path: relPath, name: MCP_SERVER_NAME, entry, note: `${relPath} created for ${hostName}` };
  }
  const errors: import('jsonc-parser').ParseError[] = [];
  const source = text.replace(/^\uFEFF/, '');
  const document: unknown = jsonc().parse(source, errors, { allowTrailingComma: true, disallowComments: false });
  const manual = `add the "${MCP_SERVER_NAME}" entry yourself (docs/commands.md, "Registering the server")`;
  if (errors.length > 0 || !isMapping(document)) {
    refuse(
      relPath,
      errors.length > 0 ? `it is not valid JSON (at character ${errors[0]!.offset + 1})` : `its top level is ${jsonTypeName(document)}, not an object`,
      `fix the file, then run init --mcp again; or ${manual}`,
    );
  }
  if (!file.jsonc) {
    try {
      JSON.parse(text);
    } catch {
      refuse(
        relPath,
        `it has comments, trailing commas or a byte-order mark, and ${hostName} reads only plain JSON`,
        `make it plain JSON (${hostName} skips the file as it is), then run init --mcp again`,
      );
    }
  }
  const servers = document[file.key];
  if (servers === undefined && file.bare && Object.keys(document).length > 0) {
    refuse(
      relPath,
      `its servers are at the top level, without "${file.key}"`,
      `move them under "${file.key}" (adding the key would hide them), then run init --mcp again; or ${manual}`,
    );
  }
  if (servers !== undefined && !isMapping(servers)) refuse(relPath, `"${file.key}" is ${jsonTypeName(servers)}, not an object`, `fix "${file.key}", then run init --mcp again`);
  const existing = Object.entries(servers ?? {});
  const named = existing.find(([name]) => mcpServerKey(name) === mcpServerKey(MCP_SERVER_NAME));
  const ours = existing.find(([, value]) => runsCreateSquadMcp(value));
  const found = ours ?? named;
  if (found !== undefined) {
    const [name, value] = found;
    const why = found === ours ? 'already runs create-squad mcp' : `is a server of that name${runsCreateSquadMcp(value) ? '' : ' that runs something else'}`;
    return { host, status: 'kept', path: relPath, name, entry: isMapping(value) ? value : {}, note: `${relPath}: "${name}" ${why}; left as it is` };
  }
  const content = insertProperty(text, [file.key, MCP_SERVER_NAME], entry, servers === undefined ? 1 : 2);
  if (content === undefined) refuse(relPath, 'the entry could not be inserted without changing what is there', manual);
  const check: unknown = jsonc().parse(content.replace(/^\uFEFF/, ''), [], { allowTrailingComma: true });
  if (!isMapping(check) || !isMapping(check[file.key]) || JSON.stringify((check[file.key] as Record<string, unknown>)[MCP_SERVER_NAME]) !== JSON.stringify(entry)) {
    refuse(relPath, 'the entry could not be inserted without changing what is there', manual);
  }
  if (planned) planned.content = content;
  else writes.set(relPath, { content, base: text });
  return { host, status: 'added', path: relPath, name: MCP_SERVER_NAME, entry, note: `${relPath}: "${MCP_SERVER_NAME}" added for ${hostName}, the rest of the file as it was` };
}

/**
 * What registering the server for `hosts` changes in the repository `state` was read from
 * (init-state.ts readMcpRegistrationState); decided without touching the disk. Refuses (not-found)
 * to write or print an entry where create-squad is not installed: it could not start there.
 */
export function decideMcpRegistration(state: McpRegistrationState, hosts: readonly McpHostId[]): McpRegistrationPlan {
  const writes = new Map<string, { content: string; base?: string }>();
  const registrations = hosts.map((host): McpRegistration => {
    if (repositoryMcpFile(host) !== undefined) return planFile(state.files, host, writes);
    const rule = MCP_HOSTS.find((h) => h.id === host)!;
    return {
      host,
      status: 'manual',
      name: MCP_SERVER_NAME,
      entry: mcpServerEntry(host),
      note: `${rule.name} reads its servers from ${rule.alsoFrom ?? 'its own settings'}: paste {"mcpServers": {"${MCP_SERVER_NAME}": …}} there (the tools listed are the ones it may call without asking; its setup steps must install the repository's dependencies)`,
    };
  });
  const { install } = state;
  const found = install.bin !== undefined ? 'installed' : install.declared !== undefined ? 'declared' : 'missing';
  if (found === 'missing' && registrations.some((r) => r.status !== 'kept')) {
    throw new SquadError('not-found', `create-squad is not installed in this repository, so the MCP server "${MCP_SERVER_NAME}" would not start`, {
      hint: LOCAL_INSTALL_FIX,
    });
  }
  const changes = [...writes].map(([path, { content, base }]): Change => (base === undefined ? { kind: 'create', path, content } : { kind: 'replace', path, content, base }));
  return { version: install.version ?? install.declared?.range, install: found, registrations, changes };
}

/** Host ids from `--mcp` ("vscode,copilot-cli", "all"); a usage error names the valid ones. */
export function parseMcpHosts(given: string | true): McpHostId[] {
  const words =
    given === true
      ? ['all']
      : given
          .split(',')
          .map((w) => w.trim().toLowerCase())
          .filter(Boolean);
  const aliases: Record<string, McpHostId[]> = {
    all: [...MCP_HOST_IDS],
    vscode: ['vscode'],
    'vs-code': ['vscode'],
    cli: ['copilot-cli'],
    'copilot-cli': ['copilot-cli'],
    cloud: ['cloud-agent'],
    'cloud-agent': ['cloud-agent'],
  };
  const hosts = new Set<McpHostId>();
  for (const word of words.length === 0 ? ['all'] : words) {
    const ids = aliases[word];
    if (ids === undefined) {
      throw new SquadError('usage', `--mcp: unknown host "${word}"`, { hint: `give ${MCP_HOST_IDS.join(', ')} (comma-separated), or all` });
    }
    for (const id of ids) hosts.add(id);
  }
  return MCP_HOST_IDS.filter((id) => hosts.has(id));
}
