import { expect, it } from 'vitest';
import { bytes, expectToolError, text, type ContractWorld } from './contract-helpers.ts';

/** Reads, stat and listing (docs/design.md §9 read, list). */
export function readContract(world: () => ContractWorld): void {
  it('reads the bytes of a regular file', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'hello\nworld\n');
    const content = await fixture.fs.readFile(await resolve('a.txt', 'read', 'must_exist'), { maxBytes: 1024 });
    expect(text(content)).toBe('hello\nworld\n');
  });

  it('reads a file of exactly maxBytes; one byte over is too_large, with the size in the message', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('ten.txt'), '0123456789');
    const path = await resolve('ten.txt', 'read', 'must_exist');
    expect(text(await fixture.fs.readFile(path, { maxBytes: 10 }))).toBe('0123456789');
    const message = await expectToolError(fixture.fs.readFile(path, { maxBytes: 9 }), 'too_large');
    expect(message).toContain('10 bytes');
  });

  it('reading a directory is is_directory', async () => {
    const { fixture, at, resolve } = world();
    await fixture.directory(at('sub'));
    await expectToolError(fixture.fs.readFile(await resolve('sub', 'read', 'must_exist'), { maxBytes: 1024 }), 'is_directory');
  });

  it('a file removed after the check is not_found', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('gone.txt'), 'x');
    const path = await resolve('gone.txt', 'read', 'must_exist');
    await fixture.remove(at('gone.txt'));
    await expectToolError(fixture.fs.readFile(path, { maxBytes: 1024 }), 'not_found');
    await expectToolError(fixture.fs.stat(path), 'not_found');
  });

  it('a FIFO is not_a_file at once: the read never waits for a writer', { timeout: 10_000 }, async () => {
    const { fixture, at, resolve } = world();
    await fixture.fifo(at('pipe'));
    await expectToolError(fixture.fs.readFile(await resolve('pipe', 'read', 'must_exist'), { maxBytes: 1024 }), 'not_a_file');
  });

  it('a file replaced by another after the check is stale, not read', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'checked');
    const path = await resolve('a.txt', 'read', 'must_exist');
    // Made beside it first, so the two never share an inode number.
    await fixture.file(at('b.txt'), 'swapped');
    await fixture.rename(at('b.txt'), at('a.txt'));
    await expectToolError(fixture.fs.readFile(path, { maxBytes: 1024 }), 'stale');
  });

  it('an aborted signal stops a read with cancelled', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'x');
    const path = await resolve('a.txt', 'read', 'must_exist');
    const controller = new AbortController();
    controller.abort();
    await expectToolError(fixture.fs.readFile(path, { maxBytes: 1024, signal: controller.signal }), 'cancelled');
  });

  it('stat gives the lstat kind, size and permission bits', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('run.sh'), 'echo hi\n', { mode: 0o750 });
    await fixture.directory(at('sub'));
    const file = await fixture.fs.stat(await resolve('run.sh', 'read', 'must_exist'));
    expect({ kind: file.kind, size: file.size, mode: file.mode }).toEqual({ kind: 'file', size: 8, mode: 0o750 });
    expect((await fixture.fs.stat(await resolve('sub', 'read', 'must_exist'))).kind).toBe('directory');
  });

  it('readDirectory gives one level with lstat kinds: a symlink is a symlink, a FIFO is other, files have sizes', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('d/file.txt'), 'abc');
    await fixture.directory(at('d/sub'));
    await fixture.file(at('d/sub/deep.txt'), 'not listed');
    await fixture.symlink(at('d/link-to-sub'), 'sub');
    await fixture.symlink(at('d/dangling'), 'nowhere');
    await fixture.fifo(at('d/pipe'));
    const entries = await fixture.fs.readDirectory(await resolve('d', 'read', 'must_exist'));
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(sorted).toEqual([
      { name: 'dangling', kind: 'symlink' },
      { name: 'file.txt', kind: 'file', size: 3 },
      { name: 'link-to-sub', kind: 'symlink' },
      { name: 'pipe', kind: 'other' },
      { name: 'sub', kind: 'directory' },
    ]);
  });

  it('readDirectory of a file is not_a_directory', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'x');
    await expectToolError(fixture.fs.readDirectory(await resolve('a.txt', 'read', 'must_exist')), 'not_a_directory');
  });

  it('the probe reports lstat kinds and raw link targets, and null for what does not exist', async () => {
    const { fixture, at } = world();
    await fixture.file(at('a.txt'), 'x');
    await fixture.symlink(at('l'), '../elsewhere/a.txt');
    expect((await fixture.fs.lstat(at('a.txt')))?.kind).toBe('file');
    expect((await fixture.fs.lstat(at('l')))?.kind).toBe('symlink');
    expect(await fixture.fs.readlink(at('l'))).toBe('../elsewhere/a.txt');
    expect(await fixture.fs.lstat(at('missing'))).toBeNull();
    expect(await fixture.fs.lstat(at('a.txt/below'))).toBeNull();
    const first = await fixture.fs.lstat(at('a.txt'));
    await fixture.file(at('b.txt'), bytes('y'));
    expect((await fixture.fs.lstat(at('b.txt')))?.ino).not.toBe(first?.ino);
  });
}
