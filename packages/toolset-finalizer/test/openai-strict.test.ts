import { Ajv } from 'ajv';
import fc from 'fast-check';
import type { Static } from 'typebox';
import { describe, expect, it } from 'vitest';
import { fromOpenAiStrictInput, runOpenAiResponsesCalls, runOpenAiToolCalls, toOpenAiStrictSchema } from '../src/index.ts';
import { schemaToolset, searchInput } from './schema-tools.ts';

type SearchInput = Static<typeof searchInput>;

/**
 * What a model under strict mode writes for an input: every property
 * present, null where the input leaves an optional one out. A nullable
 * field is always present, since strict mode cannot leave it out.
 */
function strictForm(input: SearchInput): Record<string, unknown> {
  return {
    pattern: input.pattern,
    path: input.path ?? null,
    mode: input.mode ?? null,
    limit: input.limit ?? null,
    label: input.label,
    filters: input.filters?.map((filter) => ({ glob: filter.glob, negate: filter.negate ?? null })) ?? null,
  };
}

const filterArbitrary = fc.record({ glob: fc.string({ minLength: 1 }), negate: fc.boolean() }, { requiredKeys: ['glob'] });
const inputArbitrary: fc.Arbitrary<SearchInput> = fc.record(
  {
    pattern: fc.string({ minLength: 1 }),
    path: fc.string({ maxLength: 200 }),
    mode: fc.constantFrom('content' as const, 'count' as const),
    limit: fc.integer({ min: 1, max: 2000 }),
    label: fc.option(fc.string(), { nil: null }),
    filters: fc.array(filterArbitrary, { maxLength: 10 }),
  },
  { requiredKeys: ['pattern', 'label'] },
);

describe('strict mode null mapping, round-tripped', () => {
  const strictSchema = toOpenAiStrictSchema(searchInput as unknown as Readonly<Record<string, unknown>>);
  const strictValid = new Ajv({ strict: false }).compile(strictSchema);

  it('any input, written as strict mode writes it, validates against the strict schema and maps back to itself', () => {
    fc.assert(
      fc.property(inputArbitrary, (input) => {
        const written = strictForm(input);
        expect(strictValid(written), JSON.stringify(strictValid.errors)).toBe(true);
        expect(fromOpenAiStrictInput(searchInput as unknown as Readonly<Record<string, unknown>>, written)).toEqual(input);
      }),
    );
  });

  it('through runOpenAiToolCalls and runOpenAiResponsesCalls the tool receives the input itself', async () => {
    const toolset = schemaToolset();
    await fc.assert(
      fc.asyncProperty(inputArbitrary, async (input) => {
        const text = JSON.stringify(strictForm(input));
        const [message] = await runOpenAiToolCalls(toolset, [{ id: 'c1', type: 'function', function: { name: 'search', arguments: text } }]);
        const [item] = await runOpenAiResponsesCalls(toolset, [{ type: 'function_call', call_id: 'f1', name: 'search', arguments: text }]);
        expect(JSON.parse(typeof message?.content === 'string' ? message.content : 'null')).toEqual(input);
        expect(JSON.parse(typeof item?.output === 'string' ? item.output : 'null')).toEqual(input);
      }),
      { numRuns: 50 },
    );
  });
});

describe('fromOpenAiStrictInput', () => {
  const schema = searchInput as unknown as Readonly<Record<string, unknown>>;

  it('keeps the null of a field that allows null, and of a required one for the validator to refuse', async () => {
    expect(fromOpenAiStrictInput(schema, { pattern: null, label: null, path: null })).toEqual({ pattern: null, label: null });
    const [message] = await runOpenAiToolCalls(schemaToolset(), [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"pattern":null}' } }]);
    expect(message?.content).toMatch(/^Error \[invalid_input\]: invalid input for search: input\.pattern must be string/);
  });

  it('never modifies its input, and leaves unknown properties to the validator', () => {
    const input = Object.freeze({ pattern: 'x', path: null, extra: null, filters: Object.freeze([Object.freeze({ glob: 'a', negate: null })]) });
    expect(fromOpenAiStrictInput(schema, input)).toEqual({ pattern: 'x', extra: null, filters: [{ glob: 'a' }] });
    expect(input).toEqual({ pattern: 'x', path: null, extra: null, filters: [{ glob: 'a', negate: null }] });
  });

  it('a "__proto__" key stays an own property and pollutes nothing', () => {
    const input: unknown = JSON.parse('{"pattern":"x","__proto__":{"polluted":true},"path":null}');
    const output = fromOpenAiStrictInput(schema, input) as Record<string, unknown>;
    expect(Object.hasOwn(output, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('follows local references and union branches to the object a value is read against', () => {
    const referenced = {
      type: 'object',
      $defs: { range: { type: 'object', properties: { from: { type: 'integer' }, to: { type: 'integer' } }, required: ['from'] } },
      properties: {
        range: { $ref: '#/$defs/range' },
        ranges: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/range' } }, { type: 'string' }] },
      },
      required: ['range'],
    };
    expect(fromOpenAiStrictInput(referenced, { range: { from: 1, to: null }, ranges: [{ from: 2, to: null }] })).toEqual({
      range: { from: 1 },
      ranges: [{ from: 2 }],
    });
    const strict = toOpenAiStrictSchema(referenced);
    expect(strict.properties).toEqual({
      range: { $ref: '#/$defs/range' },
      ranges: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/range' } }, { type: 'string' }, { type: 'null' }] },
    });
    expect((strict.$defs as Record<string, unknown>).range).toEqual({
      type: 'object',
      properties: { from: { type: 'integer' }, to: { type: ['integer', 'null'] } },
      required: ['from', 'to'],
      additionalProperties: false,
    });
  });

  it('strict mode: a constant, a reference and an untyped enum become nullable the way each can', () => {
    const strict = toOpenAiStrictSchema({
      type: 'object',
      $defs: { name: { type: 'string' } },
      properties: {
        kind: { type: 'string', const: 'file', description: 'Always file.' },
        name: { $ref: '#/$defs/name', description: 'The name.' },
        color: { enum: ['red', 'blue'] },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 1 },
        choice: { oneOf: [{ type: 'string', format: 'uri' }, { type: 'integer', multipleOf: 2 }] },
      },
    });
    expect(strict.properties).toEqual({
      kind: { type: ['string', 'null'], enum: ['file', null], description: 'Always file.' },
      name: { description: 'The name.', anyOf: [{ $ref: '#/$defs/name' }, { type: 'null' }] },
      color: { enum: ['red', 'blue', null] },
      tags: { type: ['array', 'null'], items: { type: 'string' }, minItems: 1 },
      choice: { anyOf: [{ type: 'string' }, { type: 'integer', multipleOf: 2 }, { type: 'null' }] },
    });
  });
});

describe('fromOpenAiStrictInput on a recursive schema', () => {
  it('reads every level of a tree whose nodes refer to their own definition', () => {
    const tree = {
      type: 'object',
      $defs: { node: { type: 'object', properties: { name: { type: 'string' }, note: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name'] } },
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
    };
    const written = { root: { name: 'a', note: null, children: [{ name: 'b', note: null, children: [{ name: 'c', note: 'x', children: null }] }] } };
    expect(fromOpenAiStrictInput(tree, written)).toEqual({ root: { name: 'a', children: [{ name: 'b', children: [{ name: 'c', note: 'x' }] }] } });
  });

  it('a reference cycle that reads no value ends', () => {
    const loop = { type: 'object', $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, properties: { x: { $ref: '#/$defs/a' } } };
    expect(fromOpenAiStrictInput(loop, { x: { y: null } })).toEqual({ x: { y: null } });
    expect(toOpenAiStrictSchema(loop).properties).toEqual({ x: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'null' }] } });
  });
});
