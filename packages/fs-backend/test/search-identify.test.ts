import { lstat, mkdir, mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CacheBudget } from '@openwork/tree-search/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSearchHost } from '../src/node/node-search-host.ts';

// docs/decisions/0036: a walker asks a file's identity by the directory's absolute path only while that path leads
// to the directory it holds; a directory moved away and another put at its path is asked under its descriptor.
describe("a search walker's identity of a file", () => {
  let root: string;
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'search-identify-')));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function opened(name: string) {
    const directory = join(root, name);
    await mkdir(directory);
    await writeFile(join(directory, 'f.txt'), 'held\n');
    const [top, below] = await Promise.all([lstat(root), lstat(directory)]);
    const host = nodeSearchHost({ handles: true, cache: { budget: new CacheBudget({ maxBytes: 8 << 20 }) } });
    return host.open({ root, rootDev: top.dev, rootIno: top.ino, path: directory, chain: [[directory, below.dev, below.ino]] }, directory);
  }

  const identityOf = async (path: string) => {
    const stat = await lstat(path);
    return { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
  };

  const asked = (identity: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number } | undefined) =>
    identity === undefined ? undefined : { dev: identity.dev, ino: identity.ino, size: identity.size, mtimeMs: identity.mtimeMs, ctimeMs: identity.ctimeMs };

  it('is the file of the directory the walk holds, by path while the path leads there', async () => {
    const directory = await opened('same');
    try {
      expect(asked(directory.identify?.('f.txt'))).toEqual(await identityOf(join(root, 'same', 'f.txt')));
      expect(directory.identify?.('missing.txt')).toBeUndefined();
    } finally {
      directory.close();
    }
  });

  it("is the held directory's file, not the one now at its path, once the directory was moved and replaced", async () => {
    const directory = await opened('moved');
    try {
      await rename(join(root, 'moved'), join(root, 'elsewhere'));
      await mkdir(join(root, 'moved'));
      await writeFile(join(root, 'moved', 'f.txt'), 'a stranger, longer\n');
      expect(asked(directory.identify?.('f.txt'))).toEqual(await identityOf(join(root, 'elsewhere', 'f.txt')));
    } finally {
      directory.close();
    }
  });
});
