import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores here: HTTP tests start real servers, so keep parallelism modest.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
  },
});
