import type { Artifact } from './artifact.ts';
import type { PermissionDecision } from './decision.ts';
import type { ToolErrorData } from './tool-error.ts';
import type { ToolId } from './tool-id.ts';

interface ResultBase {
  readonly tool: string;
  readonly toolId: ToolId | null;
  readonly callId: string;
  /** The text the model sees; artifacts never appear in it. */
  readonly output: string;
  readonly decision?: PermissionDecision;
  readonly artifacts: readonly Artifact[];
}

/** The image types a result may carry: the ones the Anthropic, OpenAI and MCP image parts all accept. */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/**
 * An image for the model, beside the text (read of an image file, a
 * notebook's image output). `data` is the file's bytes in standard base64
 * (RFC 4648 §4, padded, no line breaks, no `data:` prefix): what an Anthropic
 * `image` block's base64 source, an OpenAI data URL after
 * `data:<mediaType>;base64,` and MCP `image` content each take as they are.
 */
export interface ImagePart {
  readonly type: 'image';
  readonly mediaType: ImageMediaType;
  readonly data: string;
}

export interface OkToolResult<Data = unknown> extends ResultBase {
  readonly status: 'ok';
  readonly data: Data;
  /**
   * Images for the model, in the order the output text names them; absent
   * when there are none. Like `output`, what the model sees (unlike `data`).
   */
  readonly images?: readonly ImagePart[];
}

export interface ErrorToolResult extends ResultBase {
  readonly status: 'error' | 'denied';
  readonly error: ToolErrorData;
  readonly data?: unknown;
}

/** Every call ends in exactly one of these (docs/contract.md §3). */
export type ToolResult<Data = unknown> = OkToolResult<Data> | ErrorToolResult;

/** What the model adapter sends back: the text and any images, never the artifacts (docs/design.md §10). */
export interface ModelToolResult {
  readonly content: string;
  readonly isError: boolean;
  /** The ok result's images, to send after the text as image parts; absent when there are none. */
  readonly images?: readonly ImagePart[];
}

export function toModelResult(result: ToolResult): ModelToolResult {
  const images = result.status === 'ok' ? result.images : undefined;
  return { content: result.output, isError: result.status !== 'ok', ...(images !== undefined && images.length > 0 ? { images } : {}) };
}

/** The model text of an error: its kind, then what to do next. */
export function errorText(error: ToolErrorData): string {
  return `Error [${error.kind}]: ${error.message}`;
}
