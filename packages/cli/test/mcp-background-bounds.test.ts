import { randomInt } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, output, serveIn, startBackground, type Unread } from './background-server.ts';
import { killMarked } from './live-processes.ts';

let base: string;
let ws: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-background-bounds-')));
  ws = join(base, 'ws');
  await mkdir(ws);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** `--background-buffer 16K`: what one stream keeps between two reads, head and tail together. */
const BUFFER = 16 * 1024;

/** The bytes a read shows, without the line that reports the dropped ones; it must be what the counts say was kept. */
function keptBytes(unread: Unread): number {
  const shown = Buffer.byteLength(unread.text.replace(`\n… [${unread.droppedBytes} bytes dropped] …\n`, ''));
  expect(shown).toBe(unread.bytes - unread.droppedBytes);
  return shown;
}

describe('eight background commands at once', () => {
  it('eight yes commands stay bounded: each read keeps at most the buffer and counts the rest as dropped; bash_kill leaves none', async () => {
    const served = await serveIn(ws, ['--background-buffer', '16K']);
    const marker = `MARKER-${randomInt(1_000_000_000)}`;
    try {
      // Started, read and killed side by side: eight commands that print as fast as they can share two cores with the server.
      const ids = await Promise.all(Array.from({ length: 8 }, (_, index) => startBackground(served, { command: `yes ${marker}-${index}` })));
      expect(new Set(ids).size).toBe(8);
      const readBounded = async (id: string) => {
        let read = await output(served, id);
        // Until it has printed past the buffer since the last read; yes does that at once on any machine.
        for (let polls = 0; polls < 600 && read.stdout.droppedBytes === 0; polls += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          read = await output(served, id);
        }
        expect(read.status).toBe('running');
        expect(read.stdout.droppedBytes).toBeGreaterThan(0);
        expect(keptBytes(read.stdout)).toBeLessThanOrEqual(BUFFER);
        expect(read.stdout.text).toContain(`${marker}-`);
      };
      await Promise.all(ids.map(readBounded));
      const killBounded = async (id: string) => {
        const killed = await call(served, 'bash_kill', { backgroundId: id });
        const data = killed.structuredContent as { status: string; stdout: Unread };
        expect(data.status).toBe('killed');
        expect(keptBytes(data.stdout)).toBeLessThanOrEqual(BUFFER);
      };
      await Promise.all(ids.map(killBounded));
      expect(await killMarked(marker)).toEqual([]);
    } finally {
      await served.close();
      await killMarked(marker);
    }
  });
});
