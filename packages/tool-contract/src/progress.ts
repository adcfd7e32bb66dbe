/** Transient observations of a running call (docs/design.md §10): never part of the result. */
export type ToolProgress =
  | { readonly kind: 'stdout'; readonly chunk: string }
  | { readonly kind: 'stderr'; readonly chunk: string }
  | { readonly kind: 'message'; readonly message: string };

/** Where a call's progress goes; it may be slow, throw or reject. */
export type ProgressSender = (event: ToolProgress) => void | Promise<void>;

/**
 * Wraps a sink so that a failing sink never changes the call's result
 * (docs/design.md §10: a failure to send progress does not change the result). The returned function never throws
 * and never leaves a rejected promise behind.
 */
export function safeProgress(sink: ProgressSender | undefined): (event: ToolProgress) => void {
  if (!sink) return () => {};
  let broken = false;
  return (event) => {
    if (broken) return;
    try {
      const pending = sink(event);
      if (pending && typeof pending.then === 'function') {
        pending.then(undefined, () => {
          broken = true;
        });
      }
    } catch {
      broken = true;
    }
  };
}
