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

export interface OkToolResult<Data = unknown> extends ResultBase {
  readonly status: 'ok';
  readonly data: Data;
}

export interface ErrorToolResult extends ResultBase {
  readonly status: 'error' | 'denied';
  readonly error: ToolErrorData;
  readonly data?: unknown;
}

/** Every call ends in exactly one of these (CONTRACT.md §3). */
export type ToolResult<Data = unknown> = OkToolResult<Data> | ErrorToolResult;

/** What the model adapter sends back: the text only, never the artifacts (seed §10). */
export interface ModelToolResult {
  readonly content: string;
  readonly isError: boolean;
}

export function toModelResult(result: ToolResult): ModelToolResult {
  return { content: result.output, isError: result.status !== 'ok' };
}

/** The model text of an error: its kind, then what to do next. */
export function errorText(error: ToolErrorData): string {
  return `Error [${error.kind}]: ${error.message}`;
}
