import type { CheckedPath, EntryKind } from '@openwork/path-guard';
import { readCheckedPath } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import type { ReadFileChunksOptions, ReadFileOptions } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { changedSinceChecked, knownIdentity, sameIdentity } from './checked.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import { openContainerLooking, type Container } from './directory-walk.ts';
import type { DirectoryHandle, Host, HostStat, ReadHandle } from './host.ts';

/**
 * docs/design.md §9 read: size is checked before anything is allocated, and at most
 * maxBytes + 1 bytes are ever read, even from a file that grows meanwhile.
 */
export async function readCheckedFile(host: Host, path: CheckedPath, options: ReadFileOptions): Promise<Uint8Array> {
  const { maxBytes, signal } = options;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
  const displayPath = path.displayPath;
  const what = `reading ${displayPath}`;
  throwIfAborted(signal, what);
  let opened: OpenedFile | undefined;
  try {
    opened = await openCheckedFile(host, path);
    const { stat, handle } = opened;
    if (stat.size > maxBytes) throw tooLarge(displayPath, `is ${stat.size} bytes`, maxBytes);
    return await readBounded(handle, { size: stat.size, maxBytes, signal, what, displayPath });
  } catch (error) {
    throw toolErrorFromErrno(error, { operation: 'reading', displayPath });
  } finally {
    await opened?.close();
  }
}

/**
 * The file opened once, with readFile's checks, and read front to back in
 * chunks of at most `chunkBytes`, with no size limit: the caller stops when
 * it has what it needs, and leaving the loop closes the file. Each chunk is
 * its own copy, so a caller may keep it.
 */
export async function* readCheckedFileChunks(host: Host, path: CheckedPath, options: ReadFileChunksOptions): AsyncGenerator<Uint8Array, void, undefined> {
  const { chunkBytes, signal } = options;
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1) throw new RangeError(`chunkBytes must be a positive integer, got ${chunkBytes}`);
  const displayPath = path.displayPath;
  const what = `reading ${displayPath}`;
  throwIfAborted(signal, what);
  let opened: OpenedFile | undefined;
  try {
    opened = await openCheckedFile(host, path);
    let position = 0;
    for (;;) {
      throwIfAborted(signal, what);
      const chunk = new Uint8Array(chunkBytes);
      let length = 0;
      // A short read is not the end of the file: fill the chunk, or reach the end.
      while (length < chunkBytes) {
        const count = await opened.handle.read(chunk, length, chunkBytes - length, position + length);
        if (count === 0) break;
        length += count;
      }
      if (length === 0) return;
      position += length;
      yield length === chunkBytes ? chunk : chunk.slice(0, length);
      if (length < chunkBytes) return;
    }
  } catch (error) {
    throw toolErrorFromErrno(error, { operation: 'reading', displayPath });
  } finally {
    await opened?.close();
  }
}

interface OpenedFile {
  readonly handle: ReadHandle;
  readonly stat: HostStat;
  close(): Promise<void>;
}

/** The last mile of a read (docs/decisions/0009): its directory walked from the root, the file opened by name without following a symlink, and checked. */
async function openCheckedFile(host: Host, path: CheckedPath): Promise<OpenedFile> {
  const internals = readCheckedPath(path);
  const { identity } = internals;
  const displayPath = path.displayPath;
  let container: Container | undefined;
  let handle: ReadHandle | undefined;
  let closingDirectory: Promise<void> | undefined;
  const close = async () => {
    await Promise.all([handle?.close(), closingDirectory ?? container?.directory.close()]);
  };
  try {
    // A first lstat refuses a device or FIFO without opening it at all; it is asked alongside the walk's last check.
    const opened = await openContainerLooking(host, internals, displayPath, (directory, name) => (name === null ? Promise.resolve(undefined) : directory.lstat(name)));
    container = opened.container;
    const { directory, name } = container;
    if (name === null || opened.looked === undefined) throw notRegularFile('directory', displayPath);
    requireRegularFile(opened.looked, displayPath);
    handle = await openNoFollow(directory, name, displayPath);
    // The open file no longer needs its directory: it is closed while the file is checked and read (close never throws).
    closingDirectory = directory.close();
    const stat = await handle.stat();
    requireRegularFile(stat, displayPath);
    if (knownIdentity(identity) && !sameIdentity(identity, stat)) throw changedSinceChecked(displayPath);
    return { handle, stat, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Opens without following a final symlink: one that appears after the check is a change, never followed. */
export async function openNoFollow(directory: DirectoryHandle, name: string, displayPath: string): Promise<ReadHandle> {
  try {
    return await directory.openRead(name);
  } catch (error) {
    if (errnoCode(error) === 'ELOOP') throw changedSinceChecked(displayPath);
    throw error;
  }
}

export function requireRegularFile(stat: HostStat, displayPath: string): void {
  if (stat.kind !== 'file') throw notRegularFile(stat.kind, displayPath);
}

/** The error for reading an entry of this kind as a file. */
export function notRegularFile(kind: Exclude<EntryKind, 'file'>, displayPath: string): ToolError {
  if (kind === 'directory') return new ToolError('is_directory', `${displayPath} is a directory; give a file path, or use list to see its entries`);
  if (kind === 'symlink') return changedSinceChecked(displayPath);
  return new ToolError('not_a_file', `${displayPath} is not a regular file (a FIFO, socket or device); only regular files can be read or written`);
}

export function tooLarge(displayPath: string, what: string, maxBytes: number): ToolError {
  return new ToolError('too_large', `${displayPath} ${what}, more than the ${maxBytes}-byte limit; read a range of it or search it with grep`);
}

interface BoundedRead {
  readonly size: number;
  readonly maxBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly what: string;
  readonly displayPath: string;
}

async function readBounded(handle: ReadHandle, read: BoundedRead): Promise<Uint8Array> {
  // One byte past the cap is enough to learn the file grew beyond it.
  const limit = read.maxBytes + 1;
  let buffer = new Uint8Array(Math.min(read.size, read.maxBytes) + 1);
  let length = 0;
  for (;;) {
    throwIfAborted(read.signal, read.what);
    if (length === buffer.length) {
      if (buffer.length >= limit) break;
      const grown = new Uint8Array(Math.min(limit, buffer.length * 2));
      grown.set(buffer);
      buffer = grown;
    }
    const asked = buffer.length - length;
    const count = await handle.read(buffer, length, asked, length);
    if (count === 0) break;
    length += count;
    // A read that came back short with every byte fstat counted is the end: no second call to hear 0.
    if (count < asked && length >= read.size) break;
  }
  if (length > read.maxBytes) throw tooLarge(read.displayPath, 'grew while being read', read.maxBytes);
  return length === buffer.length ? buffer : buffer.slice(0, length);
}
