// Gemini function declarations take a subset of the OpenAPI 3.0 schema
// object, not JSON Schema: no `additionalProperties`, no `const`, no type
// lists, enums of strings only. The declaration is derived from the tool's
// own schema; what the subset cannot say is still checked by the tool's
// validator after the model answers.
import { isSchema, mergeEnumBranches, requiredNames, schemaEntries, type JsonSchema } from './json-schema.ts';

/** Keywords of Gemini's `Schema` that mean the same as in JSON Schema. */
const KEPT_KEYWORDS = new Set([
  'description',
  'title',
  'default',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

/**
 * The tool's input schema as a Gemini `Schema`: `const` becomes a
 * one-value `enum`, a union of string constants one `enum`, a type list with
 * `null` a `nullable` type, and keywords outside the subset
 * (`additionalProperties`, `$ref`, `allOf`, `not`, …) are left to validation.
 */
export function toGeminiSchema(schema: JsonSchema): JsonSchema {
  const result: Record<string, unknown> = { ...typeOf(schema), ...valuesOf(schema) };
  for (const [keyword, value] of Object.entries(schema)) {
    if (KEPT_KEYWORDS.has(keyword)) result[keyword] = value;
    else if (keyword === 'items' && isSchema(value)) result.items = toGeminiSchema(value);
  }
  if (isSchema(schema.properties)) {
    const properties = schemaEntries(schema.properties);
    result.properties = Object.fromEntries(properties.map(([name, property]) => [name, toGeminiSchema(property)]));
    const names = new Set(properties.map(([name]) => name));
    const required = requiredNames(schema).filter((name) => names.has(name));
    if (required.length > 0) result.required = required;
  }
  const branches = unionOf(schema);
  if (branches === undefined) return result;
  // The schema's own keywords (its description first of all) win over a branch's.
  const merged: Record<string, unknown> = { ...union(branches), ...result };
  if ('anyOf' in merged) delete merged.type;
  return merged;
}

/** `type` as one name; `['string', 'null']` is `type: 'string', nullable: true`. */
function typeOf(schema: JsonSchema): Record<string, unknown> {
  const { type } = schema;
  if (typeof type === 'string' && type !== 'null') return { type };
  if (!Array.isArray(type)) return enumType(schema);
  const named = type.filter((name): name is string => typeof name === 'string' && name !== 'null');
  const nullable = type.includes('null') ? { nullable: true } : {};
  if (named.length === 1) return { type: named[0], ...nullable };
  // Several types are a union of one-type branches (Gemini has no type lists).
  return { anyOf: named.map((name) => ({ type: name })), ...nullable };
}

/** An untyped `enum` or `const` of strings is a string. */
function enumType(schema: JsonSchema): Record<string, unknown> {
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  return values.length > 0 && values.every((value) => typeof value === 'string' || value === null) ? { type: 'string' } : {};
}

/** `enum` and `const` as Gemini's string enum; other values are left to validation. */
function valuesOf(schema: JsonSchema): Record<string, unknown> {
  const values = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : 'const' in schema ? [schema.const] : undefined;
  if (values === undefined) return {};
  const strings = values.filter((value): value is string => typeof value === 'string');
  if (strings.length === 0 || strings.length + (values.includes(null) ? 1 : 0) !== values.length) return {};
  return { enum: strings, ...(values.includes(null) ? { nullable: true } : {}) };
}

function unionOf(schema: JsonSchema): JsonSchema[] | undefined {
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  return branches?.filter(isSchema);
}

/**
 * A union: `null` branches make it nullable, string constants merge into
 * one enum, one remaining branch stands alone, several stay `anyOf` (never
 * beside `type`, which Gemini refuses).
 */
function union(branches: readonly JsonSchema[]): Record<string, unknown> {
  const nullable = branches.some((branch) => branch.type === 'null') ? { nullable: true } : {};
  const converted = branches.filter((branch) => branch.type !== 'null').map(toGeminiSchema);
  const constants = mergeEnumBranches(converted);
  if (constants !== undefined) return { ...constants, ...nullable };
  if (converted.length <= 1) return { ...converted[0], ...nullable };
  return { anyOf: converted, ...nullable };
}
