import type { OutputSink } from './output-sink.ts';

/** How the group leader ended. */
export interface LeaderExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** A spawned command as the supervisor sees it, whatever started it (pipes or a pty). */
export interface StartedChild {
  /** The leader's pid, which is also its process group id. */
  readonly pid: number;
  readonly exited: Promise<LeaderExit>;
  /** Resolves when every output stream has ended. */
  readonly drained: Promise<void>;
  /** Stops reading and removes every listener; called once, at the end. */
  release(): void;
}

export interface OutputSinks {
  readonly stdout: OutputSink;
  readonly stderr: OutputSink;
}

/**
 * Starts the command or throws ToolError `spawn_failed`. `argv` is what to
 * spawn: the request's own, or a shim that joins the command's cgroup first;
 * `env` the request's, with the scratch directory added when it asked for one.
 */
export type StartChild = (sinks: OutputSinks, argv: readonly string[], env: Readonly<Record<string, string>>) => Promise<StartedChild>;

