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
