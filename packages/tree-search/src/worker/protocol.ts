import type { TaskBatch, WireSpec, WireTask } from '../search-wire.ts';

/**
 * The messages between the Node file system and its worker threads. A worker
 * runs one search task at a time, synchronously; while it does, it reads the
 * messages that concern that task (a bound, a split, a cancel) between
 * steps.
 */

export type ToWorker =
  | { readonly op: 'begin'; readonly search: number; readonly spec: WireSpec }
  | { readonly op: 'task'; readonly search: number; readonly task: WireTask; readonly bound: string | undefined }
  | { readonly op: 'bound'; readonly search: number; readonly key: string }
  | { readonly op: 'split'; readonly search: number; readonly taskId: number }
  | { readonly op: 'cancel'; readonly search: number }
  | { readonly op: 'end'; readonly search: number };

export type FromWorker =
  /** The worker's code is loaded and it listens. */
  | { readonly op: 'ready' }
  | { readonly op: 'batch'; readonly search: number; readonly batch: TaskBatch }
  /** The worker runs no task of this search (any more): the answer to a cancel. */
  | { readonly op: 'idle'; readonly search: number };
