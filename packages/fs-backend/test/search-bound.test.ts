import { PathGuard } from '@openwork/path-guard';
import { describe, expect, it } from 'vitest';
import type { TreeSearchProgress, TreeSearchRequest } from '@openwork/tree-search';
import { MemoryFileSystem } from '../src/memory/index.ts';

const ws = '/home/user/ws';
const HAY_FILES = 2000;
/** Entries an in-process walker visits in one turn (STEP_ENTRIES of the in-process walkers). */
const TURN_ENTRIES = 32;
const HAY_FIRST = 40;

/**
 * `a/` holds many files with no match, then the first matches; `b/` and
 * `c/`, which sort after them, hold many files with none, which other
 * walkers take while the first is still in `a/`.
 */
function world(searchWalkers: number): MemoryFileSystem {
  const filesystem = new MemoryFileSystem({ directories: [ws], searchWalkers });
  for (let file = 0; file < HAY_FIRST; file += 1) filesystem.seedFile(`${ws}/a/h${String(file).padStart(3, '0')}.txt`, 'hay\n');
  for (let file = 0; file < 20; file += 1) filesystem.seedFile(`${ws}/a/n${String(file).padStart(2, '0')}.txt`, 'a needle\n');
  for (const directory of ['b', 'c']) {
    for (let file = 0; file < HAY_FILES; file += 1) filesystem.seedFile(`${ws}/${directory}/f${String(file).padStart(4, '0')}.txt`, 'hay\n');
  }
  return filesystem;
}

const request: TreeSearchRequest = { mode: 'files', pattern: { source: 'needle', caseInsensitive: false }, maxResults: 10, maxLineChars: 200, maxFileBytes: 1 << 20, binarySniffBytes: 512 };

/** The search's result, and the files its walkers looked at, as the last progress report counts them. */
async function search(searchWalkers: number): Promise<{ paths: string[]; truncated: boolean; filesVisited: number }> {
  const filesystem = world(searchWalkers);
  const guard = await PathGuard.create({ workingDirectory: ws, probe: filesystem });
  const root = await guard.resolvePath('.', 'read', 'must_exist');
  let last: TreeSearchProgress = { files: 0, directories: 0, results: 0 };
  const result = await filesystem.searchTree(root, request, { guard, onProgress: (progress) => (last = progress) });
  return { paths: result.hits.map((hit) => hit.path), truncated: result.truncated, filesVisited: last.files };
}

describe('the result bound stops the walkers early', () => {
  const first = Array.from({ length: 10 }, (_, file) => `a/n${String(file).padStart(2, '0')}.txt`);

  it('one walker stops at the file that makes one result past the bound', async () => {
    const { paths, truncated, filesVisited } = await search(1);
    expect(paths).toEqual(first);
    expect(truncated).toBe(true);
    expect(filesVisited).toBe(HAY_FIRST + 11);
  });

  it('walkers busy past the bound stop when the bound reaches them', async () => {
    const { paths, truncated, filesVisited } = await search(3);
    expect(paths).toEqual(first);
    expect(truncated).toBe(true);
    // The walkers given b/ and c/ stop at their next entry once the bound reaches them; without it they go on
    // through b/ and c/ until the coordinator has split away and dropped the rest, several turns later.
    expect(filesVisited).toBeLessThanOrEqual(HAY_FIRST + 11 + 2 * TURN_ENTRIES);
  });
});
