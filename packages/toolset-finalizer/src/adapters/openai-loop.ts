import { toModelResult, type ToolSessionContext } from '@openwork/tool-contract';
import type { FinalizedToolset } from '../finalized-toolset.ts';
import { runModelCalls, type ModelCall, type ToolLoopOptions } from './run-call.ts';

/** One entry of `tool_calls` in an OpenAI chat-completions assistant message. */
export interface OpenAiToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** The `tool` message that answers one tool call. */
export interface OpenAiToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

function toModelCall(call: OpenAiToolCall): ModelCall {
  const { name, arguments: text } = call.function;
  try {
    return { callId: call.id, name, input: JSON.parse(text) as unknown };
  } catch {
    return {
      callId: call.id,
      name,
      invalid: { kind: 'invalid_input', message: `the arguments of ${name} are not JSON; send one JSON object that matches the tool's schema` },
    };
  }
}

/**
 * Runs an assistant message's `tool_calls` through the toolset and returns
 * one `tool` message per call, in the same order. Arguments that are not
 * JSON are an `invalid_input` result and run nothing.
 */
export async function runOpenAiToolCalls<Session extends ToolSessionContext>(
  toolset: FinalizedToolset<Session>,
  toolCalls: readonly OpenAiToolCall[],
  options: ToolLoopOptions = {},
): Promise<OpenAiToolMessage[]> {
  const results = await runModelCalls(toolset, toolCalls.map(toModelCall), options);
  return results.map((result, index) => ({
    role: 'tool',
    tool_call_id: toolCalls[index]?.id ?? result.callId,
    content: toModelResult(result).content,
  }));
}
