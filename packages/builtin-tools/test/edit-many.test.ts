import { describe, expect, it } from 'vitest';
import type { EditData, ReadData } from '../src/index.ts';
import { callTool, memoryWorld, nodeWorld, type SearchWorld } from './search-world.ts';

const ORIGINAL = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';

describe.each([
  ['node', nodeWorld],
  ['memory', memoryWorld],
] as const)('edit with an edits list (%s file system)', (_name, makeWorld) => {
  const world = async (): Promise<SearchWorld> => {
    const made = await makeWorld();
    await made.file('src/x.ts', ORIGINAL);
    return made;
  };
  const content = async (session: Awaited<ReturnType<SearchWorld['session']>>) => ((await callTool(session, 'read', { path: 'src/x.ts' })).data as ReadData).content;

  it('applies every edit in order, each to the text the ones before it left, in one write and one artifact', async () => {
    const made = await world();
    try {
      const session = await made.session();
      const result = await callTool(session, 'edit', {
        path: 'src/x.ts',
        edits: [
          { oldText: 'const a = 1;', newText: 'const a = 10;' },
          { oldText: 'const a = 10;\nconst b', newText: 'const a = 10;\nlet b' },
          { oldText: 'const', newText: 'var', replaceAll: true },
        ],
      });
      expect(result.status, result.output).toBe('ok');
      expect(result.data as EditData).toEqual({ path: 'src/x.ts', replacements: 4, created: false });
      expect(result.artifacts).toHaveLength(1);
      expect(await content(session)).toBe('var a = 10;\nlet b = 2;\nvar c = 3;\n');
    } finally {
      await made.cleanup();
    }
  });

  it('a third edit that fails leaves the file byte-identical and names which one failed', async () => {
    const made = await world();
    try {
      const session = await made.session();
      const result = await callTool(session, 'edit', {
        path: 'src/x.ts',
        edits: [
          { oldText: 'const a = 1;', newText: 'const a = 10;' },
          { oldText: 'const b = 2;', newText: 'const b = 20;' },
          { oldText: 'const z = 9;', newText: 'x' },
        ],
      });
      expect(result.status).toBe('error');
      expect(result.status === 'error' && result.error.kind).toBe('no_match');
      expect(result.output).toContain('edit 3 of 3 failed, so none was applied and src/x.ts is unchanged');
      expect(result.artifacts).toHaveLength(0);
      expect(await content(session)).toBe(ORIGINAL);
    } finally {
      await made.cleanup();
    }
  });

  it.each([
    [{ edits: [{ oldText: 'a', newText: 'b' }], oldText: 'a', newText: 'b' }, 'invalid_input', 'not both'],
    [{ edits: [{ oldText: 'a', newText: 'b' }], replaceAll: true }, 'invalid_input', 'not both'],
    [{}, 'invalid_input', 'needs oldText and newText'],
    [{ oldText: 'a' }, 'invalid_input', 'needs oldText and newText'],
    [{ edits: [] }, 'invalid_input', ''],
    [{ edits: [{ oldText: '', newText: 'b' }] }, 'invalid_input', ''],
    [{ edits: [{ oldText: 'a', newText: 'b', extra: 1 }] }, 'invalid_input', ''],
    [{ edits: [{ oldText: 'const a', newText: 'const a' }, { oldText: 'b', newText: 'c' }] }, 'no_change', 'edit 1'],
    [{ edits: [{ oldText: 'const', newText: 'let' }] }, 'ambiguous_match', 'appears 3 times'],
  ])('%j is %s', async (input, kind, detail) => {
    const made = await world();
    try {
      const session = await made.session();
      const result = await callTool(session, 'edit', { path: 'src/x.ts', ...input });
      expect(result.status === 'error' && result.error.kind).toBe(kind);
      expect(result.output).toContain(detail);
      expect(await content(session)).toBe(ORIGINAL);
    } finally {
      await made.cleanup();
    }
  });
});
