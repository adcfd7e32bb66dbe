import type { EntryKind } from '@openwork/path-guard';
import type { FileIdentity, SearchCache } from './search-cache.ts';
import type { WireTarget } from './search-wire.ts';

export interface SearchEntry {
  readonly name: string;
  /** From the directory listing (d_type): a symlink is a symlink, never followed. */
  readonly kind: EntryKind;
}

/**
 * A file's bytes, valid until the directory reads the next file; or why it
 * was not read. `settled`: the read stopped after its first bytes, because
 * they already decided what the search wanted to know.
 */
export type FileRead =
  | { readonly ok: true; readonly bytes: Buffer; readonly settled?: true; readonly identity?: FileIdentity }
  | { readonly ok: false; readonly reason: 'tooLarge' | 'gone' | 'unreadable' };

/** Bytes read first from a larger file, for a search that may learn all it needs from them (a file with a match). */
export const HEAD_BYTES = 128 * 1024;

/** Decides a file from its first HEAD_BYTES: true, and the rest is never read. */
export type HeadDecision = (head: Buffer) => boolean;

/**
 * A directory a walker holds open (docs/decisions/0009): every name is
 * looked up in it, as openat(2) does, so what was checked on the way down
 * is what the walker reads, wherever the directory's path leads now. The
 * calls are synchronous: a walker runs where the bytes are, a worker thread
 * for the Node file system, and a system call there costs no round trip.
 * Failures throw errno-style errors; ELOOP from openDirectory means the
 * entry became a symlink after it was listed.
 */
export interface SearchDirectory {
  /** Its identity, from fstat when it was opened. */
  readonly dev: number;
  readonly ino: number;
  list(): readonly SearchEntry[];
  /** The entry opened as a directory, never through a symlink (O_DIRECTORY | O_NOFOLLOW). */
  openDirectory(name: string): SearchDirectory;
  /**
   * The entry read as a regular file: opened without following a symlink and
   * without blocking, checked to be a regular file, at most maxBytes read
   * (tooLarge past it, even for a file that grows meanwhile). With
   * `decide`, a file larger than HEAD_BYTES is read that far first, and no
   * further when `decide` says the head is enough.
   */
  readFile(name: string, maxBytes: number, decide?: HeadDecision): FileRead;
  /**
   * What a symlink entry leads to, following it (stat): a hint only, so that
   * a symlink to a directory, which the walk never enters, is dropped
   * without a trip through the path guard; undefined when it leads nowhere.
   * Whatever it says, only the guard decides whether a symlink is followed.
   */
  linkTarget(name: string): EntryKind | undefined;
  /**
   * The entry's identity now, without following a symlink (lstat): what a
   * walker with a cache (docs/decisions/0036) checks its entry against;
   * undefined when it cannot tell. A file system without a cache need not
   * answer.
   */
  identify?(name: string): FileIdentity | undefined;
  /** Idempotent; never throws. */
  close(): void;
}

/** Where walkers start: the directory at `path` (the target's path or a directory above it), reached from the target's root. */
export interface SearchHost {
  /**
   * Opens the root, compares it with the identity the session began with,
   * then opens each directory down to `path` without following symlinks,
   * comparing each with the identity the chain knows. Throws a
   * SearchOpenError when something changed, or an errno error.
   */
  open(target: WireTarget, path: string): SearchDirectory;
  /** What this walker keeps between calls, when it keeps anything (docs/decisions/0036). */
  readonly cache?: SearchCache;
}

/** A change the walk refused: the root is not the session's, or a directory on the way was replaced. */
export class SearchOpenError extends Error {
  readonly changed: 'root' | 'directory';

  constructor(changed: 'root' | 'directory') {
    super(changed === 'root' ? 'the root changed' : 'a directory on the way changed');
    this.changed = changed;
  }
}

/** errno codes a symlink swapped in after the listing gives when opened as a directory. */
export const SWAPPED_CODES: ReadonlySet<string> = new Set(['ELOOP']);
