import { PathGuard } from '@openwork/path-guard';
import { describe, expect, it } from 'vitest';
import type { TreeSearchRequest } from '@openwork/tree-search';
import { MemoryFileSystem } from '../src/memory/index.ts';

const ws = '/home/user/ws';

/** Three directories of files with many matching lines each, and symlinks to files among them, walked by three walkers. */
function world(): MemoryFileSystem {
  const filesystem = new MemoryFileSystem({ directories: [ws], searchWalkers: 3 });
  for (const directory of ['a', 'b/deep', 'c']) {
    for (let file = 0; file < 30; file += 1) filesystem.seedFile(`${ws}/${directory}/f${String(file).padStart(2, '0')}.txt`, 'needle\nhay\n'.repeat(40));
  }
  filesystem.seedFile(`${ws}/target.txt`, 'needle\n'.repeat(500));
  filesystem.seedSymlink(`${ws}/a/f10-link.txt`, `${ws}/target.txt`);
  filesystem.seedSymlink(`${ws}/c/link.txt`, `${ws}/target.txt`);
  return filesystem;
}

const request: TreeSearchRequest = { mode: 'content', pattern: { source: 'needle', caseInsensitive: false }, context: 2, maxResults: 7, maxLineChars: 200, maxFileBytes: 1 << 20, binarySniffBytes: 512 };

async function search(filesystem: MemoryFileSystem, extra: Partial<TreeSearchRequest>) {
  const guard = await PathGuard.create({ workingDirectory: ws, probe: filesystem });
  const root = await guard.resolvePath('.', 'read', 'must_exist');
  let held = 0;
  const result = await filesystem.searchTree(root, { ...request, ...extra }, { guard, onProgress: (progress) => (held = Math.max(held, progress.results)) });
  return { keys: result.hits.map((hit) => `${hit.path}:${hit.match?.line}`), result, held };
}

describe('skip: the results before a page are counted and dropped, never held (docs/contract.md §6)', () => {
  it('every page is the slice of the whole sorted set, and the search never holds more than the page and one', async () => {
    const filesystem = world();
    const whole = await search(filesystem, { maxResults: 10_000 });
    // The target itself is searched too, besides its two symlinks.
    const total = 3 * 30 * 40 + 3 * 500;
    expect(whole.keys).toHaveLength(total);
    for (const skip of [0, 6, 399, 400, 441, 1200, 1699, 1700, 2599, total - 4]) {
      const page = await search(filesystem, { skip });
      expect(page.keys, String(skip)).toEqual(whole.keys.slice(skip, skip + 7));
      expect(page.result.skippedResults).toBe(skip);
      expect(page.result.truncated).toBe(skip + 7 < total);
      expect(page.held).toBeLessThanOrEqual(8);
    }
    for (const skip of [total, 1e9, Number.MAX_SAFE_INTEGER]) {
      const past = await search(filesystem, { skip });
      expect(past.keys).toEqual([]);
      expect(past.result).toMatchObject({ skippedResults: total, truncated: false });
      expect(past.held).toBe(0);
    }
  });
});
