import type { EntryKind } from '@openwork/path-guard';
import type { IgnoreSource, TreeSearchFilter, TreeSearchHit, TreeSearchMode, TreeSearchPattern } from './search-types.ts';

/**
 * What crosses between the search's coordinator and the walkers that run
 * its tasks (on worker threads for the Node file system, in process for the
 * memory one): plain data only, so it survives a postMessage.
 */

/** The request as every walker compiles it. */
export interface WireSpec {
  readonly mode: TreeSearchMode;
  readonly pattern: TreeSearchPattern | undefined;
  readonly context: number;
  readonly before: number;
  readonly after: number;
  readonly filter: TreeSearchFilter | undefined;
  readonly nameGlobs: readonly string[] | undefined;
  /** undefined: ignore files are not read. */
  readonly ignoreCase: boolean | undefined;
  /** maxResults + 1: the one past the bound tells that the result is cut. */
  readonly capacity: number;
  /** The results before this index are not weighed against maxResultBytes. */
  readonly offset: number;
  readonly maxResultBytes: number;
  readonly maxLineChars: number;
  readonly maxFileBytes: number;
  readonly binarySniffBytes: number;
}

/**
 * Where a task's directory (or file) is, as its CheckedPath says: the root
 * with the identity the session began with, the canonical path, and the
 * identities known on the way down (docs/decisions/0009).
 */
export interface WireTarget {
  readonly root: string;
  readonly rootDev: number;
  readonly rootIno: number;
  readonly path: string;
  /** [canonical path, dev, ino] of directories strictly below the root, down to `path`'s directory or `path` itself. */
  readonly chain: readonly (readonly [string, number, number])[];
}

/** The rules of one ignore file as text, with where they apply from (ignore-rules.ts). */
export interface WireLevel {
  readonly source: IgnoreSource;
  readonly text: string;
  readonly base: string;
  readonly prefix: string;
}

export type WireEntry = readonly [name: string, kind: EntryKind];

export interface WireTask {
  readonly id: number;
  readonly kind: 'directory' | 'file';
  readonly target: WireTarget;
  /** Walk-relative path of the directory or file ('' for the searched directory itself). */
  readonly relative: string;
  /** Its path for results. */
  readonly display: string;
  /** The ignore rules in effect in the directory, its own files' included when `entries` is given. */
  readonly levels: readonly WireLevel[];
  /** Entries of the directory that the walker that listed it gave away, in order: these only. */
  readonly entries?: readonly WireEntry[];
  /** The searched directory, listed here first: a failure to open or list it ends the search with its error. */
  readonly walkRoot: boolean;
  /**
   * The walker counts and drops the task's first this many results, never
   * holding them (a page far into the set); given only when every result
   * before the task is counted. A symlink met while results are still to be
   * dropped ends the task: the rest goes back as parts, once its results are counted.
   */
  readonly skip?: number;
}

/** A hit, or a symlink the coordinator resolves through the path guard (its results take its place). */
export type WireItem = { readonly hit: TreeSearchHit; readonly weight: number } | { readonly symlink: { readonly display: string; readonly relative: string } };

export type MarkKind = 'binary' | 'tooLarge' | 'unreadable' | 'ignoredFile' | 'ignoredDirectory';

/** Something left out, at its sort key, so that only what sorts before the cut is counted. */
export interface WireMark {
  readonly key: string;
  readonly kind: MarkKind;
  readonly source?: IgnoreSource;
}

/** The tail of a task, given away to another walker: the entries of one of its directories. */
export interface WireSplit {
  /** The directory, relative to the task's own ('' for the task's directory). */
  readonly fromTask: string;
  /** [path relative to the task's directory, dev, ino] of each directory opened on the way down to it, the task's own first. */
  readonly identities: readonly (readonly [string, number, number])[];
  readonly relative: string;
  readonly display: string;
  readonly entries: readonly WireEntry[];
  readonly levels: readonly WireLevel[];
}

/** Why a task's directory could not be walked: an errno code, or a change the walk refused. */
export interface WireFailure {
  readonly code: string;
  readonly changed?: 'root' | 'directory';
}

/** What a walker reports for one task since its last report. */
export interface TaskBatch {
  readonly taskId: number;
  readonly items: readonly WireItem[];
  readonly marks: readonly WireMark[];
  readonly files: number;
  readonly directories: number;
  readonly splits: readonly WireSplit[];
  readonly done: boolean;
  /** Results the task's `skip` dropped since the last report. */
  readonly dropped?: number;
  /** The walk root itself could not be opened or listed. */
  readonly failure?: WireFailure;
}

