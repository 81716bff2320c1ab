import fs from 'node:fs';
import { defineConfig } from 'vitest/config';
import { LongFilesFirst } from './test/helpers/sequencer.js';

/**
 * Tests write many thousands of small files, each flushed to disk by the atomic writer as a user's
 * files must be; in a memory file system the flush costs nothing (init.test.ts: about 17 s → 10 s on
 * a 2-core machine). So temporary folders go to /dev/shm where it exists (Linux); elsewhere, and with
 * CREATE_SQUAD_TEST_TMPDIR=system, to the system's temporary folder.
 */
function testTempDir(): string | undefined {
  if (process.env.CREATE_SQUAD_TEST_TMPDIR === 'system') return undefined;
  const dir = '/dev/shm/create-squad-tests';
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    return dir;
  } catch {
    return undefined;
  }
}

const tmpdir = testTempDir();

/** What every test run shares, the release checks' too (vitest.release.config.ts). */
export const sharedTestOptions = {
  // Commands run in-process (test/helpers/cli.ts), so files are cheap to start. Two workers on the
  // 2-core CI machines: a third once kept both cores busy while the process, concurrency and MCP
  // tests wait on real processes, but with today's CPU-bound real-data files it only adds a third
  // evaluation of the sources and contention (whole suite, no timings cached: 2 workers 97 s and
  // 102 s, 3 workers 106 s, 108 s and 109 s, 4 workers 126 s).
  maxWorkers: 2,
  // A worker evaluates the sources once for all the files it runs, not once per file: most files
  // import the whole CLI through test/helpers/cli.ts, and evaluating it again per file was half of
  // the unit tests' time (unit tests on 2 cores: 62 s isolated, 29 s not). Files share no state
  // this way: the helpers register no hooks, every file removes its temporary folders
  // (cleanupTempDirs, which also forgets the squads initSquad keeps) and restores what it spies on.
  isolate: false,
  // Files that wait on real processes start first (test/helpers/sequencer.ts).
  sequence: { sequencer: LongFilesFirst },
  // A spy a failed test left in place (node:fs mocked, say) is undone before the next test, in
  // this file or the next one the worker runs.
  restoreMocks: true,
  // Whole commands run per test (a few start the built CLI as a process; property tests run many
  // squads through export and import): on a shared 2-core machine they need headroom.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  ...(tmpdir === undefined ? {} : { env: { TMPDIR: tmpdir } }),
};

/**
 * Unit and end-to-end tests in one project, so that each worker transforms and evaluates the
 * sources once for both (as two projects, each had its own workers and module graph: a fifth more
 * CPU time on the same files). `npm run test:unit` picks test/unit by path.
 */
export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['test/unit/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    // A folder the workers share for the run: what is costly to make and only read (the original
    // Squad's real squads after upgrade) is made once for the run, not once per worker.
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
