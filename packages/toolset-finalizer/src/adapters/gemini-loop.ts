import { toModelResult, type ImageMediaType, type ToolSessionContext } from '@openwork/tool-contract';
import type { FinalizedToolset } from '../finalized-toolset.ts';
import { runModelCalls, type ToolLoopOptions } from './run-call.ts';

/**
 * A `functionCall` of a Gemini model turn (`FunctionCall` of
 * `@google/genai`, e.g. `response.functionCalls`). The SDK types every field
 * as optional; a call without a name is `unknown_tool`, one without `args`
 * has no arguments.
 */
export interface GeminiFunctionCall {
  readonly name?: string;
  readonly args?: Record<string, unknown>;
  readonly id?: string;
}

/** An image of a function response, as `FunctionResponsePart` inline data. */
export interface GeminiInlineDataPart {
  readonly inlineData: { readonly mimeType: ImageMediaType; readonly data: string };
}

/**
 * The part that answers one function call, for the next `user` content:
 * the model text under `response.output` (`response.error` for an error or
 * denied result, as Gemini asks), the call's `id` when it had one, and the
 * result's images as the response's own `parts`.
 */
export interface GeminiFunctionResponsePart {
  readonly functionResponse: {
    readonly id?: string;
    readonly name: string;
    readonly response: { readonly output: string } | { readonly error: string };
    readonly parts?: GeminiInlineDataPart[];
  };
}

/**
 * Runs a Gemini turn's `functionCall`s through the toolset and returns one
 * `functionResponse` part per call, in the same order (absent calls give
 * none): the model text of each result, never its artifacts
 * (docs/design.md §10), and its images as `inlineData` parts.
 */
export async function runGeminiFunctionCalls<Session extends ToolSessionContext>(
  toolset: FinalizedToolset<Session>,
  functionCalls: readonly GeminiFunctionCall[] | undefined,
  options: ToolLoopOptions = {},
): Promise<GeminiFunctionResponsePart[]> {
  const calls = functionCalls ?? [];
  const results = await runModelCalls(
    toolset,
    // A call without an id still needs one of its own, for the result and the undo journal.
    calls.map((call) => ({ callId: call.id ?? crypto.randomUUID(), name: call.name ?? '', input: call.args ?? {} })),
    options,
  );
  return results.map((result, index) => {
    const call = calls[index];
    const model = toModelResult(result);
    return {
      functionResponse: {
        ...(call?.id === undefined ? {} : { id: call.id }),
        name: call?.name ?? '',
        response: model.isError ? { error: model.content } : { output: model.content },
        ...(model.images === undefined ? {} : { parts: model.images.map((image) => ({ inlineData: { mimeType: image.mediaType, data: image.data } })) }),
      },
    };
  });
}
