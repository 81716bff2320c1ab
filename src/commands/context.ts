/**
 * What every command receives and returns. Commands orchestrate core functions and describe their
 * outcome; the CLI layer decides how it is printed (JSON or text) and which exit code follows.
 */
import type { Ui } from '../cli/ui.js';
import type { Warning } from '../core/base/warnings.js';

export interface CommandContext {
  /**
   * Absolute path of the squad's repository: the squad enclosing the folder the command was pointed
   * at (`--cwd`, or the current directory), else the enclosing git repository's root, else that folder.
   */
  cwd: string;
  /** The folder the command was pointed at (`--cwd`, or the current directory), before that search. */
  startDir: string;
  /** The enclosing git repository's root, when there is one. */
  gitRoot?: string;
  /** Where the command was run: paths the user types (a skill folder, a .squad file) resolve here. */
  invocationDir: string;
  /** `--json` was given: the result is printed as one JSON document, the envelope (src/cli/envelope.ts). */
  json: boolean;
  /** Questions may be asked (stdin and stdout are terminals, not CI, no --yes). */
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  /** Home folder, for user-level configuration (overridable for tests through HOME). */
  home: string;
  /** How long a writing command waits for another one's squad lock (`--wait`); undefined: not at all. */
  lockWaitMs?: number;
  /** Who runs the command, for the usage log: the command line (default) or a tool of the MCP server. */
  via?: 'cli' | 'mcp';
  /** A note for the user while the command runs (stderr), e.g. that it waits for the lock. */
  note?: (text: string) => void;
  /** Read all of stdin (for `--task -`). */
  readStdin(): Promise<string>;
}

export interface CommandResult<T extends object = object> {
  /** The command's data: the envelope's `data` with `--json` (src/cli/envelope.ts). */
  data: T;
  /** 0 on success, 1 when the command ran but found failures (invalid skills, …): `ok` in the envelope. */
  exitCode: 0 | 1;
  /** What the user should know beside the result: the envelope's `warnings`, or printed as text before `render` (src/cli/run.ts). */
  warnings?: Warning[];
  /** Human output. */
  render(ui: Ui): void;
}
