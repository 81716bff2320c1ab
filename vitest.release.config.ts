import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from './vitest.config.js';

/**
 * Release checks, apart from `npm test` so that the everyday command stays fast: `npm run
 * test:release` runs them (after a build) and `.ci/run` runs that after `npm test`, so CI still runs
 * everything. Only what checks the package as it ships belongs here: npm pack and an install of
 * the tarball (test/release/package.test.ts), the start-up code cache of the built CLI on Node
 * without module.enableCompileCache (test/release/compile-cache.test.ts).
 */
export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['test/release/**/*.test.ts'],
    // npm pack and npm install on a shared 2-core machine: room to spare.
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
