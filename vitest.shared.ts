import { defineConfig } from 'vitest/config';
import { DurationsReporter } from './tools/scripts/test-durations.ts';

/** One configuration for every package: tests beside the code and in test/. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The usual output, and each file's duration kept for the summary `pnpm test` ends with.
    reporters: ['default', new DurationsReporter()],
  },
});
