import { expect, it } from 'vitest';
import type { CheckedPath } from '@openwork/path-guard';
import type { AsyncFileSystem } from '../file-system.ts';
import { expectToolError, text, type ContractWorld } from './contract-helpers.ts';

async function collect(fs: AsyncFileSystem, path: CheckedPath, chunkBytes: number, signal?: AbortSignal): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of fs.readFileChunks(path, { chunkBytes, ...(signal ? { signal } : {}) })) chunks.push(chunk);
  return chunks;
}

/** The streamed read behind a range of a large file: one open, readFile's checks, chunks front to back. */
export function readChunksContract(world: () => ContractWorld): void {
  it('readFileChunks yields the whole file in chunks of chunkBytes, the last one shorter, each its own copy; an empty file yields nothing', async () => {
    const { fixture, at, resolve } = world();
    const content = Array.from({ length: 1000 }, (_, index) => `line ${index}\n`).join('');
    await fixture.file(at('a.txt'), content);
    await fixture.file(at('empty.txt'), '');
    const chunks = await collect(fixture.fs, await resolve('a.txt', 'read', 'must_exist'), 4096);
    expect(chunks.slice(0, -1).every((chunk) => chunk.length === 4096)).toBe(true);
    expect(chunks.at(-1)?.length).toBe(content.length % 4096);
    expect(text(Buffer.concat(chunks))).toBe(content);
    expect(new Set(chunks.map((chunk) => chunk.buffer)).size).toBe(chunks.length);
    expect(await collect(fixture.fs, await resolve('empty.txt', 'read', 'must_exist'), 16)).toEqual([]);
    const exact = await collect(fixture.fs, await resolve('a.txt', 'read', 'must_exist'), content.length);
    expect(exact.map((chunk) => chunk.length)).toEqual([content.length]);
  });

  it('readFileChunks refuses what readFile refuses: a directory, a FIFO, a missing file, a file replaced after the check', { timeout: 10_000 }, async () => {
    const { fixture, at, resolve } = world();
    await fixture.directory(at('sub'));
    await fixture.fifo(at('pipe'));
    await fixture.file(at('gone.txt'), 'x');
    await fixture.file(at('a.txt'), 'checked');
    const sub = await resolve('sub', 'read', 'must_exist');
    const pipe = await resolve('pipe', 'read', 'must_exist');
    const gone = await resolve('gone.txt', 'read', 'must_exist');
    const replaced = await resolve('a.txt', 'read', 'must_exist');
    await fixture.remove(at('gone.txt'));
    await fixture.file(at('b.txt'), 'swapped');
    await fixture.rename(at('b.txt'), at('a.txt'));
    await expectToolError(collect(fixture.fs, sub, 16), 'is_directory');
    await expectToolError(collect(fixture.fs, pipe, 16), 'not_a_file');
    await expectToolError(collect(fixture.fs, gone, 16), 'not_found');
    await expectToolError(collect(fixture.fs, replaced, 16), 'stale');
  });

  it('readFileChunks stops at an aborted signal, and leaving the loop early ends the read', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'x'.repeat(1000));
    const path = await resolve('a.txt', 'read', 'must_exist');
    const controller = new AbortController();
    controller.abort();
    await expectToolError(collect(fixture.fs, path, 16, controller.signal), 'cancelled');
    let seen = 0;
    for await (const chunk of fixture.fs.readFileChunks(path, { chunkBytes: 100 })) {
      seen += chunk.length;
      if (seen >= 200) break;
    }
    expect(seen).toBe(200);
    // The file is free again: it can be replaced and read anew.
    await fixture.file(at('a.txt'), 'y');
    expect((await collect(fixture.fs, await resolve('a.txt', 'read', 'must_exist'), 100)).map((chunk) => text(chunk))).toEqual(['y']);
    await expect(collect(fixture.fs, path, 0)).rejects.toThrow(RangeError);
  });
}
