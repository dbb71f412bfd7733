import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/soak/**/*.test.ts'],
    testTimeout: 30 * 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
