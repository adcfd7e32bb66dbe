import type { ProgressSender } from './progress.ts';

/**
 * What lives as long as a session (docs/design.md §4). Tool packages extend it with the
 * services they need (file system, process backend, path guard); it holds no
 * turn token, call id, permission request or other core state.
 */
export interface ToolSessionContext {
  readonly workingDirectory: string;
  readonly environment: Readonly<Record<string, string>>;
}

/** What lives as long as one call (docs/design.md §5); no session or turn ids from core. */
export interface ToolCallContext {
  readonly callId: string;
  /** Derived from the turn's signal; aborted by a turn cancel or the deadline. */
  readonly signal: AbortSignal;
  /** Epoch milliseconds after which the call is `timed_out`. */
  readonly deadline?: number;
  readonly progress?: ProgressSender;
}
