/**
 * `spawnSync` that does not block the test's event loop: the tests that start real processes
 * (npm, python's pty driver, a shell pipeline, the built CLI) run their independent processes at
 * the same time, in concurrent tests or with Promise.all, instead of one after the other.
 */
import { type SpawnOptions, spawn } from 'node:child_process';

export interface SpawnAsyncOptions extends Omit<SpawnOptions, 'stdio'> {
  /** Written to the process's stdin, which is then closed (empty when not given, as spawnSync does). */
  input?: string;
  /** Kill the process (SIGKILL unless killSignal says otherwise) after this many milliseconds. */
  timeout?: number;
}

export interface SpawnAsyncResult {
  /** The exit code; null when a signal ended the process. */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run a command to its end, collecting its output as text; rejects when it cannot be started. */
export function spawnAsync(command: string, args: string[], options: SpawnAsyncOptions = {}): Promise<SpawnAsyncResult> {
  const { input, timeout, killSignal, ...spawnOptions } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...spawnOptions, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const timer = timeout === undefined ? undefined : setTimeout(() => child.kill(killSignal ?? 'SIGKILL'), timeout);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
    // A process that exits without reading its stdin closes the pipe: nothing to report.
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}
