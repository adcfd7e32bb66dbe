/** docs/design.md §9 bash: the environment is explicit; nothing may inject code into the shell. */
export function commandEnvironment(environment: Readonly<Record<string, string>>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (name === 'BASH_ENV' || name === 'ENV' || name === 'PROMPT_COMMAND' || name.startsWith('BASH_FUNC_')) continue;
    clean[name] = value;
  }
  return clean;
}
