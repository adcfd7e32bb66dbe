import { toModelResult, type ToolSessionContext } from '@openwork/tool-contract';
import type { FinalizedToolset } from '../finalized-toolset.ts';
import { readFunctionCall } from './openai-arguments.ts';
import { runModelCalls, type ModelCall, type ToolLoopOptions } from './run-call.ts';

/** One function entry of `tool_calls` in an OpenAI chat-completions assistant message. */
export interface OpenAiToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A custom (free-text) tool call, the other member of openai's `ChatCompletionMessageToolCall`. */
export interface OpenAiCustomToolCall {
  readonly id: string;
  readonly type: 'custom';
  readonly custom: { readonly name: string; readonly input: string };
}

/** The `tool` message that answers one tool call. */
export interface OpenAiToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/**
 * A user message after the tool messages that carries the images results
 * returned: Chat Completions tool messages hold text only, so the images
 * follow as `image_url` parts (data URLs), each named by its call.
 */
export interface OpenAiImageMessage {
  readonly role: 'user';
  readonly content: ({ readonly type: 'text'; readonly text: string } | { readonly type: 'image_url'; readonly image_url: { readonly url: string } })[];
}

function toModelCall<Session extends ToolSessionContext>(toolset: FinalizedToolset<Session>, call: OpenAiToolCall | OpenAiCustomToolCall): ModelCall {
  if (call.type === 'function') return readFunctionCall(toolset, call.id, call.function.name, call.function.arguments);
  // The toolset advertises function tools only; a custom call to one of them is answered, never run.
  const { name } = call.custom;
  return { callId: call.id, name, invalid: { kind: 'invalid_input', message: `${name} is a function tool; call it with JSON arguments that match its schema` } };
}

/**
 * Runs an assistant message's `tool_calls` through the toolset and returns
 * one `tool` message per call, in the same order (absent `tool_calls` give
 * none), then, when any result returned images, one user message carrying
 * them as `image_url` parts with data URLs: Chat Completions tool messages
 * hold text only, so each such tool message says its images follow.
 * Arguments that are not JSON are an `invalid_input` result and run
 * nothing; so is a custom tool call, and one to a name the toolset does not
 * have is `unknown_tool`.
 */
export async function runOpenAiToolCalls<Session extends ToolSessionContext>(
  toolset: FinalizedToolset<Session>,
  toolCalls: readonly (OpenAiToolCall | OpenAiCustomToolCall)[] | undefined,
  options: ToolLoopOptions = {},
): Promise<(OpenAiToolMessage | OpenAiImageMessage)[]> {
  const calls = toolCalls ?? [];
  const results = await runModelCalls(
    toolset,
    calls.map((call) => toModelCall(toolset, call)),
    options,
  );
  const messages: (OpenAiToolMessage | OpenAiImageMessage)[] = [];
  const images: OpenAiImageMessage['content'][number][] = [];
  results.forEach((result, index) => {
    const model = toModelResult(result);
    const id = calls[index]?.id ?? result.callId;
    const attached = model.images ?? [];
    const note = attached.length === 0 ? '' : `\n(${attached.length === 1 ? 'its image follows' : `its ${attached.length} images follow`} in the next message)`;
    messages.push({ role: 'tool', tool_call_id: id, content: `${model.content}${note}` });
    if (attached.length === 0) return;
    images.push({ type: 'text', text: `Images returned by tool call ${id}:` });
    for (const image of attached) images.push({ type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } });
  });
  if (images.length > 0) messages.push({ role: 'user', content: images });
  return messages;
}
