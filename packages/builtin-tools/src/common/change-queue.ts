import { ToolError } from '@openwork/tool-contract';
import type { BuiltinSession } from '../session.ts';

/**
 * One serial line for a session's file changes (docs/design.md §10: undo runs in
 * series with the session's new calls): write, edit and undo take it in the
 * order they are called, so an undo racing an edit lands wholly before or
 * wholly after it. Per-path locks and digest checks still guard against
 * other sessions and processes.
 */
export class ChangeQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `action` after everything queued before it; a cancel while waiting ends the wait, not the line. */
  run<T>(action: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#tail = previous.then(() => done);
    const waited = new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(new ToolError('cancelled', 'the call was cancelled while it waited for the session\'s earlier file changes'));
        return;
      }
      const onAbort = () => reject(new ToolError('cancelled', 'the call was cancelled while it waited for the session\'s earlier file changes'));
      signal?.addEventListener('abort', onAbort, { once: true });
      void previous.then(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
    return waited.then(action).finally(release);
  }
}

/** Runs a file change in the session's queue, when it has one. */
export function inChangeQueue<T>(session: Pick<BuiltinSession, 'changeQueue'>, signal: AbortSignal, action: () => Promise<T>): Promise<T> {
  return session.changeQueue === undefined ? action() : session.changeQueue.run(action, signal);
}
