import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileChangeArtifact, ToolResult } from '@openwork/tool-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { undoChanges, type BuiltinSession, type ReadData } from '../src/index.ts';
import { createHarness, errorKind } from './harness.ts';
import { callTool, memoryWorld, nodeWorld, type SearchWorld } from './search-world.ts';

type Order = 'utf-16le' | 'utf-16be';

/** Text as a UTF-16 file writes it: the byte-order mark, then each code unit in that order. */
function utf16(text: string, order: Order): Buffer {
  const bytes = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return order === 'utf-16le' ? bytes : bytes.swap16();
}

async function bytesOf(session: BuiltinSession, path: string): Promise<Buffer> {
  const checked = await session.paths.resolvePath(path, 'read', 'must_exist');
  return Buffer.from(await session.filesystem.readFile(checked, { maxBytes: 1024 * 1024 }));
}

function artifactOf(result: ToolResult): FileChangeArtifact {
  expect(result.status, result.output).toBe('ok');
  const [artifact] = result.artifacts;
  if (artifact === undefined) throw new Error('no artifact');
  return artifact;
}

const ORIGINAL = 'first line\r\nsecond: grüße 😀\r\nthird\r\n';

describe.each([
  ['node', nodeWorld],
  ['memory', memoryWorld],
])('UTF-16 with a byte-order mark on the %s file system', (_name, makeWorld) => {
  let world: SearchWorld;
  afterEach(() => world.cleanup());

  describe.each(['utf-16le', 'utf-16be'] as const)('%s', (order) => {
    const label = order === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE';

    it('is read as text, line endings kept and the BOM left out; the data and output say the encoding', async () => {
      world = await makeWorld();
      await world.file('notes.txt', utf16(ORIGINAL, order));
      const result = await callTool(await world.session(), 'read', { path: 'notes.txt' });
      expect(result.status, result.output).toBe('ok');
      expect(result.data as ReadData).toEqual({ path: 'notes.txt', encoding: order, content: ORIGINAL, offset: 0, lineCount: 3, totalLines: 3, truncated: false });
      expect(result.output).toBe(`     1\tfirst line\n     2\tsecond: grüße 😀\n     3\tthird\n[notes.txt is ${label} text with a byte-order mark; edit keeps that encoding]`);
    });

    it('an edit keeps the encoding, the BOM and CRLF; undo restores the exact bytes', async () => {
      world = await makeWorld();
      const before = utf16(ORIGINAL, order);
      await world.file('notes.txt', before);
      const session = await world.session();
      await callTool(session, 'read', { path: 'notes.txt' });
      const edited = await callTool(session, 'edit', { path: 'notes.txt', oldText: 'grüße 😀\nthird', newText: 'Grüße 🎉\nthird, changed' });
      const artifact = artifactOf(edited);
      expect(await bytesOf(session, 'notes.txt')).toEqual(utf16('first line\r\nsecond: Grüße 🎉\r\nthird, changed\r\n', order));
      expect(artifact).toMatchObject({ change: 'modify', encoding: order, originalContent: `\uFEFF${ORIGINAL}`, added: 2, removed: 2 });
      const report = await undoChanges(session, [artifact], { signal: new AbortController().signal });
      expect(report).toEqual({ undone: [artifact.changeId], conflicts: [], skipped: [], reasons: {} });
      expect((await bytesOf(session, 'notes.txt')).equals(before)).toBe(true);
    });

    it('several edits in one call keep the encoding too', async () => {
      world = await makeWorld();
      await world.file('notes.txt', utf16(ORIGINAL, order));
      const session = await world.session();
      const edited = await callTool(session, 'edit', {
        path: 'notes.txt',
        edits: [
          { oldText: 'first', newText: '1st' },
          { oldText: 'third', newText: '3rd' },
        ],
      });
      expect(artifactOf(edited).encoding).toBe(order);
      expect(await bytesOf(session, 'notes.txt')).toEqual(utf16('1st line\r\nsecond: grüße 😀\r\n3rd\r\n', order));
    });

    it('write replaces it with UTF-8, as its description says; undo brings back the UTF-16 bytes', async () => {
      world = await makeWorld();
      const before = utf16(ORIGINAL, order);
      await world.file('notes.txt', before);
      const session = await world.session();
      const written = await callTool(session, 'write', { path: 'notes.txt', content: 'now UTF-8\n' });
      const artifact = artifactOf(written);
      expect(artifact).toMatchObject({ encoding: order, originalContent: `\uFEFF${ORIGINAL}` });
      expect((await bytesOf(session, 'notes.txt')).toString('utf8')).toBe('now UTF-8\n');
      await undoChanges(session, [artifact], { signal: new AbortController().signal });
      expect((await bytesOf(session, 'notes.txt')).equals(before)).toBe(true);
    });

    it('bytes that are not UTF-16 after the mark are invalid_utf8; a NUL character is binary', async () => {
      world = await makeWorld();
      await world.file('odd.txt', Buffer.concat([utf16('abc', order), Buffer.from([0x41])]));
      await world.file('nul.txt', utf16('a\0b', order));
      const session = await world.session();
      const odd = await callTool(session, 'read', { path: 'odd.txt' });
      expect(errorKind(odd)).toBe('invalid_utf8');
      expect(odd.output).toContain(`starts with a ${label} byte-order mark but is not valid ${label} text`);
      expect(errorKind(await callTool(session, 'read', { path: 'nul.txt' }))).toBe('binary');
      expect(errorKind(await callTool(session, 'edit', { path: 'odd.txt', oldText: 'abc', newText: 'x' }))).toBe('invalid_utf8');
    });

    it('a UTF-16 file above the whole-file limit is too_large, not binary', async () => {
      world = await makeWorld();
      await world.file('big.txt', utf16('line\n'.repeat(100), order));
      const result = await callTool(await world.session({ limits: { maxReadFileBytes: 256 } }), 'read', { path: 'big.txt' });
      expect(errorKind(result)).toBe('too_large');
      expect(result.output).toContain(`big.txt is ${label} text larger than 256 bytes`);
    });
  });
});

describe('UTF-16 on disk, checked with the host file system', () => {
  it.each(['utf-16le', 'utf-16be'] as const)('%s: read, edit and undo; every byte on disk is what it should be', async (order) => {
    const h = await createHarness();
    try {
      const file = join(h.ws, 'win.reg');
      const before = utf16('Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\Software\\Demo]\r\n"Value"=dword:00000001\r\n', order);
      await writeFile(file, before);
      expect((await h.call('read', { path: 'win.reg', offset: 2, limit: 1 })).output).toContain('     3\t[HKEY_CURRENT_USER\\Software\\Demo]');
      const artifact = artifactOf(await h.call('edit', { path: 'win.reg', oldText: 'dword:00000001', newText: 'dword:00000002' }));
      const after = await readFile(file);
      expect(after.subarray(0, 2)).toEqual(order === 'utf-16le' ? Buffer.from([0xff, 0xfe]) : Buffer.from([0xfe, 0xff]));
      expect(after).toEqual(utf16('Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\Software\\Demo]\r\n"Value"=dword:00000002\r\n', order));
      // As a journal keeps it: JSON, read back.
      const journaled = JSON.parse(JSON.stringify(artifact)) as FileChangeArtifact;
      const report = await undoChanges(h.session, [journaled], { signal: new AbortController().signal });
      expect(report.undone).toEqual([artifact.changeId]);
      expect((await readFile(file)).equals(before)).toBe(true);
    } finally {
      await h.cleanup();
    }
  });

  it('an artifact without an encoding (UTF-8, as every one before) still undoes to UTF-8', async () => {
    const h = await createHarness();
    try {
      await writeFile(join(h.ws, 'a.txt'), '\uFEFFplain\n');
      const artifact = artifactOf(await h.call('edit', { path: 'a.txt', oldText: 'plain', newText: 'changed' }));
      expect('encoding' in artifact).toBe(false);
      await undoChanges(h.session, [artifact], { signal: new AbortController().signal });
      expect(await readFile(join(h.ws, 'a.txt'))).toEqual(Buffer.from('\uFEFFplain\n', 'utf8'));
    } finally {
      await h.cleanup();
    }
  });
});
