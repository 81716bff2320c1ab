import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Commands run in-process (test/helpers/cli.ts), so files are cheap to start. Three workers on
    // the 2-core CI machines: a few files spend seconds waiting on real processes and timers (the
    // process, concurrency and MCP tests), and a third worker keeps both cores busy meanwhile
    // (measured: 2 workers 74.6 s, 3 workers 61.6 s, 4 workers 65.9 s).
    maxWorkers: 3,
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
