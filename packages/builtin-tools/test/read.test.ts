import type { AsyncFileSystem, ReadFileChunksOptions } from '@openwork/fs-backend';
import type { CheckedPath } from '@openwork/path-guard';
import type { ToolResult } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReadData } from '../src/index.ts';
import { callTool, memoryWorld, nodeWorld, type SearchWorld } from './search-world.ts';

interface ChunkCount {
  chunks: number;
  bytes: number;
}

/** A file system whose streamed reads are counted. */
function countingChunks(filesystem: AsyncFileSystem, count: ChunkCount): AsyncFileSystem {
  async function* counted(path: CheckedPath, options: ReadFileChunksOptions): AsyncGenerator<Uint8Array> {
    for await (const chunk of filesystem.readFileChunks(path, options)) {
      count.chunks += 1;
      count.bytes += chunk.length;
      yield chunk;
    }
  }
  return new Proxy(filesystem, {
    get(target, key) {
      if (key === 'readFileChunks') return counted;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function dataOf(result: ToolResult): ReadData {
  expect(result.status, result.output).toBe('ok');
  return result.data as ReadData;
}

const LINES = 2_000_000;
const line = (index: number) => `line ${String(index).padStart(7, '0')}\n`;

/** 2,000,000 numbered lines, 26 MB, written straight into one buffer (a join of them all is slow). */
function bigLog(): Buffer {
  const width = line(0).length;
  const buffer = Buffer.alloc(LINES * width);
  for (let index = 0; index < LINES; index += 1) buffer.write(line(index), index * width, 'latin1');
  return buffer;
}

describe.each([
  ['node', nodeWorld],
  ['memory', memoryWorld],
])('read on the %s file system', (_name, makeWorld) => {
  let world: SearchWorld;
  beforeEach(async () => {
    world = await makeWorld();
  });
  afterEach(() => world.cleanup());

  it('ranged reads of a 20 MB file work: only the lines asked for are read, the 1 MiB cap is on what is returned', async () => {
    const text = bigLog();
    expect(text.length).toBeGreaterThan(20_000_000);
    await world.file('big.log', text);
    const count: ChunkCount = { chunks: 0, bytes: 0 };
    const session = await world.session({ wrap: (filesystem) => countingChunks(filesystem, count) });

    const head = dataOf(await callTool(session, 'read', { path: 'big.log', limit: 3 }));
    expect(head).toEqual({ path: 'big.log', content: line(0) + line(1) + line(2), offset: 0, lineCount: 3, truncated: true, nextOffset: 3 });
    expect(count.bytes).toBeLessThanOrEqual(256 * 1024);

    count.bytes = 0;
    const middle = await callTool(session, 'read', { path: 'big.log', offset: 1_000_000, limit: 2 });
    expect(dataOf(middle)).toMatchObject({ content: line(1_000_000) + line(1_000_001), lineCount: 2, truncated: true, nextOffset: 1_000_002 });
    expect(middle.output).toContain('1000001\tline 1000000');
    expect(middle.output).toMatch(/showing lines 1000001-1000002 of a file above 16 MiB, whose lines are counted only as far as read; continue with offset 1000002/);
    expect(count.bytes).toBeLessThan(text.length * 0.6);

    const tail = dataOf(await callTool(session, 'read', { path: 'big.log', offset: LINES - 2 }));
    expect(tail).toEqual({ path: 'big.log', content: line(LINES - 2) + line(LINES - 1), offset: LINES - 2, lineCount: 2, totalLines: LINES, truncated: false });

    const first = dataOf(await callTool(session, 'read', { path: 'big.log' }));
    expect(Buffer.byteLength(first.content)).toBeLessThanOrEqual(1024 * 1024);
    expect(Buffer.byteLength(first.content)).toBeGreaterThan(1024 * 1024 - line(0).length);
    expect(first.truncated).toBe(true);
    expect(first.nextOffset).toBe(first.lineCount);
    const next = dataOf(await callTool(session, 'read', { path: 'big.log', offset: first.nextOffset, limit: 1 }));
    expect(next.content).toBe(line(first.lineCount));

    const past = await callTool(session, 'read', { path: 'big.log', offset: LINES + 5 });
    expect(past.status === 'ok' ? undefined : past.error).toMatchObject({ kind: 'invalid_input', message: expect.stringContaining(`which has ${LINES} lines`) as string });
  });

  it('streamed lines keep their endings, leave out the BOM, cut a long line, and refuse binary or invalid bytes in the window', async () => {
    const count: ChunkCount = { chunks: 0, bytes: 0 };
    const session = await world.session({ limits: { maxReadFileBytes: 100 }, wrap: (filesystem) => countingChunks(filesystem, count) });
    await world.file('crlf.txt', `\uFEFFone\r\ntwo\r\n${'three\r\n'.repeat(100)}`);
    expect(dataOf(await callTool(session, 'read', { path: 'crlf.txt', limit: 2 }))).toMatchObject({ content: 'one\r\ntwo\r\n', truncated: true, nextOffset: 2 });

    await world.file('one-line.min.js', `${'y'.repeat(3_000_000)}\n`);
    const long = await callTool(session, 'read', { path: 'one-line.min.js' });
    expect(dataOf(long)).toMatchObject({ content: `${'y'.repeat(2000)}\n`, lineCount: 1, totalLines: 1, truncated: false });
    expect(long.output).toMatch(/line cut: 2998000 more characters/);

    await world.file('late-nul.bin', Buffer.concat([Buffer.from('text\n'.repeat(100)), Buffer.from([0]), Buffer.from('\n')]));
    expect(dataOf(await callTool(session, 'read', { path: 'late-nul.bin', limit: 1 })).content).toBe('text\n');
    const binary = await callTool(session, 'read', { path: 'late-nul.bin', offset: 99 });
    expect(binary.status === 'ok' ? undefined : binary.error.kind).toBe('binary');

    await world.file('latin1.txt', Buffer.concat([Buffer.from('fine\n'.repeat(100)), Buffer.from([0x66, 0xe9, 0x0a])]));
    expect(dataOf(await callTool(session, 'read', { path: 'latin1.txt', limit: 2 })).content).toBe('fine\nfine\n');
    const invalid = await callTool(session, 'read', { path: 'latin1.txt', offset: 100 });
    expect(invalid.status === 'ok' ? undefined : invalid.error).toMatchObject({ kind: 'invalid_utf8', message: expect.stringContaining('line 101') as string });
  });

  it('a file within the whole-file limit reads as before: totalLines, past-the-end offsets, the output cap note', async () => {
    await world.file('f.txt', 'a\nb\nc');
    const session = await world.session({ limits: { maxContentBytes: 3 } });
    const capped = await callTool(session, 'read', { path: 'f.txt' });
    expect(dataOf(capped)).toEqual({ path: 'f.txt', content: 'a\n', offset: 0, lineCount: 1, totalLines: 3, truncated: true, nextOffset: 1 });
    expect(capped.output).toContain('[showing lines 1-1 of 3 (the 3 bytes output cap was reached); continue with offset 1]');
    expect(dataOf(await callTool(session, 'read', { path: 'f.txt', offset: 2 }))).toMatchObject({ content: 'c', totalLines: 3, truncated: false });
    expect(dataOf(await callTool(session, 'read', { path: 'f.txt', offset: 3 }))).toMatchObject({ content: '', lineCount: 0, truncated: false });
    const past = await callTool(session, 'read', { path: 'f.txt', offset: 4 });
    expect(past.status === 'ok' ? undefined : past.error.kind).toBe('invalid_input');
  });
});

describe('limit messages', () => {
  it('state exact byte counts: 1 MiB + 2 bytes is not "1.0 MiB, above the 1.0 MiB limit"', async () => {
    const world = await memoryWorld();
    const result = await callTool(await world.session(), 'write', { path: 'big.txt', content: 'x'.repeat(1024 * 1024 + 2) });
    expect(result.status === 'ok' ? undefined : result.error.kind).toBe('too_large');
    expect(result.output).toContain('1048578 bytes');
    expect(result.output).toContain('1 MiB');
    expect(result.output).not.toContain('1.0 MiB');
  });
});
