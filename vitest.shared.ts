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
    // A worker runs its test files one after another in one process, importing the package's modules once rather
    // than once per file. A test that changes the process (cwd, environment) restores it; packages whose tests
    // mock modules (vi.mock) keep a process per file in their own config (docs/testing.md).
    isolate: false,
    globalSetup: [
      // Temporary trees on a memory file system where there is one (tools/scripts/test-temporary-directory.ts).
      fileURLToPath(new URL('tools/scripts/test-temporary-directory.ts', import.meta.url)),
      // The search worker's bundle is a build output: made first when missing or stale (docs/decisions/0035-worker-bundle-built.md).
      fileURLToPath(new URL('./packages/fs-backend/scripts/search-worker-setup.ts', import.meta.url)),
    ],
    // The usual output, and each file's duration kept for the summary `pnpm test` ends with.
    reporters: ['default', new DurationsReporter()],
  },
});
