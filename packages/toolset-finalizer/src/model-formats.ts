// Every provider's tool shape derives from the one `ToolDefinition`, so the
// schema a model sees and the validator a call meets come from the same
// TypeBox object. The types are local (no SDK is imported) and written so
// that each SDK's own types accept them without a cast.
import type { ToolDefinition } from '@openwork/tool-contract';
import { toGeminiSchema } from './schema/gemini-schema.ts';
import { schemaEntries } from './schema/json-schema.ts';
import { toOpenAiStrictSchema } from './schema/openai-strict.ts';

/** The generic definition a client lists (`tools --json`, MCP). */
export interface GenericToolDefinition {
  readonly name: string;
  readonly id: string;
  readonly description: string;
  readonly risk: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** A tool's input schema, always an object schema (the contract builds it from a TypeBox object). */
export interface ObjectInputSchema {
  readonly type: 'object';
  readonly [keyword: string]: unknown;
}

/** The Anthropic Messages API tool shape (`Anthropic.Tool`). */
export interface AnthropicToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly input_schema: ObjectInputSchema;
}

/** The OpenAI Chat Completions function tool shape (`ChatCompletionFunctionTool`). */
export interface OpenAiToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Readonly<Record<string, unknown>>;
    /** Present, and true, only for strict definitions. */
    readonly strict?: boolean;
  };
}

/** The OpenAI Responses API function tool shape (`FunctionTool`). */
export interface OpenAiResponsesToolDefinition {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly strict: boolean;
}

/** A Gemini function declaration (`FunctionDeclaration` of `@google/genai`). */
export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description: string;
  /** Gemini's OpenAPI-subset schema; absent for a tool that takes no parameters, as Gemini asks. */
  readonly parameters?: Readonly<Record<string, unknown>>;
}

export interface OpenAiDefinitionOptions {
  /**
   * Strict mode (Structured Outputs): the schema of `toOpenAiStrictSchema`
   * and `strict: true`; the OpenAI loops read the model's nulls back as
   * absent. Default: off for Chat Completions, on for Responses, each
   * API's own default.
   */
  readonly strict?: boolean;
}

export function toGeneric(definition: ToolDefinition): GenericToolDefinition {
  const { name, id, description, risk, inputSchema } = definition;
  return { name, id, description, risk, inputSchema };
}

export function toAnthropic(definition: ToolDefinition): AnthropicToolDefinition {
  return { name: definition.name, description: definition.description, input_schema: objectInputSchema(definition) };
}

export function toOpenAi(definition: ToolDefinition, options: OpenAiDefinitionOptions = {}): OpenAiToolDefinition {
  const { name, description } = definition;
  if (options.strict !== true) return { type: 'function', function: { name, description, parameters: definition.inputSchema } };
  return { type: 'function', function: { name, description, parameters: toOpenAiStrictSchema(objectInputSchema(definition)), strict: true } };
}

export function toOpenAiResponses(definition: ToolDefinition, options: OpenAiDefinitionOptions = {}): OpenAiResponsesToolDefinition {
  const strict = options.strict ?? true;
  const schema = objectInputSchema(definition);
  return { type: 'function', name: definition.name, description: definition.description, parameters: strict ? toOpenAiStrictSchema(schema) : schema, strict };
}

export function toGemini(definition: ToolDefinition): GeminiFunctionDeclaration {
  const schema = objectInputSchema(definition);
  const declaration = { name: definition.name, description: definition.description };
  return schemaEntries(schema.properties).length === 0 ? declaration : { ...declaration, parameters: toGeminiSchema(schema) };
}

/** The input schema, checked to be the object schema every provider requires at the root. */
function objectInputSchema(definition: ToolDefinition): ObjectInputSchema {
  const schema = definition.inputSchema;
  if (schema.type !== 'object') throw new TypeError(`the input schema of ${definition.name} is not an object schema`);
  return schema as ObjectInputSchema;
}
