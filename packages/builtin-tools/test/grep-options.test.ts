import { Value } from 'typebox/value';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrepOutput } from '../src/common/output-schemas.ts';
import { FILE_TYPE_NAMES } from '../src/grep/file-types.ts';
import { callTool, memoryWorld, nodeWorld, type SearchWorld } from './search-world.ts';
import type { ToolResult } from '@openwork/tool-contract';

type Line = { line: number; text: string };
type Match = { path: string; line: number; text: string; before?: Line[]; after?: Line[]; endLine?: number; lines?: Line[]; spanBytes?: number };
type Data = {
  matches?: Match[];
  files?: string[];
  counts?: { path: string; count: number }[];
  truncated: boolean;
  offset?: number;
  nextOffset?: number;
  total?: number;
};

/** The data of an ok result, checked against the output schema. */
function dataOf(result: ToolResult): Data {
  expect(result.status, result.output).toBe('ok');
  expect(Value.Check(GrepOutput, result.data), JSON.stringify(result.data)).toBe(true);
  return result.data as Data;
}

function errorOf(result: ToolResult): { kind: string; message: string } | undefined {
  return result.status === 'ok' ? undefined : result.error;
}

describe.each([
  ['node', nodeWorld],
  ['memory', memoryWorld],
])('grep paging, context, multiline, literal and type on the %s file system', (_name, makeWorld) => {
  let world: SearchWorld;
  beforeEach(async () => {
    world = await makeWorld();
  });
  afterEach(() => world.cleanup());

  describe('offset', () => {
    beforeEach(async () => {
      for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']) await world.file(name, 'needle\nneedle again\n');
    });

    it('walks the sorted files page by page; the last line gives the next offset', async () => {
      const session = await world.session();
      const first = await callTool(session, 'grep', { pattern: 'needle', maxResults: 2 });
      expect(dataOf(first)).toMatchObject({ files: ['a.txt', 'b.txt'], truncated: true, nextOffset: 2 });
      expect(first.output.split('\n').at(-1)).toBe('[more results: call again with offset: 2]');
      const second = await callTool(session, 'grep', { pattern: 'needle', maxResults: 2, offset: 2 });
      expect(dataOf(second)).toEqual({ files: ['c.txt', 'd.txt'], truncated: true, offset: 2, nextOffset: 4, skipped: { binary: 0, tooLarge: 0, unreadable: 0 } });
      expect(second.output).toContain('[showing 3-4 of the files in path order');
      expect(second.output.split('\n').at(-1)).toBe('[more results: call again with offset: 4]');
      const last = await callTool(session, 'grep', { pattern: 'needle', maxResults: 2, offset: 4 });
      expect(dataOf(last)).toEqual({ files: ['e.txt'], truncated: false, offset: 4, skipped: { binary: 0, tooLarge: 0, unreadable: 0 } });
      expect(last.output).toBe('e.txt');
    });

    it('counts lines in content mode and files in count mode', async () => {
      const session = await world.session();
      const lines = dataOf(await callTool(session, 'grep', { pattern: 'needle', mode: 'content', offset: 3, maxResults: 3 }));
      expect(lines.matches?.map((match) => `${match.path}:${match.line}`)).toEqual(['b.txt:2', 'c.txt:1', 'c.txt:2']);
      expect(lines.nextOffset).toBe(6);
      const counts = dataOf(await callTool(session, 'grep', { pattern: 'needle', mode: 'count', offset: 4 }));
      expect(counts.counts).toEqual([{ path: 'e.txt', count: 2 }]);
      expect(counts.nextOffset).toBeUndefined();
    });

    it('pages cut by the output cap go on where the cap stopped, and a later page is not starved by the earlier ones', async () => {
      const line = (index: number) => `needle ${String(index).padStart(2, '0')} ${'y'.repeat(60)}`;
      await world.file('long.txt', Array.from({ length: 40 }, (_, index) => line(index)).join('\n'));
      // The same across many files: the search's tasks each weigh their hits.
      for (let index = 0; index < 40; index += 1) await world.file(`many/${String(index).padStart(2, '0')}.txt`, `${line(index)}\n`);
      // Within the window a page may hold of the results before it: three times the cap (docs/contract.md §6).
      const session = await world.session({ limits: { maxContentBytes: 1200 } });
      for (const path of ['long.txt', 'many']) {
        const seen: string[] = [];
        let offset = 0;
        for (let page = 0; page < 40 && seen.length < 40; page += 1) {
          const data = dataOf(await callTool(session, 'grep', { pattern: 'needle', mode: 'content', path, offset }));
          seen.push(...(data.matches ?? []).map((match) => match.text.slice(0, 9)));
          if (data.nextOffset === undefined) break;
          expect(data.matches?.length).toBeGreaterThan(1);
          expect(data.nextOffset).toBe(offset + (data.matches?.length ?? 0));
          offset = data.nextOffset;
        }
        expect(seen, path).toEqual(Array.from({ length: 40 }, (_, index) => line(index).slice(0, 9)));
      }
    });

    it('a page deep into the set is served, whatever the output cap; an offset past the end says how many the set has', async () => {
      await world.file('deep.txt', Array.from({ length: 400 }, (_, index) => `needle ${index} ${'z'.repeat(60)}`).join('\n'));
      const session = await world.session({ limits: { maxContentBytes: 400 } });
      const deep = dataOf(await callTool(session, 'grep', { pattern: 'needle', mode: 'content', path: 'deep.txt', offset: 300, maxResults: 2 }));
      expect(deep.matches?.map((match) => match.line)).toEqual([301, 302]);
      expect(deep).toMatchObject({ truncated: true, offset: 300, nextOffset: 302 });
      for (const offset of [400, 1e9, Number.MAX_SAFE_INTEGER]) {
        const past = await callTool(session, 'grep', { pattern: 'needle', mode: 'content', path: 'deep.txt', offset, before: 20, after: 20 });
        expect(dataOf(past)).toMatchObject({ matches: [], truncated: false, offset, total: 400 });
      }
      // Shallow pages still agree with one another.
      const first = dataOf(await callTool(session, 'grep', { pattern: 'needle', mode: 'content', path: 'deep.txt', maxResults: 4 }));
      const second = dataOf(await callTool(session, 'grep', { pattern: 'needle', mode: 'content', path: 'deep.txt', offset: 2, maxResults: 2 }));
      expect(second.matches?.map((match) => match.line)).toEqual(first.matches?.slice(2).map((match) => match.line));
    });

    it('an offset past the end gives no results and says how many the set has', async () => {
      const session = await world.session();
      const past = await callTool(session, 'grep', { pattern: 'needle', mode: 'content', offset: 10 });
      expect(dataOf(past)).toMatchObject({ matches: [], truncated: false, offset: 10, total: 10 });
      expect(past.output).toBe('[offset 10 is past the end: the result set has 10 matching lines; call again with an offset below 10]');
      expect(dataOf(await callTool(session, 'grep', { pattern: 'needle', offset: 99 }))).toMatchObject({ files: [], total: 5 });
      expect(errorOf(await callTool(session, 'grep', { pattern: 'needle', offset: -1 }))?.kind).toBe('invalid_input');
      expect(errorOf(await callTool(session, 'grep', { pattern: 'needle', offset: 1.5 }))?.kind).toBe('invalid_input');
    });
  });

  describe('before and after', () => {
    const text = `${Array.from({ length: 12 }, (_, index) => ([3, 5, 11].includes(index + 1) ? `hit ${index + 1}` : `line ${index + 1}`)).join('\n')}\n`;

    it('shows different numbers of lines on each side, and override context on their side', async () => {
      await world.file('f.txt', text);
      const session = await world.session();
      const result = await callTool(session, 'grep', { pattern: 'hit', mode: 'content', before: 2, after: 0, path: 'f.txt' });
      expect(result.output).toBe(['f.txt-1-line 1', 'f.txt-2-line 2', 'f.txt:3:hit 3', 'f.txt-4-line 4', 'f.txt:5:hit 5', '--', 'f.txt-9-line 9', 'f.txt-10-line 10', 'f.txt:11:hit 11'].join('\n'));
      expect(dataOf(result).matches?.[0]).toEqual({ path: 'f.txt', line: 3, text: 'hit 3', before: [{ line: 1, text: 'line 1' }, { line: 2, text: 'line 2' }], after: [] });
      const overridden = await callTool(session, 'grep', { pattern: 'hit 11', mode: 'content', context: 3, after: 1 });
      expect(overridden.output).toBe(['f.txt-8-line 8', 'f.txt-9-line 9', 'f.txt-10-line 10', 'f.txt:11:hit 11', 'f.txt-12-line 12'].join('\n'));
      const afterOnly = await callTool(session, 'grep', { pattern: 'hit 3', mode: 'content', after: 2 });
      expect(afterOnly.output).toBe(['f.txt:3:hit 3', 'f.txt-4-line 4', 'f.txt-5-hit 5'].join('\n'));
    });

    it('overlapping context between close matches shows each line once', async () => {
      await world.file('f.txt', text);
      const session = await world.session();
      // after of hit 3 (4, 5, 6) and before of hit 5 (2, 3, 4) overlap, and hit 5 is itself in hit 3's after.
      const result = await callTool(session, 'grep', { pattern: 'hit [35]$', mode: 'content', before: 3, after: 3 });
      const shown = result.output.split('\n');
      expect(shown).toEqual(['f.txt-1-line 1', 'f.txt-2-line 2', 'f.txt:3:hit 3', 'f.txt-4-line 4', 'f.txt:5:hit 5', 'f.txt-6-line 6', 'f.txt-7-line 7', 'f.txt-8-line 8']);
      expect(new Set(shown).size).toBe(shown.length);
      // data keeps each match's own context in full.
      expect(dataOf(result).matches?.[1]?.before?.map((entry) => entry.line)).toEqual([2, 3, 4]);
    });

    it('the same with a literal prefilter (the byte scan) and out of range values are invalid_input', async () => {
      await world.file('f.txt', text);
      const session = await world.session();
      const result = await callTool(session, 'grep', { pattern: 'hit', mode: 'content', before: 0, after: 2, path: 'f.txt' });
      expect(result.output).toBe(['f.txt:3:hit 3', 'f.txt-4-line 4', 'f.txt:5:hit 5', 'f.txt-6-line 6', 'f.txt-7-line 7', '--', 'f.txt:11:hit 11', 'f.txt-12-line 12'].join('\n'));
      for (const input of [{ before: 21 }, { after: -1 }, { after: 1.5 }]) {
        const error = errorOf(await callTool(session, 'grep', { pattern: 'hit', mode: 'content', ...input }));
        expect(error?.kind, JSON.stringify(input)).toBe('invalid_input');
      }
    });
  });

  describe('multiline', () => {
    it('matches across lines; a result is the first line with the span; . does not match a newline without (?s)', async () => {
      await world.file('a.ts', 'export function f(\n  x: number,\n): void {}\nconst y = 1;\n');
      const session = await world.session();
      const result = await callTool(session, 'grep', { pattern: 'function f\\(\\n[^)]*\\)', mode: 'content', multiline: true });
      expect(result.output).toBe(['a.ts:1:export function f(', 'a.ts:2:  x: number,', 'a.ts:3:): void {}'].join('\n'));
      expect(dataOf(result).matches).toEqual([
        { path: 'a.ts', line: 1, text: 'export function f(', endLine: 3, lines: [{ line: 2, text: '  x: number,' }, { line: 3, text: '): void {}' }] },
      ]);
      expect(dataOf(await callTool(session, 'grep', { pattern: 'f\\(.*number', mode: 'content', multiline: true })).matches).toEqual([]);
      expect(dataOf(await callTool(session, 'grep', { pattern: '(?s)f\\(.*number', mode: 'content', multiline: true })).matches?.[0]).toMatchObject({ line: 1, endLine: 2 });
      // Without multiline the same pattern matches nothing: lines are matched one by one.
      expect(dataOf(await callTool(session, 'grep', { pattern: 'function f\\(\\n[^)]*\\)' })).files).toEqual([]);
      expect(dataOf(await callTool(session, 'grep', { pattern: 'function f\\(\\n[^)]*\\)', multiline: true })).files).toEqual(['a.ts']);
      expect(dataOf(await callTool(session, 'grep', { pattern: '^const', mode: 'content', multiline: true })).matches).toEqual([{ path: 'a.ts', line: 4, text: 'const y = 1;' }]);
    });

    it('at the end of a file without a final newline, with context, and in count mode', async () => {
      await world.file('end.txt', 'one\ntwo\nBEGIN\nlast');
      await world.file('twice.txt', 'BEGIN\nlast\nBEGIN\nlast\n');
      const session = await world.session();
      const result = await callTool(session, 'grep', { pattern: 'BEGIN\\nlast$', mode: 'content', multiline: true, before: 1, path: 'end.txt' });
      expect(result.output).toBe(['end.txt-2-two', 'end.txt:3:BEGIN', 'end.txt:4:last'].join('\n'));
      expect(dataOf(result).matches?.[0]).toMatchObject({ line: 3, endLine: 4, before: [{ line: 2, text: 'two' }], after: [] });
      const counted = dataOf(await callTool(session, 'grep', { pattern: 'BEGIN\\nlast', mode: 'count', multiline: true }));
      expect(counted.counts).toEqual([
        { path: 'end.txt', count: 1 },
        { path: 'twice.txt', count: 2 },
      ]);
    });

    it('a match over 64 KiB is reported up to the bound, with a note and spanBytes', async () => {
      const body = Array.from({ length: 2000 }, (_, index) => `line ${index} ${'x'.repeat(40)}`);
      await world.file('big.txt', ['START', ...body, 'END', 'after'].join('\n'));
      const session = await world.session();
      const result = await callTool(session, 'grep', { pattern: '(?s)START.*END', mode: 'content', multiline: true });
      const match = dataOf(result).matches?.[0];
      expect(match).toMatchObject({ line: 1, endLine: 2002 });
      expect(match?.spanBytes).toBeGreaterThan(64 * 1024);
      const shownTo = match?.lines?.at(-1)?.line ?? 0;
      expect(shownTo).toBeGreaterThan(1000);
      expect(shownTo).toBeLessThan(2002);
      const shownBytes = [match?.text ?? '', ...(match?.lines ?? []).map((entry) => entry.text)].reduce((sum, text) => sum + Buffer.byteLength(text) + 1, 0);
      expect(shownBytes).toBeLessThanOrEqual(64 * 1024);
      expect(result.output).toContain(`[match cut: it covers ${match?.spanBytes}`);
      expect(result.output).not.toContain('END');
      expect(dataOf(await callTool(session, 'grep', { pattern: '(?s)START.*END', multiline: true })).files).toEqual(['big.txt']);
    });
  });

  describe('literal', () => {
    it('a pattern with regex metacharacters is found as text', async () => {
      await world.file('m.txt', 'a.b(c)*\naxb(c)\nabc\nA.B(C)*\n');
      const session = await world.session();
      const found = await callTool(session, 'grep', { pattern: 'a.b(c)*', literal: true, mode: 'content' });
      expect(found.output).toBe('m.txt:1:a.b(c)*');
      // As a regex the same pattern matches more lines.
      expect(dataOf(await callTool(session, 'grep', { pattern: 'a.b(c)*', mode: 'content' })).matches?.map((match) => match.line)).toEqual([1, 2]);
      expect(dataOf(await callTool(session, 'grep', { pattern: 'a.b(c)*', literal: true, caseInsensitive: true, mode: 'count' })).counts).toEqual([{ path: 'm.txt', count: 2 }]);
      // A literal that would not compile as a regex.
      await world.file('n.txt', 'call(x\n[unclosed\n');
      expect(dataOf(await callTool(session, 'grep', { pattern: '[unclosed', literal: true, mode: 'content' })).matches).toEqual([{ path: 'n.txt', line: 2, text: '[unclosed' }]);
      expect(errorOf(await callTool(session, 'grep', { pattern: '[unclosed' }))?.kind).toBe('invalid_input');
    });

    it('with multiline: a literal newline in the text matches across lines', async () => {
      await world.file('m.txt', 'x = f(a.b)\ny = 2\n');
      const session = await world.session();
      expect(dataOf(await callTool(session, 'grep', { pattern: 'f(a.b)\ny', literal: true, multiline: true, mode: 'content' })).matches?.[0]).toMatchObject({ line: 1, endLine: 2 });
    });
  });

  describe('type', () => {
    beforeEach(async () => {
      for (const name of ['src/a.ts', 'src/b.tsx', 'src/c.js', 'src/d.py', 'test/e.ts', 'Makefile', 'lib/rules.mk', 'notes.md', 'src/ts.txt']) await world.file(name, 'needle\n');
    });

    it("keeps the files of ripgrep's type, by name at any depth", async () => {
      const session = await world.session();
      expect(dataOf(await callTool(session, 'grep', { pattern: 'needle', type: 'ts' })).files).toEqual(['src/a.ts', 'src/b.tsx', 'test/e.ts']);
      expect(dataOf(await callTool(session, 'grep', { pattern: 'needle', type: 'py' })).files).toEqual(['src/d.py']);
      expect(dataOf(await callTool(session, 'grep', { pattern: 'needle', type: 'make' })).files).toEqual(['Makefile', 'lib/rules.mk']);
      expect(dataOf(await callTool(session, 'grep', { pattern: 'needle', type: 'md', mode: 'count' })).counts).toEqual([{ path: 'notes.md', count: 1 }]);
    });

    it('with glob: a file must pass both', async () => {
      const session = await world.session();
      expect(dataOf(await callTool(session, 'grep', { pattern: 'needle', type: 'ts', glob: 'src/**' })).files).toEqual(['src/a.ts', 'src/b.tsx']);
      expect(dataOf(await callTool(session, 'grep', { pattern: 'needle', type: 'ts', glob: '!*.tsx' })).files).toEqual(['src/a.ts', 'test/e.ts']);
      expect(dataOf(await callTool(session, 'grep', { pattern: 'needle', type: 'py', glob: 'test/**' })).files).toEqual([]);
    });

    it('an unknown type name is invalid_input listing the known names', async () => {
      const session = await world.session();
      const error = errorOf(await callTool(session, 'grep', { pattern: 'needle', type: 'typescript-ish' }));
      expect(error?.kind).toBe('invalid_input');
      expect(error?.message).toContain('unknown type "typescript-ish"');
      expect(error?.message).toContain(FILE_TYPE_NAMES.join(', '));
      expect(errorOf(await callTool(session, 'grep', { pattern: 'needle', type: '' }))?.kind).toBe('invalid_input');
    });
  });
});
