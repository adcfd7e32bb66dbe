import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleSearchWorker, ensureSearchWorker, generatedFile, isCurrent, recordedInputs, renderWorkerSource, type WorkerBundle } from '../scripts/bundle-search-worker.ts';

// The bundle is a build output (docs/decisions/0035-worker-bundle-built.md):
// the global setup made it from the sources on disk; these tests pin that
// what the workers run cannot drift from those sources unnoticed.
let fresh: WorkerBundle;
let folder: string;

beforeAll(async () => {
  fresh = await bundleSearchWorker();
  folder = await mkdtemp(join(tmpdir(), 'worker-source-'));
}, 60_000);

afterAll(() => rm(folder, { recursive: true, force: true }));

describe('the search worker the Node file system evaluates', () => {
  it('is the bundle of the current sources, with their digest (pnpm --filter @openwork/fs-backend generate)', async () => {
    const current = await readFile(generatedFile, 'utf8');
    // A difference means the sources changed without the bundle: the workers would run the old code.
    expect(current === (await renderWorkerSource(fresh)), 'worker-source.generated.js is stale; run pnpm --filter @openwork/fs-backend generate').toBe(true);
    expect(await isCurrent(current)).toBe(true);
  });

  it('records every file it is made from: the entry, the engine, its libraries and this generator', () => {
    const inputs = fresh.inputs;
    expect(inputs).toContain('packages/fs-backend/src/node/search-worker-entry.ts');
    expect(inputs).toContain('packages/fs-backend/src/node/node-search-host.ts');
    expect(inputs).toContain('packages/fs-backend/scripts/bundle-search-worker.ts');
    expect(inputs.some((input) => input.startsWith('packages/tree-search/src/'))).toBe(true);
    expect(inputs.some((input) => /node_modules\/.*re2js\//.test(input))).toBe(true);
    expect(inputs.some((input) => /node_modules\/.*\/ignore\//.test(input))).toBe(true);
  });

  it('is stale when an input changed, an input is gone, or the header is missing, and a stale file is rewritten', async () => {
    const current = await readFile(generatedFile, 'utf8');
    const record = recordedInputs(current);
    expect(record?.inputs).toEqual(fresh.inputs);
    const otherDigest = current.replace(/^(\/\/ inputs-sha256: )[0-9a-f]{64}$/m, `$1${'0'.repeat(64)}`);
    expect(otherDigest).not.toBe(current);
    expect(await isCurrent(otherDigest)).toBe(false);
    const goneInput = current.replace(/^\/\/ inputs: \[/m, '// inputs: ["packages/fs-backend/src/node/no-such-file.ts",');
    expect(await isCurrent(goneInput)).toBe(false);
    expect(await isCurrent(current.replace(/^\/\/ inputs.*$/gm, ''))).toBe(false);
    expect(await isCurrent(undefined)).toBe(false);

    const copy = join(folder, 'worker-source.generated.js');
    expect(await ensureSearchWorker(copy)).toBe(true);
    expect(await readFile(copy, 'utf8')).toBe(current);
    expect(await ensureSearchWorker(copy)).toBe(false);
    await writeFile(copy, otherDigest);
    expect(await ensureSearchWorker(copy)).toBe(true);
    expect(await readFile(copy, 'utf8')).toBe(current);
  }, 60_000);
});
