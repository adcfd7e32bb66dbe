import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { CheckedPath } from '@openwork/path-guard';

export interface ReadChunksOptions {
  /** Most bytes per chunk; the last may be shorter. */
  readonly chunkBytes: number;
  readonly signal?: AbortSignal;
}

/**
 * A regular file read front to back from one open handle, in chunks, with
 * readFile's checks (a regular file, never through a symlink, the same file
 * the guard checked) and no size limit: the caller stops when it has what it
 * needs, and leaving the loop closes the file.
 */
export type ReadFileChunks = (path: CheckedPath, options: ReadChunksOptions) => AsyncIterable<Uint8Array>;

/**
 * The file system's streamed read (`readFileChunks`), or undefined for one
 * that does not offer it: read then refuses a file above its whole-file
 * limit with `too_large` instead of reading a range of it.
 */
export function streamedRead(filesystem: AsyncFileSystem): ReadFileChunks | undefined {
  const method: unknown = Reflect.get(filesystem, 'readFileChunks');
  if (typeof method !== 'function') return undefined;
  return (path, options) => (method as ReadFileChunks).call(filesystem, path, options);
}
