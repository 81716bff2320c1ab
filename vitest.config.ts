import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Commands run in-process (test/helpers/cli.ts), so files are cheap to start; use both cores
    // of the small CI machines rather than vitest's default of cores - 1.
    maxWorkers: 2,
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
