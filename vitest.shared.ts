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
    // Temporary trees on a memory file system where there is one (tools/scripts/test-temporary-directory.ts).
    globalSetup: [fileURLToPath(new URL('tools/scripts/test-temporary-directory.ts', import.meta.url))],
    // The usual output, and each file's duration kept for the summary `pnpm test` ends with.
    reporters: ['default', new DurationsReporter()],
  },
});
