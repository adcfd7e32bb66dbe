import { defineConfig } from 'vitest/config';

/** One configuration for every package: tests beside the code and in test/. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
