import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bundleSearchWorker, generatedFile, renderWorkerSource } from '../scripts/bundle-search-worker.ts';

describe('the search worker the Node file system evaluates', () => {
  it('is the bundle of the current sources (pnpm --filter @openwork/fs-backend generate)', { timeout: 60_000 }, async () => {
    const current = await readFile(generatedFile, 'utf8');
    // A difference means src/search changed without the bundle: the workers would run the old code.
    expect(current === renderWorkerSource(await bundleSearchWorker()), 'worker-source.generated.ts is stale; run pnpm --filter @openwork/fs-backend generate').toBe(true);
  });
});
