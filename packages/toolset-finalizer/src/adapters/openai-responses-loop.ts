import { toModelResult, type ToolSessionContext } from '@openwork/tool-contract';
import type { FinalizedToolset } from '../finalized-toolset.ts';
import { readFunctionCall } from './openai-arguments.ts';
import { runModelCalls, type ToolLoopOptions } from './run-call.ts';

/** A `function_call` item of an OpenAI Responses API output. */
export interface OpenAiFunctionCallItem {
  readonly type: 'function_call';
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

/** Any output item of a response; only `function_call` items are run. */
export type OpenAiResponseOutputItem = OpenAiFunctionCallItem | { readonly type: string; readonly [field: string]: unknown };

/** The input item that answers one function call, for the next request. */
export interface OpenAiFunctionCallOutputItem {
  readonly type: 'function_call_output';
  readonly call_id: string;
  /** The model text; with images, an `input_text` part then one `input_image` part (a data URL) each. */
  readonly output:
    | string
    | ({ readonly type: 'input_text'; readonly text: string } | { readonly type: 'input_image'; readonly image_url: string; readonly detail: 'auto' })[];
}

function isFunctionCall(item: { readonly type: string }): item is OpenAiFunctionCallItem {
  return item.type === 'function_call';
}

/**
 * Runs the `function_call` items of a response's `output` through the
 * toolset and returns their `function_call_output` items, in order: the
 * model text of each result, never its artifacts (docs/design.md §10). An error has
 * no flag in this API; its text says so ("Error [kind]: …"). Arguments that
 * are not JSON run nothing, and strict mode's nulls are read back as absent.
 */
export async function runOpenAiResponsesCalls<Session extends ToolSessionContext, Item extends { readonly type: string } = OpenAiResponseOutputItem>(
  toolset: FinalizedToolset<Session>,
  // Generic over the item type, so the SDK's `ResponseOutputItem` interfaces fit as they are.
  output: readonly Item[],
  options: ToolLoopOptions = {},
): Promise<OpenAiFunctionCallOutputItem[]> {
  const calls: OpenAiFunctionCallItem[] = [];
  for (const item of output) if (isFunctionCall(item)) calls.push(item);
  const results = await runModelCalls(
    toolset,
    calls.map((call) => readFunctionCall(toolset, call.call_id, call.name, call.arguments)),
    options,
  );
  return results.map((result, index) => {
    const model = toModelResult(result);
    return {
      type: 'function_call_output',
      call_id: calls[index]?.call_id ?? result.callId,
      output:
        model.images === undefined
          ? model.content
          : [
              { type: 'input_text', text: model.content },
              ...model.images.map((image) => ({ type: 'input_image' as const, image_url: `data:${image.mediaType};base64,${image.data}`, detail: 'auto' as const })),
            ],
    };
  });
}
