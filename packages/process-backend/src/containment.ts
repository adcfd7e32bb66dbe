/**
 * How a command's processes are held together (docs/decisions/0008): a
 * cgroup holds every process the command starts, whatever it does with
 * sessions and groups; a process group holds only those that stay in it.
 */
export type ContainmentKind = 'cgroup' | 'process_group';

/**
 * A limit that ended or constrained a command: its own process or memory
 * limit, or the memory cap all commands of one backend share
 * (`session_memory`), reached while this command was one of those running.
 */
export type LimitKind = 'processes' | 'memory' | 'session_memory';

export interface ProcessLimits {
  /**
   * Processes and threads the command may have at once (`pids.max`); a fork
   * past it fails with EAGAIN. Only under a cgroup with the pids controller.
   */
  readonly maxProcesses?: number;
  /**
   * Bytes of memory the command may use, page cache included (`memory.max`,
   * `memory.limit_in_bytes`); past it the kernel's OOM killer ends the
   * command. Only under a cgroup with the memory controller; the default is
   * the report's `memory.commandBytes`.
   */
  readonly maxMemoryBytes?: number;
}

/** The containment options both backends take (`PipeProcessBackendOptions`, `PtyProcessBackendOptions`). */
export interface ContainmentOptions {
  /**
   * `auto` (default): each command in a cgroup of its own where the host
   * allows it, in its process group otherwise. `process_group`: never look
   * for a cgroup.
   */
  readonly containment?: 'auto' | 'process_group';
  /** A cgroup path (`/openwork.slice`) to make the commands' cgroups under; see `detectContainment`. */
  readonly cgroupParent?: string;
  /**
   * Limits for requests that give none, field by field; default 512
   * processes and, under a memory controller, a quarter of the session's
   * memory cap but at most 4 GiB.
   */
  readonly limits?: ProcessLimits;
  /**
   * Bytes of memory all of this backend's commands may use together (their
   * shared session cgroup's limit); default half of what this process may
   * use: the machine's memory, or its own cgroup's limit when lower.
   */
  readonly sessionMemoryBytes?: number;
  /** Whether the first use ends the cgroups a crashed earlier run left (`cleanAbandonedCgroups`); default true. */
  readonly cleanAbandoned?: boolean;
}

/**
 * The limits of a command that gives none: 512 processes, room for a
 * parallel build, far below the tens of thousands a fork bomb reaches. The
 * memory default depends on the host (`MemoryContainment.commandBytes`).
 */
export const DEFAULT_PROCESS_LIMITS: ProcessLimits = Object.freeze({ maxProcesses: 512 });

/** The directories under which each command's cgroup is made, by hierarchy. */
export interface CgroupParents {
  /** The cgroup v2 hierarchy. */
  readonly unified?: string;
  /** cgroup v1 hierarchies, one per controller. */
  readonly pids?: string;
  readonly freezer?: string;
  readonly memory?: string;
}

export interface CgroupContainment {
  readonly kind: 'cgroup';
  /** 2: the unified hierarchy; 1: the per-controller hierarchies (pids and freezer, memory when present). */
  readonly version: 1 | 2;
  readonly parents: CgroupParents;
  /** Which of the limits this host can enforce. */
  readonly limits: { readonly processes: boolean; readonly memory: boolean };
  /**
   * The memory caps, where the memory controller is available: every command
   * of the backend runs inside one session cgroup capped at `sessionBytes`,
   * each in its own cgroup with its own limit. Absent without the controller
   * (the reason says so): then no memory limit holds.
   */
  readonly memory?: MemoryContainment;
  /** How a whole cgroup is ended: one write to `cgroup.kill`, or freeze, SIGKILL every member, thaw. */
  readonly kill: 'cgroup.kill' | 'freeze';
  /** What was found, in a sentence or two, including why a better option was not taken. */
  readonly reason: string;
}

export interface MemoryContainment {
  /** What this process may use: the machine's memory, or the lowest limit of the cgroups it and the commands are under. */
  readonly availableBytes: number;
  /** The cap all commands of the backend share (half of `availableBytes` unless configured). */
  readonly sessionBytes: number;
  /** The limit of a command that gives none. */
  readonly commandBytes: number;
  /** Where `availableBytes` comes from, in a sentence. */
  readonly reason: string;
}

export interface ProcessGroupContainment {
  readonly kind: 'process_group';
  /** Why no cgroup is used here. */
  readonly reason: string;
}

/** Which containment a backend uses on this host, and why (the result of `detectContainment`). */
export type ContainmentReport = CgroupContainment | ProcessGroupContainment;
