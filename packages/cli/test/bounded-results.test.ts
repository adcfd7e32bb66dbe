import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './command.ts';

let ws: string;

beforeAll(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'bounded-results-')));
});
afterAll(() => rm(ws, { recursive: true, force: true }));

const call = async (tool: string, input: object) => {
  const run = await runInProcess(['call', tool, JSON.stringify(input), '--json'], { cwd: ws });
  return JSON.parse(run.stdout) as { status: string; output: string; data: Record<string, unknown> };
};

describe('what a tool holds follows what it returns (docs/contract.md §6)', () => {
  it('grep: an offset far past a window of 300 KB of matches asks for a narrower search', async () => {
    await writeFile(join(ws, 'many.txt'), 'a\n'.repeat(150_000));
    for (const offset of [1e9, Number.MAX_SAFE_INTEGER, 140_000]) {
      const result = await call('grep', { pattern: 'a', mode: 'content', path: 'many.txt', offset, before: 20, after: 20 });
      expect(result.data).toMatchObject({ matches: [], truncated: true, offset });
      expect(result.output).toContain('take more than one search holds; narrow the search');
    }
    const page = await call('grep', { pattern: 'a', mode: 'content', path: 'many.txt', offset: 1000, maxResults: 2 });
    expect((page.data.matches as { line: number }[]).map((match) => match.line)).toEqual([1001, 1002]);
  });

  it('read: a notebook of a million outputs is shown as text, one of many outputs by cells up to the cap, each saying what it left out', async () => {
    const notebook = (outputs: number) => JSON.stringify({ cells: [{ cell_type: 'code', source: 'x', outputs: Array.from({ length: outputs }, () => ({})) }], metadata: {}, nbformat: 4 });
    await writeFile(join(ws, 'million.ipynb'), notebook(1_000_000));
    const million = await call('read', { path: 'million.ipynb' });
    expect(million.status).toBe('ok');
    expect(million.output).toContain('holds more than 200000 JSON objects, more than read renders by cells');
    await writeFile(join(ws, 'many.ipynb'), notebook(150_000));
    const many = await call('read', { path: 'many.ipynb' });
    expect(many.data).toMatchObject({ kind: 'notebook' });
    expect(many.output).toMatch(/not rendered: the cell is past the 1 MiB output cap|was cut after/);
    expect(Buffer.byteLength(String(many.data.content))).toBeLessThanOrEqual(1024 * 1024);
  });
});
