// Tools whose schemas exercise the provider formats: optional and nullable
// fields, length limits, a union of constants, nested objects in arrays, and
// the seven built-in input schemas as `openwork-tools tools --json` prints
// them (fixtures/builtin-input-schemas.json). Each tool answers with the
// input it received, so a test sees what validation let through.
import { readFileSync } from 'node:fs';
import { defineTool, errorResult, toolId, type DynTool, type ToolDefinition, type ToolSessionContext } from '@openwork/tool-contract';
import Type from 'typebox';
import { Registry, type FinalizedToolset } from '../src/index.ts';

export const searchInput = Type.Object({
  pattern: Type.String({ minLength: 1, description: 'What to look for.' }),
  path: Type.Optional(Type.String({ maxLength: 200, description: 'Where to look.' })),
  mode: Type.Optional(Type.Union([Type.Literal('content'), Type.Literal('count')], { description: 'How to report.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000 })),
  label: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'A label; null clears it.' })),
  filters: Type.Optional(
    Type.Array(Type.Object({ glob: Type.String({ minLength: 1 }), negate: Type.Optional(Type.Boolean()) }), { maxItems: 10 }),
  ),
});

const searchTool = defineTool({
  id: 'test/search',
  name: 'search',
  description: 'Searches the files.',
  risk: 'read',
  input: searchInput,
  effect: () => ({ kind: 'read', paths: [] }),
  execute: (_session, _call, input) => Promise.resolve({ data: input, output: JSON.stringify(input) }),
});

const statusTool = defineTool({
  id: 'test/status',
  name: 'status',
  description: 'Says how things are.',
  risk: 'read',
  input: Type.Object({}),
  effect: () => ({ kind: 'read', paths: [] }),
  execute: () => Promise.resolve({ data: {}, output: 'fine' }),
});

const session: ToolSessionContext = { workingDirectory: '/w', environment: {} };

export function schemaToolset(): FinalizedToolset {
  return new Registry().register(searchTool).register(statusTool).finalize(session);
}

export const builtinInputSchemas = JSON.parse(
  readFileSync(new URL('./fixtures/builtin-input-schemas.json', import.meta.url), 'utf8'),
) as Record<string, Readonly<Record<string, unknown>>>;

/** The built-in schemas as definitions only: the format tests never run them. */
export function builtinDefinitionToolset(): FinalizedToolset {
  const registry = new Registry();
  for (const [name, inputSchema] of Object.entries(builtinInputSchemas)) {
    const definition: ToolDefinition = { name, id: toolId(`builtin/${name}`), description: `The ${name} tool.`, risk: 'read', inputSchema };
    const entry: DynTool = {
      definition,
      prepare: (_session, _input, callId) => errorResult({ tool: name, toolId: definition.id, callId, error: { kind: 'io', message: 'not run here' } }),
    };
    registry.register(entry);
  }
  return registry.finalize(session);
}
