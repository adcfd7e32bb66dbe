import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinTools, descriptions } from '../src/index.ts';

const source = fileURLToPath(new URL('../src/', import.meta.url));

describe('tool descriptions', () => {
  it('the generated descriptions match the Markdown files (run pnpm descriptions)', async () => {
    const fromFiles: Record<string, string> = {};
    for (const entry of await readdir(source, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const text = await readFile(`${source}${entry.name}/${entry.name}.description.md`, 'utf8').catch(() => undefined);
      if (text !== undefined) fromFiles[entry.name] = text.trim();
    }
    expect(descriptions).toEqual(fromFiles);
  });

  it('every built-in tool advertises its Markdown description, and the definitions are pinned', () => {
    const definitions = builtinTools().map((tool) => tool.definition);
    // A tool's description lives in the folder of its name, in kebab case (bash_output: bash-output).
    for (const definition of definitions) expect(definition.description).toBe(descriptions[definition.name.replaceAll('_', '-') as keyof typeof descriptions]);
    expect(definitions.map(({ name, id, risk, inputSchema }) => ({ name, id, risk, inputSchema }))).toMatchSnapshot();
  });
});
