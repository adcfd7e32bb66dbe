import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools } from '../src/index.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await mkdir(join(h.ws, 'src'));
  await writeFile(join(h.ws, 'src', 'a.ts'), 'export const a = 1;\n// TODO one\n');
  await writeFile(join(h.ws, 'b.txt'), 'b\n');
});
afterEach(() => h.cleanup());

/** One call per tool and mode, on real files. */
const CALLS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['read', { path: 'src/a.ts' }],
  ['read', { path: 'src/a.ts', limit: 1 }],
  ['write', { path: 'new.txt', content: 'x\n' }],
  ['edit', { path: 'b.txt', oldText: 'b', newText: 'B' }],
  ['grep', { pattern: 'TODO', mode: 'content', context: 1 }],
  ['grep', { pattern: 'export' }],
  ['grep', { pattern: 'a', mode: 'count' }],
  ['glob', { pattern: '**/*.ts' }],
  ['list', { path: 'src' }],
  ['list', { limit: 1 }],
  ['bash', { command: 'echo out; echo err >&2; exit 3' }],
  ['bash', { command: 'sleep 5', timeoutMs: 200 }],
];

describe('output schemas (MCP outputSchema)', () => {
  it('every tool declares the shape of its data', () => {
    for (const tool of builtinTools()) expect(tool.definition.outputSchema, tool.definition.name).toBeDefined();
  });

  it.each(CALLS)('%s %j: the data of an ok result matches the declared schema', async (name, input) => {
    const result = await h.call(name, input);
    expect(result.status, result.output).toBe('ok');
    const schema = builtinTools().find((tool) => tool.definition.name === name)?.definition.outputSchema as TSchema;
    // As a client receives it: JSON, without undefined fields.
    const data: unknown = JSON.parse(JSON.stringify(result.data));
    expect([...Value.Errors(schema, data)].map((error) => `${error.instancePath} ${error.message}`)).toEqual([]);
    expect(Value.Check(schema, data)).toBe(true);
  });

  it('a schema refuses data of another shape, so the check above can fail', () => {
    const read = builtinTools().find((tool) => tool.definition.name === 'read')?.definition.outputSchema as TSchema;
    expect(Value.Check(read, { path: 'a', content: 1 })).toBe(false);
  });
});

describe('output schemas are what MCP accepts', () => {
  it('each is a JSON Schema object at the top level', () => {
    for (const tool of builtinTools()) expect(tool.definition.outputSchema?.type, tool.definition.name).toBe('object');
  });
});
