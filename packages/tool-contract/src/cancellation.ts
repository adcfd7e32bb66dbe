import type { ProgressSender } from './progress.ts';
import type { ToolCallContext } from './context.ts';

/** Why a signal was aborted: a user cancel or a deadline; one path, two names. */
export type AbortKind = 'cancelled' | 'timed_out';

/** The reason carried by every signal this module aborts. */
export class CallAborted extends Error {
  readonly kind: AbortKind;

  constructor(kind: AbortKind, message?: string) {
    super(message ?? (kind === 'timed_out' ? 'the call reached its deadline' : 'the call was cancelled'));
    this.name = 'CallAborted';
    this.kind = kind;
  }
}

/** How an aborted signal ended; undefined while it is live. Foreign reasons count as a cancel. */
export function abortKind(signal: AbortSignal): AbortKind | undefined {
  if (!signal.aborted) return undefined;
  const reason: unknown = signal.reason;
  return reason instanceof CallAborted ? reason.kind : 'cancelled';
}

export interface DerivedSignal {
  readonly signal: AbortSignal;
  /** Detaches from the parent and clears the deadline timer; call it when the call ends. */
  readonly release: () => void;
}

/**
 * A child signal that aborts when the parent does (as `cancelled`, unless the
 * parent itself timed out) or when the deadline passes (as `timed_out`).
 * docs/design.md §5: timeout and user cancel end in the same signal.
 */
export function deriveSignal(parent: AbortSignal | undefined, deadline?: number): DerivedSignal {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onParentAbort = () => {
    const kind = parent ? abortKind(parent) : undefined;
    controller.abort(new CallAborted(kind ?? 'cancelled'));
  };
  const release = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    parent?.removeEventListener('abort', onParentAbort);
  };
  if (parent?.aborted) {
    onParentAbort();
    return { signal: controller.signal, release };
  }
  parent?.addEventListener('abort', onParentAbort, { once: true });
  if (deadline !== undefined) {
    const delay = Math.max(0, deadline - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      controller.abort(new CallAborted('timed_out'));
    }, delay);
  }
  controller.signal.addEventListener('abort', release, { once: true });
  return { signal: controller.signal, release };
}

export interface CallOptions {
  readonly callId: string;
  /** Relative timeout; the deadline is the earlier of this and `deadline`. */
  readonly timeoutMs?: number;
  readonly deadline?: number;
  readonly progress?: ProgressSender;
}

/** One call in a turn: its context and the release of its signal. */
export interface ActiveCall {
  readonly context: ToolCallContext;
  readonly end: () => void;
}

/**
 * A turn's cancellation scope (docs/design.md §5): every call derives its own signal
 * from the turn's, and cancelling the turn aborts every active call at once.
 * A new turn gets a new scope; the session keeps none.
 */
export class TurnScope {
  readonly #controller = new AbortController();
  readonly #active = new Set<ActiveCall>();

  constructor(parent?: AbortSignal) {
    if (parent) {
      const derived = deriveSignal(parent);
      derived.signal.addEventListener('abort', () => this.cancel(), { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get activeCalls(): number {
    return this.#active.size;
  }

  cancel(message?: string): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(new CallAborted('cancelled', message));
  }

  startCall(options: CallOptions): ActiveCall {
    const deadline = earliest(options.deadline, options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs);
    const derived = deriveSignal(this.#controller.signal, deadline);
    const call: ActiveCall = {
      context: {
        callId: options.callId,
        signal: derived.signal,
        ...(deadline === undefined ? {} : { deadline }),
        ...(options.progress ? { progress: options.progress } : {}),
      },
      end: () => {
        derived.release();
        this.#active.delete(call);
      },
    };
    this.#active.add(call);
    return call;
  }
}

function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
