/**
 * What a run of the CLI takes from its process: the working folder, the environment, stdin and
 * whether the streams are terminals. `main` receives it as a parameter, so tests (and any host
 * that embeds the CLI) run commands in-process without touching the real process.
 */
import { MAX_STDIN_BYTES, readBounded } from '../core/fs/bounded-read.js';
import { isTerminal, processOutput, type OutputStream } from './output.js';

export interface Io {
  /** The folder the command was run from: relative paths the user types resolve here. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** stdin and stdout are terminals (questions may be asked). */
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  /** stderr is a terminal (help shown after a usage error is wrapped to its width); false when absent. */
  stderrIsTTY?: boolean;
  /** All of stdin as UTF-8, refused past a size limit. */
  readStdin(): Promise<string>;
  /** Where the Ui writes when `main` makes it (default: the process's stdout and stderr). */
  stdout?: OutputStream;
  stderr?: OutputStream;
}

export function processIo(): Io {
  const stdout = processOutput(1);
  const stderr = processOutput(2);
  let stdinIsTTY: boolean | undefined;
  return {
    cwd: process.cwd(),
    env: process.env,
    // Asked only by the commands that may ask questions, and not through process.stdin: touching
    // it builds its stream (a few milliseconds), which only a command that reads stdin needs.
    get stdinIsTTY() {
      return (stdinIsTTY ??= isTerminal(0));
    },
    get stdoutIsTTY() {
      return stdout.isTTY;
    },
    get stderrIsTTY() {
      return stderr.isTTY;
    },
    readStdin: () => readBounded(process.stdin, MAX_STDIN_BYTES),
    stdout,
    stderr,
  };
}
