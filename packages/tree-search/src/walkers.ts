import type { TaskBatch, WireSpec, WireTask } from './search-wire.ts';

/**
 * Where a file system runs the tasks of a search: worker threads (Node), or
 * the calling thread in slices (memory). The coordinator hands out tasks
 * and bounds; the walkers report what each task found, in batches.
 */
export interface SearchWalkers {
  begin(spec: WireSpec, events: WalkerEvents): WalkerRun;
}

export interface WalkerEvents {
  /** What a task found; `done` frees its walker. */
  readonly batch: (batch: TaskBatch) => void;
  /** A walker broke (a worker thread died): the search cannot finish. */
  readonly failed: (error: Error) => void;
}

export interface WalkerRun {
  /** Tasks that can run at once. */
  readonly walkers: number;
  /** Starts a task on a free walker, with the bound known so far; false when every walker is busy. */
  assign(task: WireTask, bound: string | undefined): boolean;
  /** Nothing that sorts after this key can enter the result any more. */
  bound(key: string): void;
  /** Asks the walker of a running task to give part of it away; its next batch answers (a split, or none). */
  requestSplit(taskId: number): void;
  /** Stops every task of the search; resolves once none of its walkers is busy. */
  cancel(): Promise<void>;
  /** The search is over; its walkers forget it. */
  end(): void;
}
