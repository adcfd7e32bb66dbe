import { readPermissions, parseJson, type PermissionRules } from './settings.ts';
import { settingsProblem, UserSettingsSchema } from './settings-schema.ts';

/** A folder a person trusted: its project settings apply while the file still has this digest. */
export interface TrustedProject {
  /** SHA-256 of `.openwork/settings.json` as it was trusted, lower-case hex. */
  readonly sha256: string;
  /** When, as an ISO 8601 time. */
  readonly trustedAt: string;
}

/**
 * The person's own settings (`~/.config/openwork/settings.json`): their allow
 * and deny rules, which always apply; the environment variables their
 * approved commands may see; and the project folders they trusted, keyed by
 * canonical path.
 */
export interface UserSettings extends PermissionRules {
  readonly passThrough: readonly string[];
  readonly trustedProjects: Readonly<Record<string, TrustedProject>>;
}

export type UserSettingsParse = { readonly ok: true; readonly settings: UserSettings } | { readonly ok: false; readonly message: string };

/** The settings of a person who has written none. */
export const EMPTY_USER_SETTINGS: UserSettings = Object.freeze({ allow: [], deny: [], passThrough: [], trustedProjects: {} });

interface UserSettingsValue {
  permissions?: { allow?: string[]; deny?: string[] };
  environment?: { passThrough?: string[] };
  trustedProjects?: Record<string, TrustedProject>;
}

const FORM = 'the user settings are {"permissions": {"allow": [...], "deny": [...]}, "environment": {"passThrough": [...]}, "trustedProjects": {...}}';

/** Reads the user's settings file; an unknown key, a rule that cannot be read or a malformed trust record is refused by name. */
export function parseUserSettings(text: string, source?: string): UserSettingsParse {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const problem = settingsProblem(UserSettingsSchema, parsed.value);
  if (problem !== undefined) return { ok: false, message: `${problem}; ${FORM}` };
  const value = parsed.value as UserSettingsValue;
  const rules = readPermissions(value.permissions, source);
  if (typeof rules === 'string') return { ok: false, message: rules };
  return {
    ok: true,
    settings: { ...rules, passThrough: value.environment?.passThrough ?? [], trustedProjects: value.trustedProjects ?? {} },
  };
}

/** The names of the environment variables the person lets reach approved commands. */
export function passThroughVariables(settings: UserSettings): readonly string[] {
  return settings.passThrough;
}

/** Whether the person trusted this folder with exactly this settings file. */
export function isTrustedProject(settings: UserSettings, directory: string, sha256: string): boolean {
  return Object.hasOwn(settings.trustedProjects, directory) && settings.trustedProjects[directory]?.sha256 === sha256;
}

/**
 * The settings file's new text with one folder trusted, every other key kept
 * as it was. `text` is the file as it is now (undefined when there is none);
 * it must parse, so that a record is never written into a file the person
 * has yet to fix.
 */
export function withTrustedProject(text: string | undefined, directory: string, trusted: TrustedProject): string {
  let value: Record<string, unknown> = {};
  if (text !== undefined) {
    const parsed = parseJson(text);
    if (!parsed.ok) throw new Error(parsed.message);
    const problem = settingsProblem(UserSettingsSchema, parsed.value);
    if (problem !== undefined) throw new Error(problem);
    value = parsed.value as Record<string, unknown>;
  }
  const projects = { ...((value['trustedProjects'] as Record<string, TrustedProject> | undefined) ?? {}), [directory]: trusted };
  return `${JSON.stringify({ ...value, trustedProjects: projects }, null, 2)}\n`;
}
