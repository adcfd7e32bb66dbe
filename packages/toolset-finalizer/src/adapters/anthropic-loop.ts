import { toModelResult, type ToolSessionContext } from '@openwork/tool-contract';
import type { FinalizedToolset } from '../finalized-toolset.ts';
import { runModelCalls, type ToolLoopOptions } from './run-call.ts';

/** A `tool_use` block of an Anthropic Messages assistant message. */
export interface AnthropicToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** Any block of an assistant message's content; only `tool_use` blocks are run. */
export type AnthropicContentBlock = AnthropicToolUseBlock | { readonly type: string; readonly [field: string]: unknown };

/** A part of a tool result's content when the result carries images. */
export type AnthropicToolResultContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly source: { readonly type: 'base64'; readonly media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; readonly data: string } };

/** What goes back in the next user message, one per `tool_use`, in the same order. */
export interface AnthropicToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  /** The model text; with images, the text then one image block each. */
  readonly content: string | AnthropicToolResultContent[];
  readonly is_error?: true;
}

function isToolUse(block: { readonly type: string }): block is AnthropicToolUseBlock {
  return block.type === 'tool_use';
}

/**
 * Runs the `tool_use` blocks of an assistant message through the toolset
 * and returns their `tool_result` blocks: the model text of each result,
 * never its artifacts (docs/design.md §10).
 */
export async function runAnthropicToolUses<Session extends ToolSessionContext, Block extends { readonly type: string } = AnthropicContentBlock>(
  toolset: FinalizedToolset<Session>,
  // Generic over the block type: the SDK's `ContentBlock` interfaces have no
  // index signature, so they fit a type parameter but not `AnthropicContentBlock`.
  content: readonly Block[],
  options: ToolLoopOptions = {},
): Promise<AnthropicToolResultBlock[]> {
  const uses: AnthropicToolUseBlock[] = [];
  for (const block of content) if (isToolUse(block)) uses.push(block);
  const results = await runModelCalls(
    toolset,
    uses.map((block) => ({ callId: block.id, name: block.name, input: block.input })),
    options,
  );
  return results.map((result, index) => {
    const model = toModelResult(result);
    return {
      type: 'tool_result',
      tool_use_id: uses[index]?.id ?? result.callId,
      content:
        model.images === undefined
          ? model.content
          : [
              { type: 'text', text: model.content },
              ...model.images.map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mediaType, data: image.data } })),
            ],
      ...(model.isError ? { is_error: true } : {}),
    };
  });
}
