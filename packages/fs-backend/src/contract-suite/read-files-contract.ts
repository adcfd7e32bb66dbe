import { expect, it } from 'vitest';
import { CallAborted } from '@openwork/tool-contract';
import type { ReadDirectoriesEntry, ReadFilesEntry } from '../file-system.ts';
import { expectToolError, text, type ContractWorld } from './contract-helpers.ts';

const summary = (entry: ReadFilesEntry | undefined) => {
  if (entry === undefined) return 'missing';
  if (!entry.ok) return entry.error.kind;
  return 'bytes' in entry ? String(text(entry.bytes)) : `excluded:${entry.excluded}`;
};

/** The batch read behind search: readFile's checks and bounds, per file, in order. */
export function readFilesContract(world: () => ContractWorld): void {
  it('readFiles reads many files in input order, with readFile\'s error for each one it cannot read', { timeout: 10_000 }, async () => {
    const { fixture, at, resolve } = world();
    for (let index = 0; index < 40; index += 1) await fixture.file(at(`f${index}.txt`), `file ${index}`);
    await fixture.file(at('big.txt'), '0123456789abcdef');
    await fixture.file(at('gone.txt'), 'x');
    await fixture.file(at('swapped.txt'), 'checked');
    await fixture.directory(at('sub'));
    await fixture.fifo(at('pipe'));
    const names = [...Array.from({ length: 40 }, (_, index) => `f${39 - index}.txt`), 'big.txt', 'gone.txt', 'swapped.txt', 'sub', 'pipe'];
    const paths = [];
    for (const name of names) paths.push(await resolve(name, 'read', 'must_exist'));
    await fixture.remove(at('gone.txt'));
    await fixture.file(at('other.txt'), 'swapped');
    await fixture.rename(at('other.txt'), at('swapped.txt'));
    const entries = await fixture.fs.readFiles(paths, { maxBytes: 10 });
    expect(entries.map(summary)).toEqual([...Array.from({ length: 40 }, (_, index) => `file ${39 - index}`), 'too_large', 'not_found', 'stale', 'is_directory', 'not_a_file']);
    const tooLarge = entries[40];
    expect(tooLarge?.ok === false && tooLarge.error.message).toContain('16 bytes');
  });

  it('readFiles leaves out, by content, binary files and files without the given bytes or ASCII text', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('a.txt'), 'has the Needle\n');
    await fixture.file(at('b.txt'), 'has nothing\n');
    await fixture.file(at('bin.dat'), new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1]));
    await fixture.file(at('late-nul.txt'), `Needle${'x'.repeat(20)}\u0000`);
    const paths = [];
    for (const name of ['a.txt', 'b.txt', 'bin.dat', 'late-nul.txt']) paths.push(await resolve(name, 'read', 'must_exist'));
    const exact = await fixture.fs.readFiles(paths, { maxBytes: 1024, binarySniffBytes: 16, containing: new TextEncoder().encode('Needle') });
    expect(exact.map(summary)).toEqual(['has the Needle\n', 'excluded:absent', 'excluded:binary', `Needle${'x'.repeat(20)}\u0000`]);
    const folded = await fixture.fs.readFiles(paths, { maxBytes: 1024, containingIgnoringCase: 'nEEDLE' });
    expect(folded.map((entry) => summary(entry).slice(0, 16))).toEqual(['has the Needle\n', 'excluded:absent', 'needle\u0000\u0001', `Needle${'x'.repeat(10)}`]);
    await expect(fixture.fs.readFiles(paths, { maxBytes: 1024, containingIgnoringCase: 'é' })).rejects.toThrow(RangeError);
    // Text found in any letter case across the 256 KiB windows the search reads it in.
    const straddle = 256 * 1024 - 3;
    await fixture.file(at('long.txt'), `${'x'.repeat(straddle)}NeEdLe${'y'.repeat(300 * 1024)}`);
    await fixture.file(at('long-absent.txt'), `${'x'.repeat(straddle)}NeEdL${'y'.repeat(300 * 1024)}`);
    const long = await fixture.fs.readFiles([await resolve('long.txt', 'read', 'must_exist'), await resolve('long-absent.txt', 'read', 'must_exist')], { maxBytes: 1024 * 1024, containingIgnoringCase: 'needle' });
    expect(long.map((entry) => (entry.ok && 'excluded' in entry ? entry.excluded : entry.ok ? 'read' : entry.error.kind))).toEqual(['read', 'absent']);
  });

  it('readDirectories lists many directories in input order, with readDirectory\'s error for each one it cannot list', async () => {
    const { fixture, at, resolve } = world();
    await fixture.file(at('one/a.txt'), 'abc');
    await fixture.directory(at('one/sub'));
    await fixture.file(at('two/b.txt'), 'b');
    await fixture.directory(at('gone'));
    await fixture.file(at('file.txt'), 'x');
    const paths = [];
    for (const name of ['two', 'one', 'gone', 'file.txt']) paths.push(await resolve(name, 'read', 'must_exist'));
    await fixture.remove(at('gone'));
    const describe = (entry: ReadDirectoriesEntry | undefined) =>
      entry === undefined ? 'missing' : entry.ok ? entry.entries.map((child) => `${child.name}:${child.kind}:${child.size ?? '-'}`).sort().join(',') : entry.error.kind;
    expect((await fixture.fs.readDirectories(paths)).map(describe)).toEqual(['b.txt:file:1', 'a.txt:file:3,sub:directory:-', 'not_found', 'not_a_directory']);
    expect((await fixture.fs.readDirectories(paths.slice(1, 2), { sizes: false })).map(describe)).toEqual(['a.txt:file:-,sub:directory:-']);
    expect(await fixture.fs.readDirectories([])).toEqual([]);
  });

  it('readFiles returns every byte of a batch larger than one reply holds, in order', { timeout: 20_000 }, async () => {
    const { fixture, at, resolve } = world();
    const paths = [];
    for (let index = 0; index < 12; index += 1) {
      await fixture.file(at(`big${index}.bin`), new Uint8Array(2 * 1024 * 1024).fill(65 + index));
      paths.push(await resolve(`big${index}.bin`, 'read', 'must_exist'));
    }
    const entries = await fixture.fs.readFiles(paths, { maxBytes: 4 * 1024 * 1024 });
    expect(entries.map((entry) => (entry.ok && 'bytes' in entry ? `${entry.bytes.length}:${entry.bytes[0]}:${entry.bytes.at(-1)}` : 'not read'))).toEqual(
      Array.from({ length: 12 }, (_, index) => `${2 * 1024 * 1024}:${65 + index}:${65 + index}`),
    );
  });

  it('readFiles of nothing is nothing; an aborted signal rejects with its kind', async () => {
    const { fixture, at, resolve } = world();
    expect(await fixture.fs.readFiles([], { maxBytes: 10 })).toEqual([]);
    await fixture.file(at('a.txt'), 'x');
    const controller = new AbortController();
    controller.abort(new CallAborted('timed_out'));
    await expectToolError(fixture.fs.readFiles([await resolve('a.txt', 'read', 'must_exist')], { maxBytes: 10, signal: controller.signal }), 'timed_out');
  });
}
