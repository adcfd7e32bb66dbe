import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toModelResult, type ToolProgress, type ToolResult } from '@openwork/tool-contract';

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * docs/contract.md §5: the output as text, isError for error and denied results,
 * data as structured content; never the artifacts (docs/design.md §10).
 */
export function toMcpCallResult(result: ToolResult, options: { readonly outputSchema?: boolean } = {}): CallToolResult {
  const model = toModelResult(result);
  const data: unknown = result.data;
  // A tool's outputSchema describes an ok result's data; an error's data has another shape and stays in the text.
  const structured = isJsonObject(data) && (result.status === 'ok' || options.outputSchema !== true);
  return {
    content: [{ type: 'text', text: model.content }, ...(model.images ?? []).map((image) => ({ type: 'image' as const, data: image.data, mimeType: image.mediaType }))],
    isError: model.isError,
    // A round trip drops what JSON cannot carry (undefined fields), as the wire would.
    ...(structured ? { structuredContent: JSON.parse(JSON.stringify(data)) as Record<string, unknown> } : {}),
  };
}

/** The text a progress notification carries for one event of the call. */
export function progressMessage(event: ToolProgress): string {
  return event.kind === 'message' ? event.message : event.chunk;
}
