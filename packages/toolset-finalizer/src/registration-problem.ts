import { toolId } from '@openwork/tool-contract';

/** What defineTool accepts as a name (tool-contract's TOOL_NAME): what model providers accept. */
const TOOL_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
const RISKS = new Set(['read', 'write', 'execute']);

type Fields = Readonly<Record<string, unknown>>;

/** How an error names what was being registered: `tool "read" (filesystem/read)`, or what it was when it is no tool at all. */
export function toolLabel(tool: unknown): string {
  if (typeof tool !== 'object' || tool === null) return `${tool === null || tool === undefined ? String(tool) : withArticle(typeof tool)}, not a tool`;
  const fields = ('definition' in tool && typeof tool.definition === 'object' && tool.definition !== null ? tool.definition : tool) as Fields;
  const name = typeof fields['name'] === 'string' ? `tool ${JSON.stringify(fields['name'])}` : 'a tool with no name';
  return typeof fields['id'] === 'string' ? `${name} (${fields['id']})` : name;
}

/**
 * Why `tool` cannot be registered, or undefined: what `register` checks of
 * a hand-made object before adapting it, so that the error names the tool
 * and the field instead of failing later, at its first call.
 */
export function registrationProblem(tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return 'register takes a tool made with defineTool (from @openwork/tool-contract) or an adapted one';
  if ('prepare' in tool) {
    const definition = (tool as { definition?: unknown }).definition;
    if (typeof definition !== 'object' || definition === null) return 'an adapted tool (with prepare) needs its definition';
    return fieldProblem(definition as Fields, { input: 'inputSchema' });
  }
  const fields = tool as Fields;
  const problem = fieldProblem(fields, { input: 'input' });
  if (problem !== undefined) return problem;
  for (const method of ['effect', 'execute'] as const) {
    if (typeof fields[method] !== 'function') return `its ${method} is ${describe(fields[method])}, not a function; make the tool with defineTool`;
  }
  return undefined;
}

const withArticle = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

function describe(value: unknown): string {
  return value === undefined ? 'missing' : value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : withArticle(typeof value);
}

function fieldProblem(fields: Fields, names: { readonly input: string }): string | undefined {
  const { name, id, description, risk } = fields;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) return `its name is ${describe(name)}; a name is a letter, then up to 63 letters, digits, _ or - (what a model provider accepts)`;
  if (typeof id !== 'string' || !validId(id)) return `its id is ${describe(id)}; an id looks like "group/name", in lower case`;
  if (typeof description !== 'string' || description.trim() === '') return `its description is ${describe(description)}; the model chooses tools by their descriptions`;
  if (typeof risk !== 'string' || !RISKS.has(risk)) return `its risk is ${describe(risk)}, not read, write or execute; the permission policy decides by it`;
  const schema = fields[names.input];
  if (typeof schema !== 'object' || schema === null || (schema as Fields)['type'] !== 'object') return `its ${names.input} is ${describe(schema)}, not an object schema (Type.Object from typebox)`;
  return undefined;
}

function validId(id: string): boolean {
  try {
    toolId(id);
    return true;
  } catch {
    return false;
  }
}
