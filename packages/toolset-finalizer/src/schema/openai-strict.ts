// OpenAI strict mode (Structured Outputs) accepts a subset of JSON Schema:
// every property required, `additionalProperties: false` on every object,
// and no string length limits. The strict schema is derived from the tool's
// own; the tool's validator still checks the full one, so whatever strict
// mode cannot say is enforced after the model answers, as an
// `invalid_input` result the model can act on.
import {
  acceptsNull,
  isObjectSchema,
  isSchema,
  mapSchemas,
  mergeEnumBranches,
  requiredNames,
  resolveLocalRef,
  schemaEntries,
  type JsonSchema,
} from './json-schema.ts';

/** Keywords strict mode takes as they are. */
const KEPT_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'default',
  'examples',
  '$comment',
  'enum',
  'pattern',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  '$ref',
]);

/** The string formats strict mode knows; any other would be refused. */
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

const ANNOTATIONS = ['description', 'title'] as const;

/**
 * The schema for OpenAI strict mode: optional properties become required
 * and nullable, every object is closed, `const` becomes a one-value `enum`,
 * and keywords strict mode refuses (`minLength`, `maxLength`,
 * `uniqueItems`, `allOf`, `not`, …) are left to validation.
 * `fromOpenAiStrictInput` maps the model's nulls back.
 */
export function toOpenAiStrictSchema(schema: JsonSchema): JsonSchema {
  return strict(schema, schema);
}

function strict(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const result: Record<string, unknown> = {};
  const convert = (subschema: JsonSchema): JsonSchema => strict(subschema, root);
  for (const [keyword, value] of Object.entries(schema)) {
    if (KEPT_KEYWORDS.has(keyword)) result[keyword] = value;
    // Strict mode documents enum, not const: one value is a one-value enum.
    else if (keyword === 'const' && !Array.isArray(schema.enum)) result.enum = [value];
    else if (keyword === 'format' && typeof value === 'string' && STRICT_FORMATS.has(value)) result[keyword] = value;
    else if (keyword === 'items' && isSchema(value)) result[keyword] = convert(value);
    else if (keyword === '$defs' || keyword === 'definitions') result[keyword] = mapSchemas(value, convert);
    else if (keyword === 'anyOf' && Array.isArray(value)) result.anyOf = value.filter(isSchema).map(convert);
    // oneOf is not accepted; anyOf of the same branches admits a little more, and validation keeps "exactly one".
    else if (keyword === 'oneOf' && Array.isArray(value) && !Array.isArray(schema.anyOf)) result.anyOf = value.filter(isSchema).map(convert);
  }
  const merged = Array.isArray(result.anyOf) && result.type === undefined ? mergeEnumBranches(result.anyOf as JsonSchema[]) : undefined;
  if (merged !== undefined) {
    // A union of literals reads better, and costs fewer tokens, as one enum.
    const { anyOf: _branches, ...rest } = result;
    return { ...merged, ...rest };
  }
  if (isObjectSchema(schema)) {
    const required = new Set(requiredNames(schema));
    const properties = schemaEntries(schema.properties);
    result.properties = Object.fromEntries(
      properties.map(([name, property]) => {
        const converted = convert(property);
        // A property that already allows null keeps its null: the model's null then means null, not absent.
        return [name, required.has(name) || acceptsNull(property, root) ? converted : nullable(converted)];
      }),
    );
    result.required = properties.map(([name]) => name);
    result.additionalProperties = false;
  }
  return result;
}

/** The same schema, also accepting null. */
function nullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  const enumValues = Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {};
  if ('$ref' in schema) return wrapNullable(schema);
  if (typeof type === 'string') return { ...schema, type: [type, 'null'], ...enumValues };
  if (Array.isArray(type)) return { ...schema, type: [...(type as unknown[]), 'null'], ...enumValues };
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...(schema.anyOf as unknown[]), { type: 'null' }] };
  if (Array.isArray(schema.enum)) return { ...schema, ...enumValues };
  return wrapNullable(schema);
}

/** `anyOf: [schema, null]`, with the description kept where the model reads it. */
function wrapNullable(schema: JsonSchema): JsonSchema {
  const inner: Record<string, unknown> = { ...schema };
  const outer: Record<string, unknown> = {};
  for (const keyword of ANNOTATIONS) {
    if (keyword in inner) {
      outer[keyword] = inner[keyword];
      delete inner[keyword];
    }
  }
  return { ...outer, anyOf: [inner, { type: 'null' }] };
}

/**
 * The model's arguments under strict mode, read back as the tool's own
 * schema means them: a `null` for an optional property that does not allow
 * null is the model leaving it out, so the property is removed (nested
 * objects and array items too). Everything else is returned as it was, for
 * the validator to judge; the input is never modified.
 */
export function fromOpenAiStrictInput(schema: JsonSchema, input: unknown): unknown {
  return restore(schema, input, schema, new Set());
}

/** `seen` holds the references followed for this value; a child value starts afresh, so recursive schemas reach every level. */
function restore(schema: JsonSchema, value: unknown, root: JsonSchema, seen: ReadonlySet<string>): unknown {
  if (typeof schema.$ref === 'string') {
    const target = seen.has(schema.$ref) ? undefined : resolveLocalRef(root, schema.$ref);
    return target === undefined ? value : restore(target, value, root, new Set([...seen, schema.$ref]));
  }
  if (Array.isArray(value)) {
    const { items } = schema;
    if (isSchema(items)) return value.map((item: unknown) => restore(items, item, root, new Set()));
  } else if (isSchema(value) && isSchema(schema.properties)) {
    const properties = schema.properties;
    const required = new Set(requiredNames(schema));
    const entries: [string, unknown][] = [];
    for (const [name, field] of Object.entries(value)) {
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (!isSchema(property)) entries.push([name, field]);
      else if (field === null && !required.has(name) && !acceptsNull(property, root)) continue;
      else entries.push([name, restore(property, field, root, new Set())]);
    }
    // fromEntries defines each name as an own property, so a `__proto__` key stays data.
    return Object.fromEntries(entries);
  }
  const branch = unionBranch(schema, value, root);
  return branch === undefined ? value : restore(branch, value, root, seen);
}

/**
 * The first branch of a union that describes the value's kind (array or
 * object), the one it is read against; `restore` resolves a reference.
 */
function unionBranch(schema: JsonSchema, value: unknown, root: JsonSchema): JsonSchema | undefined {
  const wanted = Array.isArray(value) ? 'array' : isSchema(value) ? 'object' : undefined;
  if (wanted === undefined) return undefined;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      if (!isSchema(branch)) continue;
      const target = typeof branch.$ref === 'string' ? resolveLocalRef(root, branch.$ref) : branch;
      if (target === undefined) continue;
      const fits = wanted === 'array' ? target.type === 'array' || isSchema(target.items) : isObjectSchema(target);
      if (fits) return branch;
    }
  }
  return undefined;
}
