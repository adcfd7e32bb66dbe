import type { CheckedPath, EntryKind, PathProbe } from '@openwork/path-guard';
import type { TreeSearchOptions, TreeSearchRequest, TreeSearchResult } from '@openwork/tree-search';

export interface FileInfo {
  /** lstat kind of the real target. */
  readonly kind: EntryKind;
  readonly size: number;
  /** Permission bits (mode & 0o7777). */
  readonly mode: number;
  readonly mtimeMs: number;
}

export interface DirectoryEntry {
  readonly name: string;
  /** lstat kind: a symlink is reported as `symlink`, never followed. */
  readonly kind: EntryKind;
  /** Bytes, for files. */
  readonly size?: number;
}

export interface ReadFileOptions {
  /** Files larger than this are `too_large` (the message gives the size); nothing beyond it is read. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}

export interface ReadFileChunksOptions {
  /** Most bytes per chunk; only the last may be shorter. */
  readonly chunkBytes: number;
  readonly signal?: AbortSignal;
}

export interface ListDirectoryOptions {
  readonly signal?: AbortSignal;
  /** false: no lstat per file, so entries carry no size (a search that reads the files anyway); default true. */
  readonly sizes?: boolean;
}

export interface WriteFileOptions {
  readonly signal?: AbortSignal;
  /** Create missing parents, one level at a time, each checked (docs/design.md §9 write). */
  readonly createParents?: boolean;
  /**
   * Commit only if the file's current SHA-256 is this, checked right before
   * the rename; null means it must not exist. A mismatch is `stale`, nothing written.
   */
  readonly expectedSha256?: string | null;
  /** Mode for a new file; an existing file keeps its own. Default 0o644 (less the umask on the host). */
  readonly mode?: number;
}

export interface WriteResult {
  readonly created: boolean;
  readonly bytes: number;
}

export interface RemoveFileOptions {
  readonly signal?: AbortSignal;
  /** Remove only if the file still has this SHA-256; otherwise `conflict`. */
  readonly expectedSha256: string;
}

export interface LockOptions {
  readonly signal?: AbortSignal;
}

/**
 * The file system the tools see (docs/design.md §4). Every operation takes a
 * CheckedPath; failures are ToolErrors with contract kinds (not_found,
 * is_directory, not_a_directory, not_a_file, too_large, permission_denied,
 * stale, conflict, io, …). The PathProbe half serves the path guard only.
 */
export interface AsyncFileSystem extends PathProbe {
  readonly name: string;
  stat(path: CheckedPath, options?: { signal?: AbortSignal }): Promise<FileInfo>;
  /** A regular file only: never blocks on a FIFO, socket or device (`not_a_file`). */
  readFile(path: CheckedPath, options: ReadFileOptions): Promise<Uint8Array>;
  /**
   * A regular file opened once, with readFile's checks, and read front to
   * back in chunks, with no size limit: for a range of a large file. Leaving
   * the loop (break, return or a throw) closes the file.
   */
  readFileChunks(path: CheckedPath, options: ReadFileChunksOptions): AsyncIterable<Uint8Array>;
  /** Atomic: a temp file beside the target, fsync, rename; no temp file survives a failure. */
  writeFile(path: CheckedPath, data: Uint8Array, options?: WriteFileOptions): Promise<WriteResult>;
  removeFile(path: CheckedPath, options: RemoveFileOptions): Promise<void>;
  /** One level; order unspecified (callers sort). */
  readDirectory(path: CheckedPath, options?: ListDirectoryOptions): Promise<DirectoryEntry[]>;
  /**
   * grep and glob over a directory (or one file), walked where the bytes are
   * (docs/decisions/0012): the Node file system walks on its
   * worker threads, each holding its directories open from the root down;
   * the memory one walks in process. Results in byte order of their paths,
   * bounded by count and bytes, the same at any number of workers. A
   * pattern or filter that does not compile is `invalid_input`; a root that
   * cannot be listed fails with readDirectory's error; only those and an
   * aborted signal reject.
   */
  searchTree(root: CheckedPath, request: TreeSearchRequest, options: TreeSearchOptions): Promise<TreeSearchResult>;
  /** Serializes writers of one canonical path, in this process and across processes. */
  withLock<T>(path: CheckedPath, action: () => Promise<T>, options?: LockOptions): Promise<T>;
}
