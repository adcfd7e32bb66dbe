import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PathGuard } from '@openwork/path-guard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TreeSearchRequest } from '@openwork/tree-search';
import type { AsyncFileSystem } from '../src/index.ts';
import { MemoryFileSystem } from '../src/memory/index.ts';
import { NodeFileSystem } from '../src/node/index.ts';

// A search that leaves out over a hundred thousand entries holds one mark for each; merging them must not pass
// them as call arguments (push(...marks) overflows the stack and, thrown from a batch handler, ends the process).
// V8's stack on the main thread is 984 KB and a spread takes 8 bytes an argument: past about 126,000 marks in one
// array it overflows wherever it is called. One walker holds every mark of the memory tree in one task, so 130,000
// are enough there; on disk the coordinator may hand part of the walk to another task, and the tree is larger.
// With the marks spread again, both searches hang (checked at these sizes; on disk, 144,000 were not enough).

const FOLDERS = 16;
const MEMORY_PER_FOLDER = 8_125;
const DISK_PER_FOLDER = 11_000;

const request: TreeSearchRequest = {
  mode: 'files',
  pattern: { source: 'needle', caseInsensitive: false },
  maxResults: 100,
  maxLineChars: 200,
  maxFileBytes: 1 << 20,
  binarySniffBytes: 8192,
  ignore: { ignoreCase: false, rules: [{ source: '.gitignore', text: '*.log\n', prefix: '' }] },
};

async function searchTwice(fs: AsyncFileSystem, workingDirectory: string) {
  const guard = await PathGuard.create({ workingDirectory, probe: fs });
  const searched = await guard.resolvePath('.', 'read', 'must_exist');
  const first = await fs.searchTree(searched, request, { guard });
  // The file system still answers the next search.
  const second = await fs.searchTree(searched, { mode: 'paths', maxResults: 3, maxLineChars: 200, maxFileBytes: 1 << 20, binarySniffBytes: 0 }, { guard });
  return { first, second };
}

describe('a search that leaves out over a hundred thousand entries', () => {
  it('on the memory file system (one walker: one task holds every mark) ends with its result', { timeout: 120_000 }, async () => {
    const memory = new MemoryFileSystem({ directories: ['/home/user/ws'] });
    for (let folder = 0; folder < FOLDERS; folder += 1) {
      for (let file = 0; file < MEMORY_PER_FOLDER; file += 1) memory.seedFile(`/home/user/ws/d${folder}/f${file}.log`, '');
    }
    memory.seedFile('/home/user/ws/z/found.txt', 'a needle\n');
    const { first, second } = await searchTwice(memory, '/home/user/ws');
    expect(first.hits.map((hit) => hit.path)).toEqual(['z/found.txt']);
    expect(first.ignored.files).toBe(FOLDERS * MEMORY_PER_FOLDER);
    expect(second.hits).toHaveLength(3);
  });

  describe('on disk, with one worker thread', () => {
    let base: string;
    beforeAll(async () => {
      base = await realpath(await mkdtemp(join(tmpdir(), 'many-skipped-')));
      for (let folder = 0; folder < FOLDERS; folder += 1) {
        const directory = join(base, `d${folder}`);
        await mkdir(directory);
        for (let start = 0; start < DISK_PER_FOLDER; start += 500) {
          await Promise.all(Array.from({ length: Math.min(500, DISK_PER_FOLDER - start) }, (_, index) => writeFile(join(directory, `f${start + index}.log`), '')));
        }
      }
      await mkdir(join(base, 'z'));
      await writeFile(join(base, 'z', 'found.txt'), 'a needle\n');
    }, 180_000);
    afterAll(() => rm(base, { recursive: true, force: true }));

    it('ends with its result, and the workers answer the next search', { timeout: 120_000 }, async () => {
      const fs = new NodeFileSystem({ readWorkers: 1 });
      try {
        const { first, second } = await searchTwice(fs, base);
        expect(first.hits.map((hit) => hit.path)).toEqual(['z/found.txt']);
        expect(first.ignored.files).toBe(FOLDERS * DISK_PER_FOLDER);
        expect(second.hits).toHaveLength(3);
      } finally {
        await fs.close();
      }
    });
  });
});
