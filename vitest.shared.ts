import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { DurationsReporter } from './tools/scripts/test-durations.ts';

/** One configuration for every package: tests beside the code and in test/. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The search worker's bundle is a build output: made first when missing or stale (docs/decisions/0035-worker-bundle-built.md).
    globalSetup: [fileURLToPath(new URL('./packages/fs-backend/scripts/search-worker-setup.ts', import.meta.url))],
    // The usual output, and each file's duration kept for the summary `pnpm test` ends with.
    reporters: ['default', new DurationsReporter()],
  },
});
