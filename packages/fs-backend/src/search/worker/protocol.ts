import type { DirectoryEntry } from '../../file-system.ts';
import type { EntryKind } from '@openwork/path-guard';
import type { TaskBatch, WireSpec, WireTask } from '../search-wire.ts';

/**
 * The messages between the Node file system and its worker threads. A worker
 * runs one search task at a time, synchronously; while it does, it reads the
 * messages that concern that task (a bound, a split, a cancel) between
 * steps, and answers batch reads and listings at once.
 */

/** The identities a batch's walks compare with: each root's from the session's start, each directory's as the guard saw it. */
export interface BatchIdentities {
  readonly roots: ReadonlyArray<readonly [string, number, number]>;
  readonly directories: ReadonlyArray<readonly [string, number, number]>;
}

/** A file to read: its root, the directory that holds it (null when it is the root itself), its name, and the identity it must still have (0: unknown). */
export interface FileTarget {
  readonly root: string;
  readonly directory: string | null;
  readonly name: string;
  readonly dev: number;
  readonly ino: number;
}

/** A directory to list: its root and its own canonical path (its identity, when known, is in the batch's directories). */
export interface ListTarget {
  readonly root: string;
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

export interface ReadRequest extends BatchIdentities {
  readonly op: 'read';
  readonly id: number;
  readonly maxBytes: number;
  readonly sniff: number;
  readonly containing: Uint8Array | undefined;
  readonly folded: string | undefined;
  readonly files: readonly FileTarget[];
}

export interface ListRequest extends BatchIdentities {
  readonly op: 'list';
  readonly id: number;
  readonly sizes: boolean;
  readonly files: readonly ListTarget[];
}

/** What a worker sends back for one file of a batch read. */
export type ReadResult =
  | { readonly ok: true; readonly buffer: ArrayBuffer; readonly length: number }
  | { readonly ok: true; readonly excluded: 'binary' | 'absent' }
  | { readonly ok: true; readonly deferred: true }
  | { readonly ok: false; readonly errno: string; readonly stage: 'lstat' | 'open' | 'read' }
  | { readonly ok: false; readonly kind: Exclude<EntryKind, 'file'> }
  | { readonly ok: false; readonly changed: true }
  | { readonly ok: false; readonly rootChanged: true }
  | { readonly ok: false; readonly size: number }
  | { readonly ok: false; readonly grew: true };

export type ListResult =
  | { readonly ok: true; readonly entries: DirectoryEntry[] }
  | { readonly ok: false; readonly errno: string; readonly stage: 'lstat' | 'open' | 'read' }
  | { readonly ok: false; readonly kind: EntryKind }
  | { readonly ok: false; readonly changed: true }
  | { readonly ok: false; readonly rootChanged: true };

export type ToWorker =
  | { readonly op: 'begin'; readonly search: number; readonly spec: WireSpec }
  | { readonly op: 'task'; readonly search: number; readonly task: WireTask; readonly bound: string | undefined }
  | { readonly op: 'bound'; readonly search: number; readonly key: string }
  | { readonly op: 'split'; readonly search: number; readonly taskId: number }
  | { readonly op: 'cancel'; readonly search: number }
  | { readonly op: 'end'; readonly search: number }
  | ReadRequest
  | ListRequest;

export type FromWorker =
  /** The worker's code is loaded and it listens. */
  | { readonly op: 'ready' }
  | { readonly op: 'batch'; readonly search: number; readonly batch: TaskBatch }
  /** The worker runs no task of this search (any more): the answer to a cancel. */
  | { readonly op: 'idle'; readonly search: number }
  | { readonly op: 'reply'; readonly id: number; readonly results: readonly ReadResult[] | readonly ListResult[] };

/** Bytes of file content one batch-read reply carries at most (plus the file that crosses it). */
export const REPLY_BYTES = 8 * 1024 * 1024;
