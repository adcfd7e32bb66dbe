import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './command.ts';

let ws: string;

beforeAll(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'edit-endings-')));
});
afterAll(() => rm(ws, { recursive: true, force: true }));

interface Result {
  status: string;
  artifacts: { hunks: { lines: string[] }[] }[];
}

const edit = async (input: object, journal?: string): Promise<Result> => {
  const run = await runInProcess(['call', 'edit', JSON.stringify(input), '--json', '--mode', 'acceptEdits', ...(journal === undefined ? [] : ['--artifacts', journal])], { cwd: ws });
  return JSON.parse(run.stdout) as Result;
};

describe('edit writes the file in its own line ending; artifacts show text as read shows it (docs/contract.md §2.4, §3.4)', () => {
  it('CRLF in newText becomes LF in an LF file, and LF becomes CRLF in a CRLF file', async () => {
    await writeFile(join(ws, 'lf.txt'), 'one\ntwo\nthree\n');
    expect((await edit({ path: 'lf.txt', oldText: 'two\n', newText: 'two\r\nand a half\r\n' })).status).toBe('ok');
    expect(await readFile(join(ws, 'lf.txt'), 'utf8')).toBe('one\ntwo\nand a half\nthree\n');
    await writeFile(join(ws, 'crlf.txt'), 'one\r\ntwo\r\n');
    expect((await edit({ path: 'crlf.txt', oldText: 'one\n', newText: 'one\nand more\r\n' })).status).toBe('ok');
    expect(await readFile(join(ws, 'crlf.txt'), 'utf8')).toBe('one\r\nand more\r\ntwo\r\n');
  });

  it("a UTF-8 byte-order mark the file keeps is not in the artifact's hunks, and undo still restores it", async () => {
    const journal = join(ws, '..', `${ws.split('/').at(-1)}.jsonl`);
    await writeFile(join(ws, 'bom.txt'), '\uFEFFfirst\nsecond\n');
    const result = await edit({ path: 'bom.txt', oldText: 'first', newText: 'FIRST' }, journal);
    expect(result.status).toBe('ok');
    expect(result.artifacts[0]?.hunks[0]?.lines).toEqual(['-first', '+FIRST', ' second']);
    expect(await readFile(join(ws, 'bom.txt'), 'utf8')).toBe('\uFEFFFIRST\nsecond\n');
    const undo = await runInProcess(['undo', '--artifacts', journal, '--json'], { cwd: ws });
    expect(JSON.parse(undo.stdout)).toMatchObject({ conflicts: [], skipped: [] });
    expect(await readFile(join(ws, 'bom.txt'), 'utf8')).toBe('\uFEFFfirst\nsecond\n');
    await rm(journal);
  });
});
