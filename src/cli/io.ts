/**
 * What a run of the CLI takes from its process: the working folder, the environment, stdin and
 * whether the streams are terminals. `main` receives it as a parameter, so tests (and any host
 * that embeds the CLI) run commands in-process without touching the real process.
 */
import { isatty } from 'node:tty';
import { MAX_STDIN_BYTES, readBounded } from '../core/fs/bounded-read.js';

export interface Io {
  /** The folder the command was run from: relative paths the user types resolve here. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** stdin and stdout are terminals (questions may be asked). */
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  /** All of stdin as UTF-8, refused past a size limit. */
  readStdin(): Promise<string>;
}

export function processIo(): Io {
  return {
    cwd: process.cwd(),
    env: process.env,
    // isatty(0), not process.stdin.isTTY: touching process.stdin builds its stream (a few
    // milliseconds), which only a command that reads stdin needs.
    stdinIsTTY: isatty(0),
    stdoutIsTTY: process.stdout.isTTY === true,
    readStdin: () => readBounded(process.stdin, MAX_STDIN_BYTES),
  };
}
