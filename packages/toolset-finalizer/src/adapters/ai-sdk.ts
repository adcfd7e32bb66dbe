// The Vercel AI SDK adapter. It is its own entry point
// (`@openwork/toolset-finalizer/ai-sdk`) because `ai` is an optional peer:
// the root entry never imports it.
import { toModelResult, TurnScope, type ErrorToolResult, type ToolSessionContext } from '@openwork/tool-contract';
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import type { FinalizedToolset } from '../finalized-toolset.ts';
import { toModelOutput, type AiSdkToolOutput } from './ai-sdk-output.ts';
import { runModelCall, type CallStarter, type ToolLoopOptions } from './run-call.ts';

/** How the AI SDK tools run their calls; the SDK decides the order. */
export type AiSdkToolsOptions = Omit<ToolLoopOptions, 'parallel'>;

/**
 * What the SDK passes `execute`: the call id, its abort signal, the
 * messages. Read off `Tool` rather than imported by name, because the name
 * and its type parameters differ between the majors the peer range admits
 * (`ToolCallOptions` in ai 5, `ToolExecutionOptions` in 6, generic over a
 * context in 7), and this file compiles against each.
 */
type ExecutionOptions = Parameters<NonNullable<Tool<unknown, AiSdkToolOutput>['execute']>>[1];

/**
 * One AI SDK tool: JSON input; out, the model text, or the text and its
 * images, which `toModelOutput` sends the model as media parts.
 */
export type AiSdkTool = Tool<unknown, AiSdkToolOutput> & { execute: (input: unknown, options: ExecutionOptions) => Promise<AiSdkToolOutput> };

/**
 * What an AI SDK tool's `execute` throws for an error or denied result.
 * The SDK turns a throw into a `tool-error` part (its retry and UI logic
 * see a failed call) and sends the model an `error-text` output: the
 * result's model text ("Error [kind]: …"), as every adapter sends it.
 * `result` is the full result, for the product's own handling.
 */
export class ToolResultError extends Error {
  override readonly name = 'ToolResultError';
  readonly result: ErrorToolResult;

  constructor(result: ErrorToolResult) {
    super(result.output);
    this.result = result;
  }

  /** The model text alone: the SDK sends the model `toString()` of what `execute` threw. */
  override toString(): string {
    return this.message;
  }
}

/**
 * The finalized toolset as an AI SDK tool set, for `generateText` /
 * `streamText`: the same definitions, each `execute` running
 * `FinalizedToolset.call` with the SDK's abort signal wired to the call.
 * An ok result gives the model its text, and its images as media parts of
 * the tool result (`toModelOutput`), never its artifacts (docs/design.md §10);
 * an error or denied result rejects with a `ToolResultError`, the SDK's
 * way of reporting a tool error.
 */
export function aiSdkTools<Session extends ToolSessionContext>(
  toolset: FinalizedToolset<Session>,
  options: AiSdkToolsOptions = {},
): Record<string, AiSdkTool> {
  const turn = options.turn ?? new TurnScope();
  const tools: Record<string, AiSdkTool> = {};
  for (const definition of toolset.definitions) {
    const execute = async (input: unknown, execution: ExecutionOptions): Promise<AiSdkToolOutput> => {
      const starter = execution.abortSignal === undefined ? turn : withSignal(turn, execution.abortSignal);
      const result = await runModelCall(toolset, { callId: execution.toolCallId, name: definition.name, input }, options, starter);
      if (result.status !== 'ok') throw new ToolResultError(result);
      const model = toModelResult(result);
      return model.images === undefined ? model.content : { text: model.content, images: model.images };
    };
    tools[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(definition.inputSchema as JSONSchema7),
      execute,
      // Its parameter and parts differ between the majors (ai-sdk-output.ts), so it is typed as each one's own.
      toModelOutput: toModelOutput as NonNullable<Tool['toModelOutput']>,
    }) as AiSdkTool;
  }
  return tools;
}

/** The turn's calls, also aborted by the SDK's signal (a foreign abort counts as a cancel). */
function withSignal(turn: CallStarter, signal: AbortSignal): CallStarter {
  return {
    startCall(callOptions) {
      const active = turn.startCall(callOptions);
      return { context: { ...active.context, signal: AbortSignal.any([active.context.signal, signal]) }, end: active.end };
    },
  };
}

export type { AiSdkImageOutput } from './ai-sdk-output.ts';
export type { AiSdkToolOutput } from './ai-sdk-output.ts';
