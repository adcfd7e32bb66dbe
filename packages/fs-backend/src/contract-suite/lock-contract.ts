import { expect, it } from 'vitest';
import { bytes, expectNoTempFiles, expectToolError, text, type ContractWorld } from './contract-helpers.ts';

const writers = 20;

/** docs/design.md §9 edit: one write lock per canonical path. */
export function lockContract(world: () => ContractWorld): void {
  it('withLock serializes 20 concurrent writers: the file ends with one writer’s full bytes and no temp file', async () => {
    const { fixture, at, resolve } = world();
    const path = await resolve('shared.bin', 'write', 'may_create');
    const size = 64 * 1024;
    let active = 0;
    let mostActive = 0;
    await Promise.all(
      Array.from({ length: writers }, (_, writer) =>
        fixture.fs.withLock(path, async () => {
          active += 1;
          mostActive = Math.max(mostActive, active);
          await fixture.fs.writeFile(path, new Uint8Array(size).fill(65 + writer));
          active -= 1;
        }),
      ),
    );
    expect(mostActive).toBe(1);
    const final = (await fixture.readBytes(at('shared.bin'))) ?? new Uint8Array(0);
    expect(final.byteLength).toBe(size);
    expect(new Set(final).size).toBe(1);
    await expectNoTempFiles(fixture, fixture.root);
  });

  it('withLock makes read-modify-write safe, for every name of the same canonical file', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('log.txt'), '');
    await fixture.symlink(at('alias.txt'), 'log.txt');
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        const name = writer % 2 === 0 ? 'log.txt' : 'alias.txt';
        const lockPath = await resolve(name, 'write', 'must_exist');
        await fixture.fs.withLock(lockPath, async () => {
          // Resolved again under the lock: the last writer replaced the file.
          const path = await resolve(name, 'write', 'must_exist');
          const before = text(await fixture.fs.readFile(path, { maxBytes: 1 << 20 })) ?? '';
          await fixture.fs.writeFile(path, bytes(`${before}writer ${writer}\n`));
        });
      }),
    );
    const lines = (text(await fixture.readBytes(at('log.txt'))) ?? '').split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(writers);
    expect(new Set(lines).size).toBe(writers);
    expect((await fixture.fs.lstat(at('alias.txt')))?.kind).toBe('symlink');
  });

  it('a waiter whose signal aborts gives up with cancelled; the lock still serves the others, and a throwing action releases it', async () => {
    const { fixture, resolve } = world();
    const path = await resolve('a.txt', 'write', 'may_create');
    let releaseHolder: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      releaseHolder = resolve;
    });
    let entered!: () => void;
    const holderEntered = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const holder = fixture.fs.withLock(path, async () => {
      entered();
      await holding;
      return 'holder';
    });
    await holderEntered;
    const controller = new AbortController();
    const waiter = fixture.fs.withLock(path, () => Promise.resolve('waiter ran'), { signal: controller.signal });
    const order: string[] = [];
    const next = fixture.fs.withLock(path, () => {
      order.push('next');
      return Promise.resolve('next');
    });
    controller.abort();
    await expectToolError(waiter, 'cancelled');
    releaseHolder();
    expect(await holder).toBe('holder');
    expect(await next).toBe('next');
    expect(order).toEqual(['next']);
    await expect(fixture.fs.withLock(path, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await fixture.fs.withLock(path, () => Promise.resolve('after'))).toBe('after');
  });
}
