import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PathGuard } from '@openwork/path-guard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheBudget, NodeFileSystem } from '../src/node/index.ts';
import { WorkerPool } from '../src/node/worker-pool.ts';

// docs/decisions/0036: the walkers' directory listings take their part of the one search budget, reserved while a
// walker runs and given back when its file system closes, whatever the number of sessions.
describe("the listings' part of the search budget", () => {
  let root: string;
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'listing-budget-')));
    await writeFile(join(root, 'a.txt'), 'needle\n');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function searchOnce(filesystem: NodeFileSystem): Promise<void> {
    const guard = await PathGuard.create({ workingDirectory: root, probe: filesystem });
    const target = await guard.resolvePath('.', 'read', 'must_exist');
    const result = await filesystem.searchTree(target, { mode: 'files', pattern: { source: 'needle', caseInsensitive: false }, maxResults: 100, maxLineChars: 200, maxFileBytes: 1 << 20, binarySniffBytes: 0 }, { guard });
    expect(result.hits.map((hit) => hit.path)).toEqual(['a.txt']);
  }

  it("is reserved by the calling thread's walker of each file system and given back when it closes", async () => {
    // 64 MiB: an eighth, 8 MiB, for listings; the calling thread's walker of a file system takes 2 MiB of it.
    const budget = new CacheBudget({ maxBytes: 64 << 20 });
    const first = new NodeFileSystem({ readWorkers: 1, searchCache: { budget } });
    const second = new NodeFileSystem({ readWorkers: 1, searchCache: { budget } });
    try {
      await searchOnce(first);
      expect(budget.listingBytesReserved).toBe(2 << 20);
      await searchOnce(second);
      await searchOnce(second);
      expect(budget.listingBytesReserved).toBe(4 << 20);
      await first.close();
      expect(budget.listingBytesReserved).toBe(2 << 20);
      // Closed, then searched again: reserved again.
      await first.close();
      await searchOnce(first);
      expect(budget.listingBytesReserved).toBe(4 << 20);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    expect(budget.listingBytesReserved).toBe(0);
  });

  it('is reserved by each worker thread as it starts, up to what is left, and given back when the pool stops', async () => {
    const budget = new CacheBudget({ maxBytes: 80 << 20 });
    const shared = budget.shared as NonNullable<typeof budget.shared>;
    // 10 MiB for listings: the first worker takes 8, the second what is left, a third pool's none.
    const pool = new WorkerPool({ size: 2, mode: 'handles', cache: { budget: shared } });
    const other = new WorkerPool({ size: 1, mode: 'handles', cache: { budget: shared } });
    try {
      await pool.whenReady();
      expect(budget.listingBytesReserved).toBe(10 << 20);
      await other.whenReady();
      expect(budget.listingBytesReserved).toBe(10 << 20);
      await pool.close();
      expect(budget.listingBytesReserved).toBe(0);
    } finally {
      await Promise.all([pool.close(), other.close()]);
    }
  });
});
