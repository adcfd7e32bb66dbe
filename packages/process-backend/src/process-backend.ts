/** How a command ended (CONTRACT.md §3 bash). */
export type ProcessStatus = 'exited' | 'timed_out' | 'cancelled' | 'outcome_unknown';

/** One stream as kept: head and tail within the caps, and exactly how much was left out. */
export interface CapturedOutput {
  readonly text: string;
  readonly totalBytes: number;
  readonly omittedBytes: number;
  readonly truncated: boolean;
}

export interface CaptureLimits {
  /** Bytes kept from the start of each stream; default 32 KiB. */
  readonly headBytes: number;
  /** Bytes kept from the end of each stream; default 32 KiB. */
  readonly tailBytes: number;
}

export interface SpawnRequest {
  /** argv[0] is the program; no shell is added by the backend. */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The whole environment of the child: nothing is inherited beyond it. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Aborting ends the whole process group (TERM, grace, KILL). The reason's
   * kind (tool-contract `abortKind`) makes the status `timed_out` or `cancelled`.
   */
  readonly signal: AbortSignal;
  /** Decoded chunks as they arrive (UTF-8, never split inside a character). */
  readonly onStdout?: (chunk: string) => void;
  readonly onStderr?: (chunk: string) => void;
  readonly capture?: Partial<CaptureLimits>;
  /** Between TERM and KILL; default 2000 ms. */
  readonly killGraceMs?: number;
  /** How long output is drained after the leader exits; default 2000 ms. */
  readonly drainMs?: number;
}

export interface ProcessExit {
  readonly status: ProcessStatus;
  readonly exitCode: number | null;
  /** The signal that ended the leader, e.g. `SIGTERM`. */
  readonly signal: string | null;
  readonly stdout: CapturedOutput;
  /** Empty for a pty, whose one stream is stdout. */
  readonly stderr: CapturedOutput;
  readonly durationMs: number;
}

export type Availability = { readonly available: true } | { readonly available: false; readonly reason: string };

/**
 * Where commands run (seed §4, §5). Each command gets its own process group;
 * the backend keeps a table of live groups and `dispose` kills them all.
 * `run` throws ToolError `spawn_failed` when the command cannot start.
 */
export interface ProcessBackend {
  readonly name: string;
  availability(): Promise<Availability>;
  run(request: SpawnRequest): Promise<ProcessExit>;
  /** Process groups still alive (for tests and the session's disposal). */
  liveGroups(): readonly number[];
  /** Kills every live group (TERM, grace, KILL) and waits for them. */
  dispose(): Promise<void>;
}
