import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built CLI; on shared 2-core machines they need headroom.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
