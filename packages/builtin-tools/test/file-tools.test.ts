import { link, mkdir, readFile, readdir, stat, symlink, writeFile, chmod } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, errorKind, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.cleanup());

describe('read', () => {
  it('read pages over a stable sort: offset and limit page exactly, with truncated and nextOffset', async () => {
    await writeFile(join(h.ws, 'f.txt'), Array.from({ length: 10 }, (_, index) => `line ${index}`).join('\n') + '\n');
    const first = await h.call('read', { path: 'f.txt', offset: 0, limit: 4 });
    expect(first.data).toMatchObject({ path: 'f.txt', content: 'line 0\nline 1\nline 2\nline 3\n', lineCount: 4, totalLines: 10, truncated: true, nextOffset: 4 });
    expect(first.output).toContain('     1\tline 0');
    const second = await h.call('read', { path: 'f.txt', offset: 4 });
    expect(second.data).toMatchObject({ offset: 4, lineCount: 6, truncated: false });
    expect((second.data as { nextOffset?: number }).nextOffset).toBeUndefined();
  });

  it('caps content at 1 MiB with whole lines, and continues exactly from nextOffset', async () => {
    const line = `${'x'.repeat(999)}\n`;
    await writeFile(join(h.ws, 'big.txt'), line.repeat(1500));
    const first = await h.call('read', { path: 'big.txt' });
    const data = first.data as { content: string; truncated: boolean; nextOffset: number; lineCount: number };
    expect(Buffer.byteLength(data.content)).toBeLessThanOrEqual(1024 * 1024);
    expect(data.truncated).toBe(true);
    expect(data.nextOffset).toBe(data.lineCount);
    const rest = await h.call('read', { path: 'big.txt', offset: data.nextOffset });
    expect(data.content + (rest.data as { content: string }).content).toBe(line.repeat(1500));
  });

  it('refuses binary, invalid UTF-8, directories, FIFOs and missing files with their kinds; a BOM is not content', async () => {
    await writeFile(join(h.ws, 'bin'), Buffer.from([1, 0, 2]));
    await writeFile(join(h.ws, 'latin1'), Buffer.from([0x66, 0xe9, 0x0a]));
    await writeFile(join(h.ws, 'bom.txt'), '\uFEFFhello\n');
    execFileSync('mkfifo', [join(h.ws, 'fifo')]);
    expect(errorKind(await h.call('read', { path: 'bin' }))).toBe('binary');
    expect(errorKind(await h.call('read', { path: 'latin1' }))).toBe('invalid_utf8');
    expect(errorKind(await h.call('read', { path: '.' }))).toBe('is_directory');
    expect(errorKind(await h.call('read', { path: 'fifo' }))).toBe('not_a_file');
    expect(errorKind(await h.call('read', { path: 'nope.txt' }))).toBe('not_found');
    expect((await h.call('read', { path: 'bom.txt' })).data).toMatchObject({ content: 'hello\n' });
  });

  it('cuts a line longer than the cap and says so', async () => {
    await writeFile(join(h.ws, 'long.txt'), `${'y'.repeat(5000)}\nshort\n`);
    const result = await h.call('read', { path: 'long.txt' });
    expect((result.data as { content: string }).content).toBe(`${'y'.repeat(2000)}\nshort\n`);
    expect(result.output).toMatch(/line cut: 3000 more characters/);
  });

  it('a symlink to outside is refused', async () => {
    await writeFile(join(h.root, 'secret'), 's');
    await symlink(join(h.root, 'secret'), join(h.ws, 'link'));
    expect(errorKind(await h.call('read', { path: 'link' }))).toBe('outside_root');
  });
});

describe('write', () => {
  it('creates with parents, overwrites, keeps the mode, and reports created and bytes', async () => {
    const created = await h.call('write', { path: 'a/b/c.txt', content: 'hé\n' });
    expect(created.data).toEqual({ path: 'a/b/c.txt', created: true, bytes: 4 });
    await chmod(join(h.ws, 'a/b/c.txt'), 0o755);
    const overwritten = await h.call('write', { path: 'a/b/c.txt', content: 'new\n' });
    expect(overwritten.data).toEqual({ path: 'a/b/c.txt', created: false, bytes: 4 });
    expect((await stat(join(h.ws, 'a/b/c.txt'))).mode & 0o777).toBe(0o755);
    expect(await readFile(join(h.ws, 'a/b/c.txt'), 'utf8')).toBe('new\n');
    expect(await readdir(join(h.ws, 'a/b'))).toEqual(['c.txt']);
  });

  it('never writes through a symlink, a dangling link or a hard link to outside', async () => {
    await writeFile(join(h.root, 'outside.txt'), 'keep');
    await symlink(join(h.root, 'outside.txt'), join(h.ws, 'soft'));
    await symlink(join(h.root, 'not-yet'), join(h.ws, 'dangling'));
    await link(join(h.root, 'outside.txt'), join(h.ws, 'hard'));
    expect(errorKind(await h.call('write', { path: 'soft', content: 'x' }))).toBe('outside_root');
    expect(errorKind(await h.call('write', { path: 'dangling', content: 'x' }))).toBe('outside_root');
    expect(errorKind(await h.call('write', { path: '../escape.txt', content: 'x' }))).toBe('outside_root');
    expect((await h.call('write', { path: 'hard', content: 'x' })).status).toBe('ok');
    expect(await readFile(join(h.root, 'outside.txt'), 'utf8')).toBe('keep');
    await expect(stat(join(h.root, 'not-yet'))).rejects.toThrow();
  });

  it('refuses content above the cap and writes into a read-only root as protected', async () => {
    const small = await createHarness({ limits: { maxContentBytes: 10 } });
    try {
      expect(errorKind(await small.call('write', { path: 'x', content: 'x'.repeat(11) }))).toBe('too_large');
    } finally {
      await small.cleanup();
    }
    const docs = join(h.root, 'docs');
    await mkdir(docs);
    const guarded = await createHarness({ readOnlyRoots: [docs] });
    try {
      expect(errorKind(await guarded.call('write', { path: join(docs, 'x'), content: 'x' }))).toBe('protected');
    } finally {
      await guarded.cleanup();
    }
  });

  it('20 concurrent writers to one path end with exactly one writer\'s bytes', async () => {
    const contents = Array.from({ length: 20 }, (_, index) => `${String(index).repeat(5000)}\n`);
    const results = await Promise.all(contents.map((content) => h.call('write', { path: 'race.txt', content })));
    expect(results.every((result) => result.status === 'ok' || errorKind(result) === 'stale')).toBe(true);
    expect(contents).toContain(await readFile(join(h.ws, 'race.txt'), 'utf8'));
    expect(await readdir(h.ws)).toEqual(['race.txt']);
  });
});

describe('list', () => {
  it('list pages over a stable sort: byte-order names, kinds without following links, paging', async () => {
    await mkdir(join(h.ws, 'dir'));
    await writeFile(join(h.ws, 'B.txt'), '12');
    await writeFile(join(h.ws, 'a.txt'), '1');
    await symlink('/etc', join(h.ws, 'link'));
    execFileSync('mkfifo', [join(h.ws, 'pipe')]);
    const all = await h.call('list', {});
    expect((all.data as { entries: { name: string }[] }).entries.map((entry) => entry.name)).toEqual(['B.txt', 'a.txt', 'dir', 'link', 'pipe']);
    expect((all.data as { entries: unknown[] }).entries).toEqual([
      { name: 'B.txt', kind: 'file', size: 2 },
      { name: 'a.txt', kind: 'file', size: 1 },
      { name: 'dir', kind: 'directory' },
      { name: 'link', kind: 'symlink' },
      { name: 'pipe', kind: 'other' },
    ]);
    const page = await h.call('list', { offset: 1, limit: 2 });
    expect(page.data).toMatchObject({ path: '.', total: 5, offset: 1, nextOffset: 3 });
    expect(errorKind(await h.call('list', { path: 'a.txt' }))).toBe('not_a_directory');
    expect(errorKind(await h.call('list', { path: 'link' }))).toBe('outside_root');
    expect(errorKind(await h.call('list', { limit: 2001 }))).toBe('invalid_input');
  });
});
