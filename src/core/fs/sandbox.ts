/**
 * A skill's script run confined (skills test, test_skill, run_skill_script): one function,
 * runConfined, over runBounded's time and output limits.
 *
 * - Environment: nothing inherited but a fixed few (scriptEnvironment): PATH is ours (the standard
 *   system folders and the running node's folder), HOME and TMPDIR are fresh empty folders, then
 *   the caller's variables, whose names envNameProblem checks. No token or other secret of the
 *   environment create-squad runs in reaches the script.
 * - Working folder: a scratch copy of a folder (the skill's, for tests) or the repository, as the
 *   caller says. The scratch (with HOME and TMPDIR) is a folder of the repository's own temp folder
 *   (debris.ts makeRepoScratch), removed after the run; what a killed run left is swept there.
 * - Process tree and network: on Linux, where user namespaces can be made without privileges
 *   (checked once per process), the program runs under `unshare` in its own user, pid and (when
 *   the caller turns it off) network namespaces, with --kill-child: at the time limit everything it
 *   started dies with it, children that left its process group (setsid) included, and it reaches
 *   no network. Elsewhere only its process group is killed and the network is not confined; the
 *   run's Confinement says which.
 * Not confined: reading and writing files the user can (by absolute path, such as ~/.ssh): there
 * is no mount namespace. docs/commands.md ("skills test") says so per platform.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import { makeRepoScratch, repoTempDir, type RepoScratch } from './debris.js';
import { runBounded, type BoundedRun, type BoundedRunOptions } from './run-bounded.js';
import { listTree, modeFor } from './tree.js';

// ---------------------------------------------------------------- the environment

/** Variables a confined run sets itself (see scriptEnvironment): never taken from elsewhere. */
const FIXED_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TERM',
  'LANG',
  'LANGUAGE',
  'TZ',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'SYSTEMROOT',
  'WINDIR',
  'PATHEXT',
  'COMSPEC',
];
/** Names that make a shell or a program run or load something else, or read words differently. */
const LOADING_NAMES: readonly string[] = [
  'ENV',
  'BASH_ENV',
  'SHELL',
  'IFS',
  'CDPATH',
  'PS4',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'GLOBIGNORE',
  'ZDOTDIR',
  'CLASSPATH',
  'GCONV_PATH',
  'LOCPATH',
  'NLSPATH',
  'HOSTALIASES',
  'PSMODULEPATH',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'BROWSER',
];
/**
 * Prefixes of the same: the dynamic loader (LD_, DYLD_), git, node and its package managers, the
 * interpreters' options and library paths (PYTHON…, PERL…, RUBY…), the JVM and .NET, the locale
 * (LC_), XDG folders, the C library's allocator, TLS libraries, bash's exported functions.
 */
const LOADING_PREFIXES: readonly string[] = [
  'LD_',
  'DYLD_',
  'GIT_',
  'NODE_',
  'NPM_',
  'YARN_',
  'PNPM_',
  'COREPACK_',
  'PYTHON',
  'PIP_',
  'PERL',
  'RUBY',
  'GEM_',
  'BUNDLE_',
  'JAVA_',
  '_JAVA_',
  'JDK_',
  'DOTNET_',
  'COMPLUS_',
  'CORECLR_',
  'LC_',
  'XDG_',
  'MALLOC_',
  'GLIBC_',
  'SSL_',
  'OPENSSL_',
  'TERMINFO',
  'BASH_FUNC_',
];
/** A variable name, as test-config.json may give one. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Why a script run may not take the variable `name` from a skill's settings, or undefined when it
 * may: the one rule. A name must be plain (letters, digits, `_`), not one the run sets itself
 * (FIXED_NAMES, and `reserved`: what the caller sets, such as SKILL_DIR), and not one that changes
 * what runs or what a program loads (LOADING_NAMES, LOADING_PREFIXES, proxies). Compared without
 * case (Windows reads `Path` as `PATH`).
 */
export function envNameProblem(name: string, reserved: readonly string[] = []): string | undefined {
  if (!ENV_NAME.test(name)) return 'it is not a plain variable name (letters, digits and "_", not starting with a digit)';
  const upper = name.toUpperCase();
  if (FIXED_NAMES.includes(upper) || reserved.some((fixed) => fixed.toUpperCase() === upper)) return 'create-squad sets it for every script run';
  if (LOADING_NAMES.includes(upper) || LOADING_PREFIXES.some((prefix) => upper.startsWith(prefix)) || upper.endsWith('_PROXY')) {
    return 'it changes what runs or what a program loads, so a script could run code nobody allowed';
  }
  return undefined;
}

/** The standard system folders of programs, for the PATH of a confined run. */
function systemBinFolders(env: NodeJS.ProcessEnv): string[] {
  if (process.platform === 'win32') {
    const root = env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows';
    return [path.win32.join(root, 'System32'), root, path.win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0')];
  }
  const folders = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/sbin', '/sbin'];
  return process.platform === 'darwin' ? ['/opt/homebrew/bin', ...folders] : folders;
}

/** The PATH of a confined run: the running node's folder (so `node` is this one), then the system's. */
export function confinedPath(env: NodeJS.ProcessEnv = process.env): string {
  return [...new Set([path.dirname(process.execPath), ...systemBinFolders(env)])].join(path.delimiter);
}

/** Taken from the environment create-squad runs in, when set: the language, the time zone, and what Windows needs to start any program. */
const INHERITED_NAMES = ['LANG', 'LC_ALL', 'TZ', ...(process.platform === 'win32' ? ['SystemRoot', 'windir', 'PATHEXT', 'ComSpec'] : [])];

/**
 * The whole environment of a confined run: PATH (confinedPath), HOME and TMPDIR (TMP, TEMP; on
 * Windows USERPROFILE and APPDATA too) the run's fresh folders, TERM=dumb, LANG, LC_ALL and TZ when
 * set in `parent`, then `extra` (each name checked with envNameProblem; a bad one is a bug of the
 * caller). Nothing else of `parent` — no token, no NODE_OPTIONS.
 */
export function scriptEnvironment(parent: NodeJS.ProcessEnv, folders: { home: string; tmp: string }, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: confinedPath(parent),
    HOME: folders.home,
    TMPDIR: folders.tmp,
    TMP: folders.tmp,
    TEMP: folders.tmp,
    TERM: 'dumb',
  };
  if (process.platform === 'win32') Object.assign(env, { USERPROFILE: folders.home, APPDATA: folders.home, LOCALAPPDATA: folders.home });
  for (const name of INHERITED_NAMES) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    const problem = envNameProblem(name);
    if (problem !== undefined) throw new Error(`a confined run cannot set ${name}: ${problem}`);
    env[name] = value;
  }
  return env;
}

// ---------------------------------------------------------------- namespaces

/** What a run was confined by, as `skills test --json` reports it. */
export interface Confinement {
  /** off: no network namespace but loopback; on: the network is reachable (not confined, or not asked to be). */
  network: 'off' | 'on';
  /** namespace: everything the program started dies with it; group: its process group (setsid escapes); process: the program only (Windows). */
  processTree: 'namespace' | 'group' | 'process';
  env: 'minimal';
  home: 'temporary';
  /** scratch: a copy in a temporary folder; repository: the repository root. */
  cwd: 'scratch' | 'repository';
}

/** Where util-linux's unshare is looked for (never on the PATH a caller controls). */
const UNSHARE_PATHS = ['/usr/bin/unshare', '/bin/unshare'];
/** Its options: own user namespace (the user mapped to itself, else to root), own pid namespace, and every process in it killed with it. */
const USER_MAPPINGS = [['--map-current-user'], ['--map-root-user']];
const PID_FLAGS = ['--pid', '--fork', '--kill-child'];

interface Namespaces {
  unshare: string;
  /** Flags before the program, without --net. */
  flags: string[];
}

let namespaces: Namespaces | null | undefined;

/**
 * How to run a program in its own user, pid and network namespaces, or null where that cannot be
 * done without privileges (not Linux, no unshare, user namespaces forbidden). Checked once per
 * process by running `true` that way.
 */
export function namespaceSupport(): Namespaces | null {
  if (namespaces !== undefined) return namespaces;
  namespaces = null;
  if (process.platform !== 'linux') return namespaces;
  const unshare = UNSHARE_PATHS.find((candidate) => fs.existsSync(candidate));
  if (unshare === undefined) return namespaces;
  for (const mapping of USER_MAPPINGS) {
    const flags = ['--user', ...mapping, ...PID_FLAGS];
    const probe = spawnSync(unshare, [...flags, '--net', '--', 'true'], { env: { PATH: confinedPath() }, stdio: 'ignore', timeout: 10_000 });
    if (probe.status === 0) {
      namespaces = { unshare, flags };
      break;
    }
  }
  return namespaces;
}

/** The confinement a run gets here, with the network turned off or not. */
export function confinementHere(options: { network: 'off' | 'on'; cwd: Confinement['cwd'] }): Confinement {
  const support = namespaceSupport();
  return {
    network: support !== null && options.network === 'off' ? 'off' : 'on',
    processTree: support !== null ? 'namespace' : process.platform === 'win32' ? 'process' : 'group',
    env: 'minimal',
    home: 'temporary',
    cwd: options.cwd,
  };
}

// ---------------------------------------------------------------- the scratch folder

/** The purpose in the name of a run's scratch folder in the repository's temp folder (debris.ts). */
const SCRATCH_PURPOSE = 'script-run';

/** Remove a scratch folder, whatever modes the script left on it; what cannot go is swept by a later writing command. */
function removeScratch(dir: string): void {
  const remove = () => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  try {
    remove();
  } catch {
    try {
      makeWritable(dir);
      remove();
    } catch {
      // left for the sweep (debris.ts) and doctor
    }
  }
}

function makeWritable(dir: string): void {
  fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) makeWritable(path.join(dir, entry.name));
}

/** A fresh, empty scratch folder for one run, in the repository's own temp folder (debris.ts). */
function makeScratch(root: string): RepoScratch {
  try {
    return makeRepoScratch(root, SCRATCH_PURPOSE);
  } catch (error) {
    throw new SquadError('not-writable', `cannot make the scratch folder of a script run in ${repoTempDir(root)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
      hint: 'scripts run in a scratch folder in the repository: make the repository folder writable',
      cause: error,
    });
  }
}

/** In the scratch folder `dir`: `home/`, `tmp/`, and `work/` holding a copy of the regular files of `copyOf` (no symlinks, no .git). */
async function fillScratch(dir: string, copyOf: string | undefined): Promise<{ home: string; tmp: string; work?: string }> {
  const home = path.join(dir, 'home');
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(home);
  fs.mkdirSync(tmp);
  if (copyOf === undefined) return { home, tmp };
  const work = path.join(dir, 'work');
  fs.mkdirSync(work);
  // A copy nobody reads back and that is removed after the run: no atomic writer needed.
  for (const file of (await listTree(copyOf)).files) {
    const target = path.join(work, ...file.path.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(copyOf, ...file.path.split('/')), target, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(target, modeFor(file.executable));
  }
  return { home, tmp, work };
}

// ---------------------------------------------------------------- the run

/**
 * Refuse (not-found) a program named without a folder that the confined PATH does not have: a
 * script's interpreter is looked up there only, never on the PATH create-squad was started with.
 */
function requireOnConfinedPath(command: string, env: Record<string, string>): void {
  if (process.platform === 'win32' || command.includes('/')) return;
  const folders = (env.PATH ?? '').split(path.delimiter);
  const found = folders.some((folder) => {
    try {
      fs.accessSync(path.join(folder, command), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!found) {
    throw new SquadError('not-found', `cannot run ${command}: it is not in the folders a script's PATH holds (${folders.join(path.delimiter)})`, {
      hint: `install ${command} in one of those folders (scripts get a fixed PATH: the system's folders and node's)`,
    });
  }
}

/** How to start the program, once the run's folders are known. */
export interface ConfinedStart {
  command: string;
  args: string[];
  /** Variables beyond the fixed ones (names checked with envNameProblem by the caller). */
  env?: Record<string, string>;
}

export interface ConfinedRunOptions extends Pick<BoundedRunOptions, 'timeoutMs' | 'maxOutputBytes' | 'stdin' | 'signal'> {
  /** The repository: its temp folder holds the scratch, and it is the working folder unless `copyOf` is given. */
  root: string;
  /** The environment create-squad runs in: only LANG, LC_ALL and TZ are taken from it. */
  parentEnv: NodeJS.ProcessEnv;
  /** A folder copied into the scratch to be the working folder (a skill's). */
  copyOf?: string;
  /** Turn the network off where namespaces allow it. */
  network: 'off' | 'on';
}

export interface ConfinedRun extends BoundedRun {
  confinement: Confinement;
}

/**
 * Run a program confined (see the top of this file): `start` gets the run's folders (`work` is the
 * copy of `copyOf`, else the repository) and says what to run. The scratch is removed afterwards,
 * whatever happened.
 */
export async function runConfined(options: ConfinedRunOptions, start: (folders: { work: string; home: string; tmp: string }) => ConfinedStart): Promise<ConfinedRun> {
  const made = makeScratch(options.root);
  const dir = made.path;
  try {
    const scratch = await fillScratch(dir, options.copyOf).catch((error: unknown) => {
      throw new SquadError('not-writable', `cannot copy ${options.copyOf} into the scratch folder of the run: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
        hint: 'make every file of the folder readable, and the repository folder writable',
        cause: error,
      });
    });
    const work = scratch.work ?? options.root;
    const program = start({ work, home: scratch.home, tmp: scratch.tmp });
    const env = scriptEnvironment(options.parentEnv, scratch, program.env);
    requireOnConfinedPath(program.command, env);
    const confinement = confinementHere({ network: options.network, cwd: scratch.work === undefined ? 'repository' : 'scratch' });
    const support = namespaceSupport();
    const [command, args] =
      support === null
        ? [program.command, program.args]
        : [support.unshare, [...support.flags, ...(confinement.network === 'off' ? ['--net'] : []), '--', program.command, ...program.args]];
    const run = await runBounded(command, args, {
      cwd: work,
      env,
      timeoutMs: options.timeoutMs,
      maxOutputBytes: options.maxOutputBytes,
      ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { ...run, confinement };
  } finally {
    removeScratch(dir);
    made.release();
  }
}
