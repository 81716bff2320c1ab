import fs from 'node:fs';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  test: {
    // Commands run in-process (test/helpers/cli.ts), so files are cheap to start. Three workers on
    // the 2-core CI machines: a few files spend seconds waiting on real processes and timers (the
    // process, concurrency and MCP tests), and a third worker keeps both cores busy meanwhile
    // (measured: 2 workers 74.6 s, 3 workers 61.6 s, 4 workers 65.9 s).
    maxWorkers: 3,
    ...(tmpdir === undefined ? {} : { env: { TMPDIR: tmpdir } }),
    projects: [
      {
        extends: true,
        // Property tests run many squads through export and import: room on a loaded machine.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        // End-to-end tests drive whole commands (a few start the built CLI as a process): on a
        // shared 2-core machine they need headroom.
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
});
