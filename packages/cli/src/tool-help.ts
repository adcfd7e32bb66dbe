import type { ToolDefinition } from '@openwork/tool-contract';
import { shellQuote } from './shell-quote.ts';
import { createRegistry } from './toolset.ts';
import { UsageError } from './usage-error.ts';

/** Every tool this command knows, whatever the mode: help describes them all. */
function definitions(): readonly ToolDefinition[] {
  return createRegistry().entries.map((entry) => entry.definition);
}

function definitionOf(name: string): ToolDefinition | undefined {
  return definitions().find((definition) => definition.name === name);
}

/** `openwork-tools call TOOL --help`: the tool's description as the model reads it, and the input it takes. */
export function toolHelp(name: string): string {
  const definition = definitionOf(name);
  if (definition === undefined) {
    throw new UsageError(`there is no tool named ${JSON.stringify(name)}; the tools are ${definitions().map((each) => each.name).join(', ')}`);
  }
  return [
    `usage: openwork-tools call ${definition.name} [INPUT|-] [FLAGS]`,
    '',
    `${definition.name} (${definition.id}, risk ${definition.risk})`,
    '',
    definition.description.trim(),
    '',
    'INPUT, a JSON object of this schema:',
    JSON.stringify(definition.inputSchema, null, 2),
    '',
    `e.g. ${exampleCall(definition.name)}`,
  ].join('\n');
}

/** The first required string property of a tool's input: what a bare word on the command line most likely meant. */
function mainProperty(definition: ToolDefinition): string | undefined {
  const schema = definition.inputSchema as { required?: unknown; properties?: Record<string, { type?: unknown }> };
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [];
  return required.find((key) => schema.properties?.[key]?.type === 'string');
}

/**
 * A command line that would work, for the message about INPUT that is not
 * JSON: `call read README.md` gets `call read '{"path":"README.md"}'`.
 */
export function exampleCall(name: string, given?: string): string {
  const definition = definitionOf(name);
  const property = definition === undefined ? undefined : mainProperty(definition);
  if (definition === undefined || property === undefined) return `openwork-tools call read '{"path":"README.md"}'`;
  const value = given !== undefined && given.trim() !== '' && !given.includes('\n') ? given.trim() : property === 'command' ? 'git status' : 'README.md';
  return `openwork-tools call ${definition.name} ${shellQuote(JSON.stringify({ [property]: value }))}`;
}
