/** A JSON Schema as the model formats read it: keywords to values. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The named subschemas of a keyword such as `properties` or `$defs`, skipping anything that is not a schema. */
export function schemaEntries(value: unknown): [string, JsonSchema][] {
  if (!isSchema(value)) return [];
  return Object.entries(value).filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]));
}

/** Applies `transform` to each named subschema, keeping the names and their order. */
export function mapSchemas(value: unknown, transform: (schema: JsonSchema) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(schemaEntries(value).map(([name, schema]) => [name, transform(schema)]));
}

export function requiredNames(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
}

/** An object schema: `type: 'object'` (alone or among others) or `properties` without a type. */
export function isObjectSchema(schema: JsonSchema): boolean {
  const { type } = schema;
  if (type === 'object' || (Array.isArray(type) && type.includes('object'))) return true;
  return type === undefined && isSchema(schema.properties);
}

/** The target of a local reference (`#/$defs/name`), or undefined for any other. */
export function resolveLocalRef(root: JsonSchema, ref: unknown): JsonSchema | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let target: unknown = root;
  for (const token of ref.slice(2).split('/')) {
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isSchema(target) || !Object.hasOwn(target, key)) return undefined;
    target = target[key];
  }
  return isSchema(target) ? target : undefined;
}

/** Whether `null` is a value the schema allows; references are followed once each. */
export function acceptsNull(schema: JsonSchema, root: JsonSchema, seen: ReadonlySet<string> = new Set()): boolean {
  const { type } = schema;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema.nullable === true || schema.const === null) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.some((branch) => isSchema(branch) && acceptsNull(branch, root, seen))) return true;
  }
  if (typeof schema.$ref === 'string' && !seen.has(schema.$ref)) {
    const target = resolveLocalRef(root, schema.$ref);
    return target !== undefined && acceptsNull(target, root, new Set([...seen, schema.$ref]));
  }
  // A schema that names no type and no union lets every value through, null included.
  return type === undefined && !('const' in schema) && !Array.isArray(schema.anyOf) && !Array.isArray(schema.oneOf) && schema.$ref === undefined;
}

/**
 * Branches that are each a type and its enum, all of one type (a TypeBox
 * union of literals), as one `{ type, enum }`; undefined for any other union.
 */
export function mergeEnumBranches(branches: readonly JsonSchema[]): JsonSchema | undefined {
  const [first] = branches;
  if (first === undefined || typeof first.type !== 'string') return undefined;
  const values: unknown[] = [];
  for (const branch of branches) {
    const plain = Object.keys(branch).every((keyword) => keyword === 'type' || keyword === 'enum');
    if (!plain || branch.type !== first.type || !Array.isArray(branch.enum)) return undefined;
    values.push(...(branch.enum as unknown[]));
  }
  return { type: first.type, enum: values };
}
