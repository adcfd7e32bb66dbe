import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
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
  it('grep: a deep page is the slice of the whole sorted set, through directories and a symlinked file; an offset past the end answers with the count', async () => {
    await writeFile(join(ws, 'many.txt'), 'a\n'.repeat(20_000));
    for (const directory of ['tree/b', 'tree/a/deep', 'tree/c']) await mkdir(join(ws, directory), { recursive: true });
    for (const [index, file] of ['tree/a/one.txt', 'tree/a/deep/two.txt', 'tree/b/three.txt', 'tree/c/four.txt', 'tree/top.txt'].entries()) {
      await writeFile(join(ws, file), Array.from({ length: 30 + index * 7 }, (_, line) => `hit ${file} ${line}`).join('\n'));
    }
    await writeFile(join(ws, 'target.txt'), 'a\n'.repeat(300));
    await symlink('../../target.txt', join(ws, 'tree/b/link.txt'));
    const whole = await call('grep', { pattern: 'hit|^a', mode: 'content', path: 'tree', maxResults: 1_000_000 });
    const all = (whole.data.matches as { path: string; line: number }[]).map((match) => `${match.path}:${match.line}`);
    expect(all).toHaveLength(30 + 37 + 44 + 51 + 58 + 300);
    for (const offset of [29, 66, 112, 200, 412, all.length - 3]) {
      const page = await call('grep', { pattern: 'hit|^a', mode: 'content', path: 'tree', offset, maxResults: 5 });
      expect((page.data.matches as { path: string; line: number }[]).map((match) => `${match.path}:${match.line}`), String(offset)).toEqual(all.slice(offset, offset + 5));
    }
    for (const offset of [all.length, 1e9, Number.MAX_SAFE_INTEGER]) {
      const past = await call('grep', { pattern: 'hit|^a', mode: 'content', path: 'tree', offset, before: 20, after: 20 });
      expect(past.data).toMatchObject({ matches: [], truncated: false, offset, total: all.length });
      expect(past.output).toContain(`is past the end: the result set has ${all.length} matching lines`);
    }
    const deep = await call('grep', { pattern: 'a', mode: 'content', path: 'many.txt', offset: 1e9, before: 20, after: 20 });
    expect(deep.data).toMatchObject({ matches: [], truncated: false, offset: 1e9, total: 20_000 });
    const page = await call('grep', { pattern: 'a', mode: 'content', path: 'many.txt', offset: 19_000, maxResults: 2, before: 1 });
    expect((page.data.matches as { line: number }[]).map((match) => match.line)).toEqual([19_001, 19_002]);
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
