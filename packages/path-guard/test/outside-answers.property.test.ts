import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCheckedPath } from '../src/backend.ts';
import { PathGuard } from '../src/index.ts';
import { nodeProbe } from './node-probe.ts';

/**
 * Two trees that differ only outside the root: in `full`, `out/` holds files,
 * directories and symlinks of every kind; in `bare`, `out/` is empty. Inside
 * the root, the same symlinks lead out. Whatever path is asked, the answer
 * must be the same in both (docs/contract.md §2.2): what exists outside the
 * roots never shows.
 */
let base: string;
const trees = { full: '', bare: '' };

async function makeTree(dir: string, populated: boolean): Promise<void> {
  const ws = join(dir, 'ws');
  const out = join(dir, 'out');
  await mkdir(join(ws, 'sub'), { recursive: true });
  await mkdir(out);
  await writeFile(join(ws, 'here.txt'), 'x');
  await symlink('../out', join(ws, 'to-out'));
  await symlink('../out/file.txt', join(ws, 'to-out-file'));
  await symlink(join(out, 'dir'), join(ws, 'sub', 'to-out-dir'));
  if (!populated) return;
  await mkdir(join(out, 'dir', 'deeper'), { recursive: true });
  await writeFile(join(out, 'file.txt'), 'secret');
  await writeFile(join(out, 'dir', 'inner.txt'), 'secret');
  await symlink('file.txt', join(out, 'link-to-file'));
  await symlink('dir', join(out, 'link-to-dir'));
  await symlink('nowhere', join(out, 'dangling'));
  await symlink('loop', join(out, 'loop'));
  await symlink('../ws', join(out, 'back-in'));
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'guard-outside-')));
  trees.full = join(base, 'full');
  trees.bare = join(base, 'bare');
  await makeTree(trees.full, true);
  await makeTree(trees.bare, false);
});
afterAll(() => rm(base, { recursive: true, force: true }));

const starts = ['OUT', '../out', 'to-out', 'to-out-file', 'sub/to-out-dir', 'here.txt', 'sub', '.'];
const parts = ['file.txt', 'dir', 'inner.txt', 'deeper', 'link-to-file', 'link-to-dir', 'dangling', 'loop', 'back-in', 'missing', 'here.txt', 'x', '..', '.'];
const shape = fc.tuple(fc.constantFrom(...starts), fc.array(fc.constantFrom(...parts), { minLength: 0, maxLength: 4 }));
const access = fc.constantFrom('read' as const, 'write' as const);
const intent = fc.constantFrom('must_exist' as const, 'may_create' as const);

async function answer(tree: string, path: string, how: { access: 'read' | 'write'; intent: 'must_exist' | 'may_create' }): Promise<string> {
  const ws = join(tree, 'ws');
  const guard = await PathGuard.create({ workingDirectory: ws, probe: nodeProbe });
  const input = path.replace(/^OUT/, join(tree, 'out'));
  try {
    const checked = await guard.resolvePath(input, how.access, how.intent);
    const real = readCheckedPath(checked).realPath;
    // A path that resolves is inside the root; its answer is where, relative to the root.
    expect(real === ws || real.startsWith(`${ws}/`)).toBe(true);
    return `ok ${real.slice(ws.length)}`;
  } catch (error) {
    return (error as { kind?: string }).kind ?? String(error);
  }
}

describe('property: outside the roots, every answer is outside_root', () => {
  it('the answer for any path shape does not depend on what exists outside', async () => {
    await fc.assert(
      fc.asyncProperty(shape, access, intent, async ([start, rest], accessed, intended) => {
        const path = [start, ...rest].join('/');
        const how = { access: accessed, intent: intended };
        const [full, bare] = [await answer(trees.full, path, how), await answer(trees.bare, path, how)];
        expect(full).toBe(bare);
      }),
      { numRuns: 400 },
    );
  });

  it('a path through a file, a directory, a symlink or a missing component outside is outside_root', async () => {
    const how = { access: 'read', intent: 'must_exist' } as const;
    for (const path of ['OUT/file.txt/x', 'OUT/missing/x', 'OUT/dir/inner.txt/x', 'OUT/link-to-file/x', 'OUT/dangling/x', 'OUT/loop/x', 'to-out-file/x', 'to-out/file.txt/x', 'sub/to-out-dir/inner.txt/x', 'OUT/missing/../file.txt']) {
      expect([path, await answer(trees.full, path, how)]).toEqual([path, 'outside_root']);
      expect([path, await answer(trees.full, path, { access: 'write', intent: 'may_create' })]).toEqual([path, 'outside_root']);
    }
  });
});
