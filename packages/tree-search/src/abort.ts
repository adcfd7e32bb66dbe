import { abortKind, ToolError } from '@openwork/tool-contract';

/** The ToolError for an aborted signal: `cancelled` or `timed_out`, as the signal says (docs/design.md §5). */
export function abortedError(signal: AbortSignal, what: string): ToolError {
  const kind = abortKind(signal) ?? 'cancelled';
  const message =
    kind === 'timed_out' ? `the deadline passed while ${what}; nothing more was done` : `cancelled while ${what}; nothing more was done`;
  return new ToolError(kind, message, { cause: signal.reason });
}

/** Checked between steps so a cancel stops the next step from starting. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw abortedError(signal, what);
}
