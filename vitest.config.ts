import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The five-minute soak has its own command (npm run test:soak, vitest.soak.config.ts).
    exclude: [...configDefaults.exclude, 'test/soak/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores here: HTTP tests start real servers, so keep parallelism modest.
    maxWorkers: 2,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
