import { parseAllowRule, type AllowRule } from './allow-rules.ts';

/** The project's permission settings, relative to the working directory; a change there asks, in every mode. */
export const SETTINGS_FILE = '.openwork/settings.json';

/** The directory that holds them: writing into it asks, since what is written there runs without asking. */
export const SETTINGS_DIRECTORY = '.openwork';

export interface ProjectSettings {
  readonly allow: readonly AllowRule[];
}

export type SettingsParse = { readonly ok: true; readonly settings: ProjectSettings } | { readonly ok: false; readonly message: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads `{"permissions": {"allow": ["bash:npm test", …]}}`. Anything else is
 * refused by name rather than ignored: a `deny` list someone expected to
 * hold, or a misspelt key, would otherwise pass in silence.
 */
export function parseSettings(text: string): SettingsParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `it is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!isObject(value)) return { ok: false, message: 'it is not a JSON object' };
  const unknownTop = Object.keys(value).filter((key) => key !== 'permissions' && key !== '$schema');
  if (unknownTop.length > 0) return { ok: false, message: `unknown key ${JSON.stringify(unknownTop[0])}; the settings are {"permissions": {"allow": [...]}}` };
  const permissions = value['permissions'] ?? {};
  if (!isObject(permissions)) return { ok: false, message: '"permissions" is not an object' };
  const unknown = Object.keys(permissions).filter((key) => key !== 'allow');
  if (unknown.length > 0) return { ok: false, message: `unknown key "permissions.${unknown[0]}"; only "allow" rules exist` };
  const listed = permissions['allow'] ?? [];
  if (!Array.isArray(listed)) return { ok: false, message: '"permissions.allow" is not a list' };
  const allow: AllowRule[] = [];
  for (const entry of listed) {
    if (typeof entry !== 'string') return { ok: false, message: `"permissions.allow" holds ${JSON.stringify(entry)}, not a string` };
    const parsed = parseAllowRule(entry);
    if (!parsed.ok) return { ok: false, message: parsed.message };
    allow.push(parsed.rule);
  }
  return { ok: true, settings: { allow } };
}
