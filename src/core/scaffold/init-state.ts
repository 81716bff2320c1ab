/**
 * What `init` decides from (init-plan.ts decideInit), read once: the repository as the scaffold
 * sees it, the files this create-squad ships, what a project context change reads (the charters,
 * the backups of team.md), the stack a new squad's manifests name, and for `--mcp` the host files it
 * writes and whether the repository has create-squad installed (the entries run that install).
 */
import fs from 'node:fs';
import path from 'node:path';
import { attempt } from '../base/disk-facts.js';
import { isMapping } from '../base/util.js';
import { pathProblem, readTextIfExists, resolveInside } from '../fs/fs-safe.js';
import { packageVersion, readRepositoryInstall } from '../fs/version.js';
import type { McpHostId } from '../skills/mcp.js';
import type { ContextState } from './context-plan.js';
import { MCP_FILE_MAX_BYTES, mcpFilesOf, type LocalInstall, type McpFileState, type McpFiles, type McpRegistrationState } from './mcp-register.js';
import { ownedFilesIn, type OwnedFile } from '../squad/owned.js';
import { detectStack, readContextState } from './project-context.js';
import { readScaffoldState, type ScaffoldState } from './scaffold-state.js';

export interface InitRequest {
  /** Read the stack from the repository's manifests when it has no team.md yet (no --stack given). */
  detectStack: boolean;
  /** The hosts of `--mcp`, whose files are read (undefined: none). */
  mcpHosts?: readonly McpHostId[];
}

export interface InitState {
  root: string;
  /** This create-squad's version: what the scaffold stamps and the manifest records. */
  version: string;
  /** The squad-owned files this version ships. */
  owned: OwnedFile[];
  scaffold: ScaffoldState;
  /** What a change of the project context decides from; undefined when there is no readable team.md. */
  context: ContextState | undefined;
  /** The stack the repository's manifests name, and the files read (undefined: not asked, or a squad with a team.md). */
  detectedStack: { stack: string; from: string[] } | undefined;
  /** The description in the repository's package.json ('' when none): the project the questions suggest. */
  projectSuggestion: string;
  /** What `--mcp` decides from: the host files, by path, and the repository's install of create-squad. */
  mcp: McpRegistrationState;
}

/** The JSON object in `root`'s file at `relPath`, or undefined (none, unreadable, not an object). */
function readJsonObject(root: string, relPath: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(path.join(root, ...relPath.split('/')), 'utf8')) as unknown;
    return isMapping(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The project's own description from its package.json, as a suggestion. */
function packageDescription(root: string): string {
  const pkg = readJsonObject(root, 'package.json');
  return pkg !== undefined && typeof pkg.description === 'string' ? pkg.description.trim() : '';
}

/** The package.json fields npm installs from, in the order a range is looked for. */
const DEPENDENCY_FIELDS = ['devDependencies', 'dependencies', 'optionalDependencies'] as const;
/** create-squad in the repository at `root`: the executable npm installed, its version (fs/version.ts readRepositoryInstall), and what package.json asks for. */
export function readLocalInstall(root: string): LocalInstall {
  const { bin, version } = readRepositoryInstall(root);
  const pkg = readJsonObject(root, 'package.json');
  let declared: LocalInstall['declared'];
  for (const field of DEPENDENCY_FIELDS) {
    const deps = pkg?.[field];
    const range = isMapping(deps) ? deps['create-squad'] : undefined;
    if (typeof range === 'string') {
      declared = { field, range };
      break;
    }
  }
  return { bin, version, declared };
}

/** What stands at each file the hosts of `--mcp` read in the repository at `root`. */
export function readMcpFiles(root: string, hosts: readonly McpHostId[]): McpFiles {
  const files = new Map<string, McpFileState>();
  for (const relPath of mcpFilesOf(hosts)) {
    const problem = pathProblem(root, relPath);
    if (problem !== undefined) {
      files.set(relPath, { problem, exists: false, text: { value: undefined } });
      continue;
    }
    const abs = resolveInside(root, relPath);
    files.set(relPath, { problem, exists: fs.existsSync(abs), text: attempt(() => readTextIfExists(abs, MCP_FILE_MAX_BYTES)) });
  }
  return files;
}

/** What `--mcp` for `hosts` decides from in the repository at `root`: the host files and the install. */
export function readMcpRegistrationState(root: string, hosts: readonly McpHostId[]): McpRegistrationState {
  return { files: readMcpFiles(root, hosts), install: hosts.length === 0 ? { bin: undefined, version: undefined, declared: undefined } : readLocalInstall(root) };
}

/**
 * Read what init decides from at `root`; refuses (invalid-input) a `root` inside a squad's
 * `.ai-team/` or beside the original Squad's, and unsafe-path for state folders leading outside it.
 */
export async function readInitState(root: string, request: InitRequest): Promise<InitState> {
  const version = packageVersion();
  const owned = await ownedFilesIn(root, version);
  const scaffold = readScaffoldState(root, owned);
  const { teamText } = scaffold;
  return {
    root,
    version,
    owned,
    scaffold,
    context: teamText === undefined ? undefined : readContextState(root, teamText),
    detectedStack: request.detectStack && teamText === undefined ? detectStack(root) : undefined,
    projectSuggestion: packageDescription(root),
    mcp: readMcpRegistrationState(root, request.mcpHosts ?? []),
  };
}
