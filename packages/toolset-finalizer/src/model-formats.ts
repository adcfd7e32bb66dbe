import type { ToolDefinition } from '@openwork/tool-contract';

/** The generic definition a client lists (`tools --json`, MCP). */
export interface GenericToolDefinition {
  readonly name: string;
  readonly id: string;
  readonly description: string;
  readonly risk: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** The Anthropic Messages API tool shape. */
export interface AnthropicToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Readonly<Record<string, unknown>>;
}

/** The OpenAI function-calling tool shape. */
export interface OpenAiToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Readonly<Record<string, unknown>>;
  };
}

export function toGeneric(definition: ToolDefinition): GenericToolDefinition {
  const { name, id, description, risk, inputSchema } = definition;
  return { name, id, description, risk, inputSchema };
}

export function toAnthropic(definition: ToolDefinition): AnthropicToolDefinition {
  return { name: definition.name, description: definition.description, input_schema: definition.inputSchema };
}

export function toOpenAi(definition: ToolDefinition): OpenAiToolDefinition {
  return {
    type: 'function',
    function: { name: definition.name, description: definition.description, parameters: definition.inputSchema },
  };
}
