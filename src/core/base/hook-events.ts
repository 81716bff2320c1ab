import { hookCommands } from './cli-invocation.js';

/**
 * The Copilot hook events create-squad answers (`create-squad hook <event>`), under the names each
 * host gives them: the Copilot CLI and the cloud agent write them in camelCase in
 * `.github/hooks/*.json`; VS Code writes PascalCase and answers in its own shape.
 */

/** Every event `hook` accepts, by the Copilot CLI's name, with VS Code's. */
export const HOOK_EVENTS = {
  preToolUse: 'PreToolUse',
} as const;

export type HookEvent = keyof typeof HOOK_EVENTS;
export type HookHost = 'copilot-cli' | 'vscode';

/** The event and the host a name given to `hook` stands for; undefined for one create-squad does not answer. */
export function hookEventOf(name: string): { event: HookEvent; host: HookHost } | undefined {
  for (const [event, vscode] of Object.entries(HOOK_EVENTS) as [HookEvent, string][]) {
    if (name === event) return { event, host: 'copilot-cli' };
    if (name === vscode) return { event, host: 'vscode' };
  }
  return undefined;
}

/** What the coordinator guard does with a file change outside `.ai-team/`: refuse it, ask the user, or let it through with a reminder. */
export const GUARD_MODES = ['deny', 'ask', 'warn'] as const;
export type GuardMode = (typeof GUARD_MODES)[number];
/** Measured in real sessions: a denied `create` is not written and the model reads the reason, so it can delegate instead. */
export const DEFAULT_GUARD: GuardMode = 'deny';

/** The tools that change files, as each host names them to a hook. */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set([
  'create',
  'edit',
  'editFiles',
  'createFile',
  'create_file',
  'replace_string_in_file',
  'insert_edit_into_file',
  'apply_patch',
]);

/** The tool that starts a subagent in the Copilot CLI (`agent_type`: the custom agent; `prompt`: what it is told). */
export const SPAWN_TOOL = 'task';

/** Where create-squad keeps the squad's hooks: a repository hooks file every Copilot host reads. */
export const HOOKS_FILE_PATH = '.github/hooks/squad.json';
/** How long a host waits for the hook: past it, the Copilot CLI goes on as without the hook (measured). */
const HOOK_TIMEOUT_SEC = 30;

/**
 * The squad's hooks file: for each event, the repository's own create-squad (see hookCommands).
 * The Copilot CLI denies the tool when a preToolUse hook exits non-zero (measured with 1.0.102), so
 * the command line always exits 0: a create-squad that cannot start leaves the session unlimited.
 */
export function squadHooksFile(): string {
  const hooks = Object.fromEntries(
    (Object.keys(HOOK_EVENTS) as HookEvent[]).map((event) => {
      const commands = hookCommands(`hook ${event}`);
      const [posix, windows] = [`${commands.posix} || true`, `${commands.powershell}; exit 0`];
      // `bash`/`powershell` are the Copilot CLI's fields; `command`/`windows` VS Code's (documented), which the CLI ignores (measured).
      return [event, [{ type: 'command', bash: posix, powershell: windows, command: posix, windows, timeoutSec: HOOK_TIMEOUT_SEC }]];
    }),
  );
  return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

/**
 * Whether the repository has what the hooks file starts: create-squad's executable, or a
 * package.json entry that `npm install` links (a fresh clone before its install). Without either,
 * every hook does nothing: the coordinator is not held to delegating, spawns are not completed.
 */
export function hooksCanRun(install: { bin: string | undefined; declared: unknown }): boolean {
  return install.bin !== undefined || install.declared !== undefined;
}

/** What init and doctor say when the hooks cannot run, and the fix. */
export const HOOKS_NOT_INSTALLED = `${HOOKS_FILE_PATH} runs only this repository's own create-squad (node_modules/.bin/create-squad), which is not installed: the squad's hooks do nothing until it is`;
export const HOOKS_INSTALL_FIX =
  "install create-squad as a devDependency: npm install -D create-squad, or from a tarball or a git URL while it is not on the registry (create-squad's docs/install.md)";
