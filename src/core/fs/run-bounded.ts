/**
 * Run a program without a shell, within a time limit and an output limit.
 *
 * The program gets an argument array (no shell ever parses it), no stdin unless some is given
 * (then exactly that text, and the end of input), and its own process
 * group, so a timeout or a cancellation kills it with everything it started. Output beyond the
 * limit is counted and dropped, never kept: a program printing gigabytes costs no memory.
 */
import { spawn } from 'node:child_process';
import { BoundedOutput } from '../base/bounded-text.js';
import { SquadError } from '../base/errors.js';

export interface BoundedRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Per stream: stdout and stderr each keep at most this many bytes. */
  maxOutputBytes: number;
  /** Aborting kills the program (a cancelled request, a server shutting down). */
  signal?: AbortSignal;
  /** Written to the program's stdin, which is then closed; without it stdin is empty. */
  stdin?: string;
}

export interface BoundedRun {
  /** The exit code; null when the program was killed. */
  exitCode: number | null;
  signal: string | null;
  /** Killed at the time limit. */
  timedOut: boolean;
  /** Killed because the run was cancelled. */
  cancelled: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

/** Processes get their own group where the platform has them, so a kill reaches their children too. */
const OWN_GROUP = process.platform !== 'win32';
/** After the program exits, processes it left in its group get this long before they are killed. */
const LEFTOVER_GRACE_MS = 200;

export function runBounded(command: string, args: readonly string[], options: BoundedRunOptions): Promise<BoundedRun> {
  const started = performance.now();
  const stdout = new BoundedOutput(options.maxOutputBytes);
  const stderr = new BoundedOutput(options.maxOutputBytes);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: OWN_GROUP,
      windowsHide: true,
    });
    let timedOut = false;
    let cancelled = false;
    let exited = false;
    const kill = (): void => {
      try {
        if (OWN_GROUP && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      if (!exited) timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = (): void => {
      if (!exited) cancelled = true;
      kill();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    if (child.stdin) {
      // A program that exits without reading all of it closes the pipe: not an error of ours.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin);
    }
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('exit', () => {
      exited = true;
      // Whatever it left running in its group (holding the output pipes open) goes too.
      setTimeout(kill, LEFTOVER_GRACE_MS).unref();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish();
      reject(
        new SquadError('not-found', `cannot run ${command}: ${error.code ?? error.message}`, {
          hint: error.code === 'ENOENT' ? `install ${command} or put it on the PATH of the process that starts create-squad` : 'check that the file can be run',
          cause: error,
        }),
      );
    });
    child.on('close', (exitCode, signal) => {
      finish();
      resolve({
        exitCode,
        signal,
        timedOut,
        cancelled,
        durationMs: Math.round(performance.now() - started),
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutBytes: stdout.total,
        stderrBytes: stderr.total,
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
      });
    });
    if (options.signal?.aborted) onAbort();
  });
}
