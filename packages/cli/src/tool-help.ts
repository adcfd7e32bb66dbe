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

type Properties = Record<string, { type?: unknown }>;

function schemaOf(definition: ToolDefinition): { required: string[]; properties: Properties } {
  const schema = definition.inputSchema as { required?: unknown; properties?: Properties };
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [];
  return { required, properties: schema.properties ?? {} };
}

/** The first required string property of a tool's input: what a bare word on the command line most likely meant. */
function mainProperty(definition: ToolDefinition): string | undefined {
  const { required, properties } = schemaOf(definition);
  return required.find((key) => properties[key]?.type === 'string');
}

/** A plausible value of a required property, by its name and type. */
const SAMPLE: Readonly<Record<string, unknown>> = { path: 'README.md', command: 'git status', pattern: 'TODO', content: 'hello\n', backgroundId: 'bg-1', input: 'y\n', oldText: 'old', newText: 'new' };

function sample(key: string, type: unknown): unknown {
  if (key in SAMPLE) return SAMPLE[key];
  return type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : 'text';
}

/**
 * An INPUT the tool takes, as JSON: every required property with a
 * plausible value, `given` as the main one's when it is one word or line.
 * A tool that requires nothing gets `{"path":"."}` where it takes a path.
 */
export function exampleInput(name: string, given?: string): string {
  const definition = definitionOf(name);
  if (definition === undefined) return '{"path":"README.md"}';
  const { required, properties } = schemaOf(definition);
  const main = mainProperty(definition);
  const input: Record<string, unknown> = {};
  for (const key of required) input[key] = sample(key, properties[key]?.type);
  if (main !== undefined && given !== undefined && given.trim() !== '' && !given.includes('\n')) input[main] = given.trim();
  if (required.length === 0 && 'path' in properties) input['path'] = '.';
  // edit requires only the path, and then one replacement or a list of them.
  if ('oldText' in properties && 'newText' in properties && !required.includes('oldText')) Object.assign(input, { oldText: SAMPLE['oldText'], newText: SAMPLE['newText'] });
  return JSON.stringify(input);
}

/**
 * A command line that would work, for the message about INPUT that is not
 * JSON or does not fit the schema: `call read README.md` gets
 * `call read '{"path":"README.md"}'`.
 */
export function exampleCall(name: string, given?: string): string {
  const known = definitionOf(name) !== undefined;
  return `openwork-tools call ${known ? name : 'read'} ${shellQuote(exampleInput(known ? name : 'read', given))}`;
}
