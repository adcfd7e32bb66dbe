import { expect, it } from 'vitest';
import { bytes, expectNoTempFiles, expectToolError, sha256, text, type ContractWorld } from './contract-helpers.ts';

/**
 * A directory swapped after the path guard's check (docs/decisions/0009):
 * every operation works in the directory the guard checked, reached again
 * from the root, or refuses; none follows the swap outside.
 */
export function swapContract(world: () => ContractWorld): void {
  it('a long session whose root was moved away and replaced by a symlink: every operation is stale, nothing outside is read or written', async () => {
    const { fixture, at, resolve, guard } = world();
    const root = fixture.root;
    const outside = `${root}.outside`;
    await fixture.file(at('a.txt'), 'inside');
    await fixture.directory(at('sub'));
    await fixture.file(`${outside}/a.txt`, 'OUTSIDE');
    await fixture.directory(`${outside}/sub`);
    const read = await resolve('a.txt', 'read', 'must_exist');
    const write = await resolve('a.txt', 'write', 'must_exist');
    const fresh = await resolve('new.txt', 'write', 'may_create');
    const top = await resolve('.', 'read', 'must_exist');
    const sub = await resolve('sub', 'read', 'must_exist');
    await fixture.rename(root, `${root}.moved`);
    try {
      await fixture.symlink(root, outside);
      const message = await expectToolError(fixture.fs.readFile(read, { maxBytes: 1024 }), 'stale');
      expect(message).toContain('is not the directory this session started in');
      expect(message).not.toContain('OUTSIDE');
      await expectToolError(fixture.fs.stat(read), 'stale');
      await expectToolError(fixture.fs.readDirectory(top), 'stale');
      await expectToolError(fixture.fs.readDirectory(sub), 'stale');
      await expectToolError(fixture.fs.writeFile(write, bytes('mine')), 'stale');
      await expectToolError(fixture.fs.writeFile(fresh, bytes('mine')), 'stale');
      await expectToolError(fixture.fs.removeFile(write, { expectedSha256: sha256('OUTSIDE') }), 'stale');
      await expectToolError(guard.resolvePath('a.txt', 'read', 'must_exist'), 'stale');
      expect(text(await fixture.readBytes(`${outside}/a.txt`))).toBe('OUTSIDE');
      expect(await fixture.list(outside)).toEqual(['a.txt', 'sub']);
      expect(await fixture.list(`${outside}/sub`)).toEqual([]);
    } finally {
      await fixture.remove(root);
      await fixture.rename(`${root}.moved`, root);
      await fixture.remove(outside);
    }
    expect(text(await fixture.fs.readFile(read, { maxBytes: 1024 }))).toBe('inside');
  });

  it('a root replaced by another real directory: a search there, or below it, is stale and never walks the stranger', async () => {
    const { fixture, at, resolve, guard } = world();
    const root = fixture.root;
    await fixture.file(at('sub/a.txt'), 'needle checked');
    const top = await resolve('.', 'read', 'must_exist');
    const sub = await resolve('sub', 'read', 'must_exist');
    await fixture.rename(root, `${root}.moved`);
    const request = { mode: 'content', pattern: { source: 'needle', caseInsensitive: false }, maxResults: 10, maxLineChars: 100, maxFileBytes: 1024, binarySniffBytes: 0 } as const;
    try {
      await fixture.file(at('sub/a.txt'), 'needle stranger');
      for (const path of [top, sub]) {
        const message = await expectToolError(fixture.fs.searchTree(path, request, { guard }), 'stale');
        expect(message).not.toContain('stranger');
      }
      await expectToolError(fixture.fs.readDirectory(top), 'stale');
    } finally {
      await fixture.remove(root);
      await fixture.rename(`${root}.moved`, root);
    }
    expect((await fixture.fs.searchTree(top, request, { guard })).hits.map((hit) => hit.match?.text)).toEqual(['needle checked']);
  });

  it('a directory on the way replaced by a symlink to outside: read, list, write (temp file included) and remove refuse; nothing outside changes', async () => {
    const { fixture, at, resolve, guard } = world();
    await fixture.file(at('sub/a.txt'), 'inside');
    await fixture.file(at('elsewhere/a.txt'), 'OUTSIDE');
    const read = await resolve('sub/a.txt', 'read', 'must_exist');
    const write = await resolve('sub/a.txt', 'write', 'must_exist');
    const deep = await resolve('sub/new/deeper.txt', 'write', 'may_create');
    const list = await resolve('sub', 'read', 'must_exist');
    const child = guard.child(list, 'a.txt', 'file');
    await fixture.rename(at('sub'), at('sub-moved'));
    // The guard would refuse elsewhere/ through a new resolution; the CheckedPaths were made before the swap.
    await fixture.symlink(at('sub'), at('elsewhere'));
    await expectToolError(fixture.fs.readFile(read, { maxBytes: 1024 }), 'stale');
    await expectToolError(fixture.fs.readDirectory(list), 'stale');
    await expectToolError(fixture.fs.writeFile(write, bytes('mine')), 'stale');
    await expectToolError(fixture.fs.writeFile(deep, bytes('mine'), { createParents: true }), 'stale');
    await expectToolError(fixture.fs.removeFile(write, { expectedSha256: sha256('OUTSIDE') }), 'stale');
    await expectToolError(fixture.fs.readFile(child, { maxBytes: 1024 }), 'stale');
    expect(await fixture.list(at('elsewhere'))).toEqual(['a.txt']);
    expect(text(await fixture.readBytes(at('elsewhere/a.txt')))).toBe('OUTSIDE');
    expect(await fixture.list(at('sub-moved'))).toEqual(['a.txt']);
  });

  it('a directory on the way replaced by another real directory is stale, also for a listed entry the guard never looked at', async () => {
    const { fixture, at, resolve, guard } = world();
    await fixture.file(at('sub/a.txt'), 'checked');
    const list = await resolve('sub', 'read', 'must_exist');
    const child = guard.child(list, 'a.txt', 'file');
    const write = guard.child(await resolve('sub', 'write', 'must_exist'), 'a.txt', 'file');
    await fixture.rename(at('sub'), at('sub-old'));
    await fixture.file(at('sub/a.txt'), 'a stranger');
    await expectToolError(fixture.fs.readFile(child, { maxBytes: 1024 }), 'stale');
    await expectToolError(fixture.fs.readDirectory(list), 'stale');
    await expectToolError(fixture.fs.writeFile(write, bytes('mine')), 'stale');
    expect(text(await fixture.readBytes(at('sub/a.txt')))).toBe('a stranger');
    await expectNoTempFiles(fixture, at('sub'));
  });

  it('a listed directory replaced by another real directory after the check, itself or on the way: list is stale and never shows the stranger', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('sub/inner/checked.txt'), 'checked');
    const sub = await resolve('sub', 'read', 'must_exist');
    const inner = await resolve('sub/inner', 'read', 'must_exist');
    await fixture.rename(at('sub'), at('sub-old'));
    await fixture.file(at('sub/inner/stranger.txt'), 'a stranger');
    // Walked from the root down to the listed directory, each level compared with what the guard saw: sub is another directory now.
    for (const path of [sub, inner]) {
      const message = await expectToolError(fixture.fs.readDirectory(path), 'stale');
      expect(message).not.toContain('stranger');
    }
    expect((await fixture.fs.readDirectory(await resolve('sub/inner', 'read', 'must_exist'))).map((entry) => entry.name)).toEqual(['stranger.txt']);
  });

  it('a search of a directory replaced by another real directory after the check is stale: the stranger is never walked, at the end of the way or on it', async () => {
    const { fixture, at, resolve, guard } = world();
    await fixture.file(at('sub/inner/a.txt'), 'needle checked');
    const sub = await resolve('sub', 'read', 'must_exist');
    const inner = await resolve('sub/inner', 'read', 'must_exist');
    await fixture.rename(at('sub'), at('sub-old'));
    await fixture.file(at('sub/inner/a.txt'), 'needle stranger');
    const request = { mode: 'content', pattern: { source: 'needle', caseInsensitive: false }, maxResults: 10, maxLineChars: 100, maxFileBytes: 1024, binarySniffBytes: 0 } as const;
    // Opened from the root down, each directory is compared with the one the guard checked: sub is another directory now.
    for (const path of [sub, inner]) {
      const message = await expectToolError(fixture.fs.searchTree(path, request, { guard }), 'stale');
      expect(message).not.toContain('stranger');
    }
    // The same directories reached through a fresh check are searched.
    const fresh = await fixture.fs.searchTree(await resolve('sub', 'read', 'must_exist'), request, { guard });
    expect(fresh.hits.map((hit) => hit.match?.text)).toEqual(['needle stranger']);
  });

  it('the root itself: stat and list work; reading or writing it is is_directory', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'x');
    const top = await resolve('.', 'read', 'must_exist');
    expect((await fixture.fs.stat(top)).kind).toBe('directory');
    expect((await fixture.fs.readDirectory(top)).map((entry) => entry.name)).toEqual(['a.txt']);
    await expectToolError(fixture.fs.readFile(top, { maxBytes: 1024 }), 'is_directory');
    await expectToolError(fixture.fs.writeFile(await resolve('.', 'write', 'must_exist'), bytes('x')), 'is_directory');
  });
}
