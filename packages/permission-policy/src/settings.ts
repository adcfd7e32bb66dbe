import { parseAllowRule, type AllowRule } from './allow-rules.ts';
import { parseDenyRule, type DenyRule } from './deny-rules.ts';
import { ProjectSettingsSchema, settingsProblem } from './settings-schema.ts';

/** The project's permission settings, relative to the working directory; a change there asks, in every mode. */
export const SETTINGS_FILE = '.openwork/settings.json';

/** The directory that holds them: writing into it asks, since what is written there runs without asking. */
export const SETTINGS_DIRECTORY = '.openwork';

/** The rules of one settings file. */
export interface PermissionRules {
  readonly allow: readonly AllowRule[];
  readonly deny: readonly DenyRule[];
}

/** A project's rules: its deny rules always apply, its allow rules only once a person trusted the folder. */
export type ProjectSettings = PermissionRules;

export type SettingsParse = { readonly ok: true; readonly settings: ProjectSettings } | { readonly ok: false; readonly message: string };

/** JSON text as a value, or why it is not JSON. */
export function parseJson(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `it is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The rules of a `permissions` object the schema accepted; `source` names the file in each denial. */
export function readPermissions(permissions: { allow?: readonly string[]; deny?: readonly string[] } | undefined, source?: string): PermissionRules | string {
  const allow: AllowRule[] = [];
  for (const entry of permissions?.allow ?? []) {
    const parsed = parseAllowRule(entry);
    if (!parsed.ok) return `"permissions.allow": ${parsed.message}`;
    allow.push(parsed.rule);
  }
  const deny: DenyRule[] = [];
  for (const entry of permissions?.deny ?? []) {
    const parsed = parseDenyRule(entry, source);
    if (!parsed.ok) return `"permissions.deny": ${parsed.message}`;
    deny.push(parsed.rule);
  }
  return { allow, deny };
}

/**
 * Reads `{"permissions": {"allow": ["bash:npm test", …], "deny": ["bash:git push", …]}}`.
 * Anything else is refused by name rather than ignored.
 */
export function parseSettings(text: string, source?: string): SettingsParse {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const problem = settingsProblem(ProjectSettingsSchema, parsed.value);
  if (problem !== undefined) return { ok: false, message: `${problem}; a project's settings are {"permissions": {"allow": [...], "deny": [...]}}` };
  const { permissions } = parsed.value as { permissions?: { allow?: string[]; deny?: string[] } };
  const rules = readPermissions(permissions, source);
  return typeof rules === 'string' ? { ok: false, message: rules } : { ok: true, settings: rules };
}
