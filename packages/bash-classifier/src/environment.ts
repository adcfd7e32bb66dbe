import { isOwnVariable, isSecretVariable } from './secret-variables.ts';

export interface CommandEnvironmentOptions {
  /**
   * Credential-like variables (docs/security.md) a person let through by
   * name; the tools' own `OPENWORK_*` variables never pass.
   */
  readonly passThrough?: readonly string[];
}

/** Variables that make bash run code of their own before the command: none may come from the host. */
function injectsCode(name: string): boolean {
  return name === 'BASH_ENV' || name === 'ENV' || name === 'PROMPT_COMMAND' || name.startsWith('BASH_FUNC_');
}

/**
 * The environment of a command a person approved: the host's, without
 * what injects code into the shell, the tools' own variables, or the
 * credential-like ones a person did not pass through by name.
 */
export function commandEnvironment(environment: Readonly<Record<string, string>>, options: CommandEnvironmentOptions = {}): Record<string, string> {
  const passed = new Set(options.passThrough ?? []);
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (injectsCode(name) || isOwnVariable(name)) continue;
    if (isSecretVariable(name) && !passed.has(name)) continue;
    clean[name] = value;
  }
  return clean;
}
