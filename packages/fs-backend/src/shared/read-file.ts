import type { CheckedPath, EntryKind } from '@openwork/path-guard';
import { readCheckedPath } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import type { ReadFileOptions } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { changedSinceChecked, knownIdentity, sameIdentity } from './checked.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import { openContainer, type Container } from './directory-walk.ts';
import type { DirectoryHandle, Host, HostStat, ReadHandle } from './host.ts';

/**
 * seed §9 read: size is checked before anything is allocated, and at most
 * maxBytes + 1 bytes are ever read, even from a file that grows meanwhile.
 */
export async function readCheckedFile(host: Host, path: CheckedPath, options: ReadFileOptions): Promise<Uint8Array> {
  const internals = readCheckedPath(path);
  const { identity } = internals;
  const displayPath = path.displayPath;
  const { maxBytes, signal } = options;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
  const what = `reading ${displayPath}`;
  throwIfAborted(signal, what);
  let container: Container | undefined;
  let handle: ReadHandle | undefined;
  try {
    container = await openContainer(host, internals, displayPath);
    const { directory, name } = container;
    if (name === null) throw notRegularFile('directory', displayPath);
    // A first lstat refuses a device or FIFO without opening it at all.
    requireRegularFile(await directory.lstat(name), displayPath);
    handle = await openNoFollow(directory, name, displayPath);
    const stat = await handle.stat();
    requireRegularFile(stat, displayPath);
    if (knownIdentity(identity) && !sameIdentity(identity, stat)) throw changedSinceChecked(displayPath);
    if (stat.size > maxBytes) throw tooLarge(displayPath, `is ${stat.size} bytes`, maxBytes);
    return await readBounded(handle, { size: stat.size, maxBytes, signal, what, displayPath });
  } catch (error) {
    throw toolErrorFromErrno(error, { operation: 'reading', displayPath });
  } finally {
    await handle?.close();
    await container?.directory.close();
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
    const count = await handle.read(buffer, length, buffer.length - length, length);
    if (count === 0) break;
    length += count;
  }
  if (length > read.maxBytes) throw tooLarge(read.displayPath, 'grew while being read', read.maxBytes);
  return length === buffer.length ? buffer : buffer.slice(0, length);
}
