import type { ContainmentKind, ContainmentReport, LimitKind, ProcessLimits } from './containment.ts';

/** How a command ended (docs/contract.md §3 bash). */
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
  /**
   * Limits for this command, each field over the backend's default (processes
   * 512, memory none). Enforced only under a cgroup that has the controller
   * (`ProcessBackend.containment()` says which).
   */
  readonly limits?: ProcessLimits;
  /**
   * Gives the command a scratch directory of its own as `TMPDIR`, `TMP` and
   * `TEMP`: made (mode 0700, under the OS temp directory) before it starts,
   * removed with everything in it once the command and every process it
   * started have ended, so temporary files never land in a shared place or
   * outlive the command.
   */
  readonly scratchDirectory?: boolean;
  /**
   * pty backend only: called once the terminal is open with a function that
   * types into it (answers to prompts, a REPL line, `\u0003` for Ctrl-C);
   * the terminal's input then stays open instead of getting an end-of-file
   * at the start. Writes after the command has ended are dropped and return false.
   * The pipe backend has no terminal: it refuses such a request as `invalid_input`.
   */
  readonly terminalInput?: (write: (data: string) => boolean) => void;
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
  /** What held the command's processes: its own cgroup, or only its process group. */
  readonly containment: ContainmentKind;
  /**
   * The limit that ended or constrained the command: `memory` when the OOM
   * killer ended it at its own memory limit, `session_memory` when it was
   * ended because the commands of the backend together reached their shared
   * cap, else `processes` when a fork was refused at the process limit.
   * Absent when no limit was reached.
   */
  readonly limitHit?: LimitKind;
  /**
   * Processes other than the leader that the backend ended: those left behind
   * when the leader exited (daemons, `setsid` and `nohup` children), or those
   * running beside it at a timeout or cancel. Under a process group only the
   * group's members are seen, and only where /proc can be read.
   */
  readonly processesEndedAfterExit: number;
}

export type Availability = { readonly available: true } | { readonly available: false; readonly reason: string };

/**
 * Where commands run (docs/design.md §4, §5). Each command gets its own process group,
 * and its own cgroup where the host allows (docs/decisions/0008); the backend
 * keeps a table of live commands and `dispose` kills them all.
 * `run` throws ToolError `spawn_failed` when the command cannot start.
 */
export interface ProcessBackend {
  readonly name: string;
  availability(): Promise<Availability>;
  /** Which containment is in force for this backend's commands, and why. */
  containment(): Promise<ContainmentReport>;
  run(request: SpawnRequest): Promise<ProcessExit>;
  /** Process groups still alive (for tests and the session's disposal). */
  liveGroups(): readonly number[];
  /** Kills every live command (TERM, grace, KILL; the whole cgroup where there is one) and waits for them. */
  dispose(): Promise<void>;
}
