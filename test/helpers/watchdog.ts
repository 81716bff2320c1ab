/**
 * A guard for tests of code that once spun forever: a loop that never yields blocks this thread,
 * so no test timeout can fire. A watchdog thread kills this test process instead when `work` has
 * not finished within `ms`: the test file fails (its worker died) rather than hanging the suite.
 */
import { Worker } from 'node:worker_threads';

const WATCHDOG = `
const { workerData } = require('node:worker_threads');
setTimeout(() => {
  process.stderr.write('watchdog: ' + workerData.what + ' did not finish within ' + workerData.ms + ' ms; killing the test process\\n');
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.ms);
`;

export async function withWatchdog<T>(work: () => Promise<T> | T, ms = 30_000, what = 'the command'): Promise<T> {
  const watchdog = new Worker(WATCHDOG, { eval: true, workerData: { pid: process.pid, ms, what } });
  try {
    return await work();
  } finally {
    await watchdog.terminate();
  }
}

const SHARED_WATCHDOG = `
const { workerData, parentPort } = require('node:worker_threads');
const timers = new Map();
parentPort.on('message', ({ id, ms, what }) => {
  if (ms === undefined) {
    clearTimeout(timers.get(id));
    timers.delete(id);
    return;
  }
  timers.set(id, setTimeout(() => {
    process.stderr.write('watchdog: ' + what + ' did not finish within ' + ms + ' ms; killing the test process\\n');
    process.kill(workerData.pid, 'SIGKILL');
  }, ms));
});
`;

export interface Watchdog {
  /** As withWatchdog: kill this test process when `work` has not finished within `ms`. */
  guard<T>(work: () => Promise<T> | T, ms?: number, what?: string): Promise<T>;
  /** End the watchdog thread (in afterAll). */
  stop(): Promise<void>;
}

/**
 * One watchdog thread for all the guarded calls of a test file: each `guard` does what
 * withWatchdog does, without starting a thread of its own (tens of milliseconds each on a busy
 * machine). The thread is started at once, so it is running before any guarded work can block
 * this one; each guard arms a timer there before `work` starts and clears it when `work` ends.
 */
export function sharedWatchdog(): Watchdog {
  const thread = new Worker(SHARED_WATCHDOG, { eval: true, workerData: { pid: process.pid } });
  thread.unref();
  let next = 0;
  return {
    async guard<T>(work: () => Promise<T> | T, ms = 30_000, what = 'the command'): Promise<T> {
      const id = (next += 1);
      thread.postMessage({ id, ms, what });
      try {
        return await work();
      } finally {
        thread.postMessage({ id });
      }
    },
    async stop() {
      await thread.terminate();
    },
  };
}
