import { expect, it } from 'vitest';
import { bytes, expectNoTempFiles, expectToolError, sha256, text, type ContractWorld } from './contract-helpers.ts';

/** Atomic write and guarded remove (docs/design.md §8, §9 write/edit, §10 undo). */
export function writeContract(world: () => ContractWorld): void {
  it('creates a new file: created true, the byte count, the content, and nothing else in the directory', async () => {
    const { fixture, at, resolve } = world();
    const result = await fixture.fs.writeFile(await resolve('new.txt', 'write', 'may_create'), bytes('héllo\n'));
    expect(result).toEqual({ created: true, bytes: 7 });
    expect(text(await fixture.readBytes(at('new.txt')))).toBe('héllo\n');
    expect(await fixture.list(fixture.root)).toEqual(['new.txt']);
  });

  it('overwrites an existing file: created false, the new content only', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'a much longer original content\n');
    const result = await fixture.fs.writeFile(await resolve('a.txt', 'write', 'must_exist'), bytes('short\n'));
    expect(result).toEqual({ created: false, bytes: 6 });
    expect(text(await fixture.readBytes(at('a.txt')))).toBe('short\n');
    expect(await fixture.list(fixture.root)).toEqual(['a.txt']);
  });

  it("keeps an existing file's mode (0755) when it overwrites it", async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    await fixture.fs.writeFile(await resolve('run.sh', 'write', 'must_exist'), bytes('#!/bin/sh\necho hi\n'), { mode: 0o600 });
    expect(await fixture.mode(at('run.sh'))).toBe(0o755);
  });

  it('gives a new file the requested mode', async () => {
    const { fixture, at, resolve } = world();
    await fixture.fs.writeFile(await resolve('secret.txt', 'write', 'may_create'), bytes('s'), { mode: 0o600 });
    expect(await fixture.mode(at('secret.txt'))).toBe(0o600);
  });

  it('creates missing parents with createParents, and without it refuses with not_found and makes nothing', async () => {
    const { fixture, at, resolve } = world();
    const path = await resolve('a/b/c/file.txt', 'write', 'may_create');
    await expectToolError(fixture.fs.writeFile(path, bytes('x')), 'not_found');
    expect(await fixture.list(fixture.root)).toEqual([]);
    const result = await fixture.fs.writeFile(path, bytes('deep'), { createParents: true });
    expect(result).toEqual({ created: true, bytes: 4 });
    expect(text(await fixture.readBytes(at('a/b/c/file.txt')))).toBe('deep');
    expect(await fixture.list(at('a/b'))).toEqual(['c']);
  });

  it('expectedSha256 that no longer matches is stale: the file is untouched and no temp file is left', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'original');
    const path = await resolve('a.txt', 'write', 'must_exist');
    await fixture.file(at('a.txt'), 'changed by someone else');
    await expectToolError(fixture.fs.writeFile(path, bytes('mine'), { expectedSha256: sha256('original') }), 'stale');
    expect(text(await fixture.readBytes(at('a.txt')))).toBe('changed by someone else');
    await expectNoTempFiles(fixture, fixture.root);
  });

  it('expectedSha256 null on a file that exists is stale, and the file is untouched', async () => {
    const { fixture, at, resolve } = world();
    const path = await resolve('a.txt', 'write', 'may_create');
    await fixture.file(at('a.txt'), 'appeared meanwhile');
    await expectToolError(fixture.fs.writeFile(path, bytes('mine'), { expectedSha256: null }), 'stale');
    expect(text(await fixture.readBytes(at('a.txt')))).toBe('appeared meanwhile');
    await expectNoTempFiles(fixture, fixture.root);
  });

  it('expectedSha256 that matches commits; null on an absent file creates it', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'original');
    await fixture.fs.writeFile(await resolve('a.txt', 'write', 'must_exist'), bytes('edited'), { expectedSha256: sha256('original') });
    expect(text(await fixture.readBytes(at('a.txt')))).toBe('edited');
    const created = await fixture.fs.writeFile(await resolve('b.txt', 'write', 'may_create'), bytes('new'), { expectedSha256: null });
    expect(created.created).toBe(true);
  });

  it('a digest in upper-case hex is the same digest, for writeFile and for removeFile', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'original');
    const path = await resolve('a.txt', 'write', 'must_exist');
    await fixture.fs.writeFile(path, bytes('edited'), { expectedSha256: sha256('original').toUpperCase() });
    expect(text(await fixture.readBytes(at('a.txt')))).toBe('edited');
    await fixture.fs.removeFile(path, { expectedSha256: sha256('edited').toUpperCase() });
    expect(await fixture.readBytes(at('a.txt'))).toBeNull();
  });

  it('a directory that appears at the target after the check fails the write with is_directory and leaves no temp file', async () => {
    const { fixture, at, resolve } = world();
    const path = await resolve('target', 'write', 'may_create');
    await fixture.file(at('target/inside.txt'), 'x');
    await expectToolError(fixture.fs.writeFile(path, bytes('data')), 'is_directory');
    expect(await fixture.list(fixture.root)).toEqual(['target']);
    expect(await fixture.list(at('target'))).toEqual(['inside.txt']);
  });

  it('an aborted signal writes nothing', async () => {
    const { fixture, resolve } = world();
    const controller = new AbortController();
    controller.abort();
    const path = await resolve('a.txt', 'write', 'may_create');
    await expectToolError(fixture.fs.writeFile(path, bytes('x'), { signal: controller.signal }), 'cancelled');
    expect(await fixture.list(fixture.root)).toEqual([]);
  });

  it('a path checked for read is never written', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'original');
    const path = await resolve('a.txt', 'read', 'must_exist');
    await expect(fixture.fs.writeFile(path, bytes('x'))).rejects.toThrow(TypeError);
    expect(text(await fixture.readBytes(at('a.txt')))).toBe('original');
  });

  it('removeFile with a digest that no longer matches is conflict and keeps the file; a matching one removes it', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'created by the tool');
    const path = await resolve('a.txt', 'write', 'must_exist');
    await fixture.file(at('a.txt'), 'edited by the user');
    await expectToolError(fixture.fs.removeFile(path, { expectedSha256: sha256('created by the tool') }), 'conflict');
    expect(text(await fixture.readBytes(at('a.txt')))).toBe('edited by the user');
    await fixture.fs.removeFile(path, { expectedSha256: sha256('edited by the user') });
    expect(await fixture.readBytes(at('a.txt'))).toBeNull();
    await expectToolError(fixture.fs.removeFile(path, { expectedSha256: sha256('edited by the user') }), 'conflict');
  });
}
