import type { ErrorKind } from './error-kinds.ts';

/** What a tool tells the model went wrong: a kind from the closed set and a next step. */
export interface ToolErrorData {
  readonly kind: ErrorKind;
  readonly message: string;
}

/**
 * Thrown inside a tool (or a backend it calls) to end the call with an error
 * result of this kind. Anything else thrown becomes an `io` error result.
 */
export class ToolError extends Error {
  readonly kind: ErrorKind;

  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolError';
    this.kind = kind;
  }

  toData(): ToolErrorData {
    return { kind: this.kind, message: this.message };
  }
}

export function isToolError(value: unknown): value is ToolError {
  return value instanceof ToolError;
}
