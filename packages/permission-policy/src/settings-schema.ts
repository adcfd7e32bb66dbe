import Type, { type TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** Allow and deny rules, as `bash:PREFIX` or a tool's name; each is read again by its own parser. */
const Permissions = Type.Object(
  {
    allow: Type.Optional(Type.Array(Type.String())),
    deny: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

/** `.openwork/settings.json` of a project: rules only; the project cannot name what the person trusts. */
export const ProjectSettingsSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    permissions: Type.Optional(Permissions),
  },
  { additionalProperties: false },
);

/** A project folder a person trusted, with the digest of the settings file they saw. */
export const TrustedProjectSchema = Type.Object(
  {
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    trustedAt: Type.String(),
  },
  { additionalProperties: false },
);

/** The person's own settings file: their rules, the variables their approved commands see, and the folders they trust. */
export const UserSettingsSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    permissions: Type.Optional(Permissions),
    environment: Type.Optional(
      Type.Object(
        {
          passThrough: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }))),
        },
        { additionalProperties: false },
      ),
    ),
    trustedProjects: Type.Optional(Type.Record(Type.String(), TrustedProjectSchema)),
  },
  { additionalProperties: false },
);

/** `/permissions/allow/0` as a person reads it: `permissions.allow[0]`; a key that is no identifier is quoted. */
function keyName(pointer: string): string {
  let name = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^\d+$/.test(part)) name += `[${part}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(part)) name += name === '' ? part : `.${part}`;
    else name += `['${part}']`;
  }
  return name;
}

/**
 * What is wrong with a parsed settings file, in one sentence, or undefined.
 * An unknown key is named rather than ignored: a rule someone expected to
 * hold, or a misspelt key, would otherwise pass in silence.
 */
export function settingsProblem(schema: TSchema, value: unknown): string | undefined {
  const errors = [...Value.Errors(schema, value)];
  const unknown = errors.find((error) => error.keyword === 'additionalProperties');
  if (unknown !== undefined) {
    const extra = (unknown.params as { additionalProperties?: readonly string[] }).additionalProperties?.[0] ?? '';
    const at = keyName(unknown.instancePath);
    return `unknown key "${at === '' ? extra : `${at}.${extra}`}"`;
  }
  const first = errors.find((error) => error.keyword !== 'boolean') ?? errors[0];
  if (first === undefined) return undefined;
  const at = keyName(first.instancePath);
  return `${at === '' ? 'the file' : `"${at}"`} ${first.message}`;
}
