/**
 * Part of doctor's read step: start each `squad` MCP server the repository registers (init --mcp's
 * entries in `.mcp.json` and `.vscode/mcp.json`) as its host would, and complete the MCP handshake
 * (initialize, initialized, tools/list) over stdio. Bounded: no shell, SERVER_START_TIMEOUT_MS,
 * output capped, the process group killed at the end (fs/run-bounded.ts).
 *
 * Only an entry that runs create-squad itself is started: npx with the create-squad package and
 * no other, node with create-squad's executable, or the repository's `node_modules/.bin/create-squad`
 * — and only when what it would run is the very create-squad running doctor (the same package
 * folder, links resolved). A repository can carry a `node_modules/` of its own: doctor never runs
 * code a cloned repository brings, nor downloads one; such an entry is reported as not checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { replay } from '../base/disk-facts.js';
import { isSquadError } from '../base/errors.js';
import { PACKAGE_ROOT } from '../base/paths.js';
import { isMapping } from '../base/util.js';
import { runBounded } from '../fs/run-bounded.js';
import { packageVersion } from '../fs/version.js';
import { readMcpFiles } from '../scaffold/init-state.js';
import { squadServerEntries } from '../scaffold/mcp-register.js';
import { MCP_HOSTS, repositoryMcpFile, type McpHostId } from '../skills/mcp.js';

/** How long a registered server gets to start and answer: npx, Node and the SDK take a second or two. */
export const SERVER_START_TIMEOUT_MS = 8000;
/** The protocol version doctor asks for; a server answers with the one it speaks. */
const PROTOCOL_VERSION = '2025-06-18';
const OUTPUT_LIMIT_BYTES = 1024 * 1024;

/** A registered `squad` server, started. */
export interface ServerStart {
  /** The host file that registers it (repository-relative). */
  path: string;
  /** The hosts that read that file. */
  hosts: McpHostId[];
  /** The entry's name in the file. */
  name: string;
  /** The command line as registered (before `${workspaceFolder}` is filled in), for messages. */
  commandLine: string;
  /** Why it did not start and answer; undefined when it did. */
  failure: string | undefined;
  /** The tools it listed, when it answered. */
  tools: number | undefined;
  /** Why it was not started: it runs a create-squad the repository brings, not the one running doctor. */
  notStarted?: string;
}

/** What a host would run for `entry`: the program, its arguments and environment, `${workspaceFolder}` filled in. */
interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** npx options that leave the package it runs as the one named (anything else, such as -p or -c, could run another). */
const NPX_FLAGS = new Set(['--yes', '-y', '--no-install', '--no', '--quiet', '-q']);
const NPX_FLAGS_WITH_VALUE = new Set(['--prefix']);
const CREATE_SQUAD_SPEC = /^create-squad(@[^\s/\\]+)?$/;

function programName(command: string): string {
  return path
    .basename(command)
    .replace(/\.(cmd|exe)$/i, '')
    .toLowerCase();
}

/** Whether `args` of npx run the create-squad package's `mcp` and nothing else. */
function npxRunsCreateSquadMcp(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) {
    if (NPX_FLAGS_WITH_VALUE.has(args[i]!)) i += 2;
    else if (NPX_FLAGS.has(args[i]!)) i += 1;
    else return false;
  }
  return CREATE_SQUAD_SPEC.test(args[i] ?? '') && args[i + 1] === 'mcp';
}

/** The launch of `entry` when it runs create-squad's `mcp` (see the module comment); undefined otherwise. */
function createSquadLaunch(entry: Record<string, unknown>, root: string): Launch | undefined {
  const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])];
  if (!words.every((word): word is string => typeof word === 'string')) return undefined;
  const fill = (word: string) => word.replaceAll('${workspaceFolder}', root);
  const [command, ...args] = words.map(fill);
  // Another variable (${input:…}, ${env:…}) only the host fills in: doctor cannot start it as the host would.
  if (command === undefined || [command, ...args].some((word) => word.includes('${'))) return undefined;
  const env: Record<string, string> = {};
  if (isMapping(entry.env)) {
    for (const [key, value] of Object.entries(entry.env)) {
      if (typeof value !== 'string' || value.includes('${')) return undefined;
      env[key] = value;
    }
  }
  const program = programName(command);
  const ownExecutables = [path.join(PACKAGE_ROOT, 'bin', 'create-squad.cjs'), path.join(root, 'node_modules', 'create-squad', 'bin', 'create-squad.cjs')];
  const runs =
    (program === 'npx' && npxRunsCreateSquadMcp(args)) ||
    (program === 'node' && args[0] !== undefined && ownExecutables.includes(path.resolve(root, args[0])) && args[1] === 'mcp') ||
    (path.resolve(root, command) === path.join(root, 'node_modules', '.bin', 'create-squad') && args[0] === 'mcp');
  return runs ? { command, args, env } : undefined;
}

function realPath(absPath: string): string | undefined {
  try {
    return fs.realpathSync.native(absPath);
  } catch {
    return undefined;
  }
}

/** The package folder of the create-squad running now, links resolved. */
const THIS_PACKAGE = realPath(PACKAGE_ROOT.replace(/[\\/]+$/, ''));

/**
 * What the launch would run when that is a create-squad other than the one running doctor (a copy
 * the repository brings in its node_modules/): its path; undefined when it is this one or nothing
 * is installed there (a start then fails at once, without running anything).
 */
function foreignCreateSquad(launch: Launch, root: string): string | undefined {
  const program = programName(launch.command);
  const { args } = launch;
  let target: string;
  if (program === 'node') target = path.resolve(root, args[0]!);
  else if (program === 'npx') {
    const prefix = args.indexOf('--prefix');
    target = path.join(prefix === -1 ? root : path.resolve(root, args[prefix + 1] ?? ''), 'node_modules', 'create-squad');
  } else target = path.resolve(root, launch.command);
  const real = realPath(target);
  if (real === undefined) return undefined;
  const ours = program === 'npx' ? THIS_PACKAGE : THIS_PACKAGE === undefined ? undefined : path.join(THIS_PACKAGE, 'bin', 'create-squad.cjs');
  return real === ours ? undefined : path.relative(root, target) || target;
}

/** The handshake a host opens with: initialize, the initialized notification, then the tools. Stdin closes after it. */
function handshake(): string {
  const messages = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'create-squad-doctor', version: packageVersion() } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  return messages.map((message) => `${JSON.stringify(message)}\n`).join('');
}

/** The answers on stdout, by request id (one JSON-RPC message a line; other lines are not answers). */
function answers(stdout: string): Map<unknown, Record<string, unknown>> {
  const byId = new Map<unknown, Record<string, unknown>>();
  for (const line of stdout.split('\n')) {
    try {
      const message: unknown = JSON.parse(line);
      if (isMapping(message) && 'id' in message) byId.set(message.id, message);
    } catch {
      // not a protocol line
    }
  }
  return byId;
}

/** The last line a program wrote on stderr, shortened: usually why it stopped. */
function lastLine(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1);
  return line === undefined ? undefined : line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Start one server and judge its answers: undefined failure when it answered initialize and tools/list. */
async function start(launch: Launch, root: string, env: NodeJS.ProcessEnv): Promise<Pick<ServerStart, 'failure' | 'tools'>> {
  let run: Awaited<ReturnType<typeof runBounded>>;
  try {
    run = await runBounded(launch.command, launch.args, {
      cwd: root,
      env: { ...env, ...launch.env },
      timeoutMs: SERVER_START_TIMEOUT_MS,
      maxOutputBytes: OUTPUT_LIMIT_BYTES,
      stdin: handshake(),
    });
  } catch (error) {
    if (isSquadError(error)) return { failure: error.message, tools: undefined };
    throw error;
  }
  const byId = answers(run.stdout);
  const initialize = byId.get(1);
  const tools = byId.get(2)?.result;
  if (isMapping(initialize?.result) && typeof initialize.result.protocolVersion === 'string' && isMapping(tools) && Array.isArray(tools.tools)) {
    return { failure: undefined, tools: tools.tools.length };
  }
  const said = lastLine(run.stderr);
  const why =
    initialize?.error !== undefined
      ? `it answered initialize with an error: ${JSON.stringify(initialize.error).slice(0, 200)}`
      : initialize !== undefined
        ? 'it answered initialize but did not list its tools'
        : run.timedOut
          ? `it did not answer within ${SERVER_START_TIMEOUT_MS / 1000} s`
          : `it exited (${run.exitCode === null ? `signal ${run.signal}` : `code ${run.exitCode}`}) without answering`;
  return { failure: said === undefined ? why : `${why}; it said: ${said}`, tools: undefined };
}

/**
 * Start every `squad` server the repository at `root` registers for a host, at once, each as its
 * host would (in the repository, `${workspaceFolder}` being `root`); none registered, nothing started.
 */
export async function startRegisteredServers(root: string, env: NodeJS.ProcessEnv): Promise<ServerStart[]> {
  const hostsByFile = new Map<string, McpHostId[]>();
  for (const host of MCP_HOSTS) {
    const file = repositoryMcpFile(host.id);
    if (file !== undefined) hostsByFile.set(file.relPath, [...(hostsByFile.get(file.relPath) ?? []), host.id]);
  }
  const files = readMcpFiles(root, [...hostsByFile.values()].flat());
  const pending: Promise<ServerStart>[] = [];
  for (const [relPath, hosts] of hostsByFile) {
    let text: string | undefined;
    try {
      text = replay(files.get(relPath)?.text ?? { value: undefined });
    } catch {
      continue; // too large to read: the configuration check reports the file
    }
    if (text === undefined) continue;
    for (const { name, entry } of squadServerEntries(hosts[0]!, text)) {
      const launch = createSquadLaunch(entry, root);
      if (launch === undefined) continue;
      const commandLine = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].join(' ');
      const foreign = foreignCreateSquad(launch, root);
      if (foreign !== undefined) {
        const notStarted = `it runs ${foreign}, not the create-squad running doctor; doctor never runs code a repository brings`;
        pending.push(Promise.resolve({ path: relPath, hosts, name, commandLine, failure: undefined, tools: undefined, notStarted }));
        continue;
      }
      pending.push(start(launch, root, env).then((result) => ({ path: relPath, hosts, name, commandLine, ...result })));
    }
  }
  return Promise.all(pending);
}
