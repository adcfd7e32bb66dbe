// The Vercel AI SDK adapter. It is its own entry point
// (`@openwork/toolset-finalizer/ai-sdk`) because `ai` is an optional peer:
// the root entry never imports it.
import { TurnScope, type ToolSessionContext } from '@openwork/tool-contract';
import { jsonSchema, tool, type JSONSchema7, type Tool, type ToolExecutionOptions } from 'ai';
import type { FinalizedToolset } from '../finalized-toolset.ts';
import { runModelCall, type CallStarter, type ToolLoopOptions } from './run-call.ts';

/** How the AI SDK tools run their calls; the SDK decides the order. */
export type AiSdkToolsOptions = Omit<ToolLoopOptions, 'parallel'>;

/** One AI SDK tool: JSON input, the model text out. */
export type AiSdkTool = Tool<unknown, string> & { execute: (input: unknown, options: ToolExecutionOptions<unknown>) => Promise<string> };

/**
 * The finalized toolset as an AI SDK tool set, for `generateText` /
 * `streamText`: the same definitions, each `execute` running
 * `FinalizedToolset.call` with the SDK's abort signal wired to the call.
 * The model gets the result's text, never its artifacts (seed §10); an
 * error result is text too ("Error [kind]: …"), so the model can act on it.
 */
export function aiSdkTools<Session extends ToolSessionContext>(
  toolset: FinalizedToolset<Session>,
  options: AiSdkToolsOptions = {},
): Record<string, AiSdkTool> {
  const turn = options.turn ?? new TurnScope();
  const tools: Record<string, AiSdkTool> = {};
  for (const definition of toolset.definitions) {
    const execute = async (input: unknown, execution: ToolExecutionOptions<unknown>): Promise<string> => {
      const starter = execution.abortSignal === undefined ? turn : withSignal(turn, execution.abortSignal);
      const result = await runModelCall(toolset, { callId: execution.toolCallId, name: definition.name, input }, options, starter);
      return result.output;
    };
    tools[definition.name] = tool<unknown, string, Record<string, unknown>>({
      description: definition.description,
      inputSchema: jsonSchema(definition.inputSchema as JSONSchema7),
      execute,
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
