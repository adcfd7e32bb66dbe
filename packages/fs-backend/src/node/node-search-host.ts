import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, statSync, type Dirent, type Stats } from 'node:fs';
import type { EntryKind } from '@openwork/path-guard';
import { HEAD_BYTES, SearchOpenError, type FileRead, type HeadDecision, type SearchDirectory, type SearchEntry, type SearchHost, type WireTarget } from '@openwork/tree-search/worker';

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
/** The first read buffer; it grows to the largest file read, at most the search's file limit plus one byte. */
const FIRST_BUFFER_BYTES = 1024 * 1024;

function kindOf(entry: Dirent | Stats): EntryKind {
  return entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'other';
}

/** The kind a symlink leads to, following it; undefined when it leads nowhere (or loops). */
function targetKind(path: string): EntryKind | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat === undefined ? undefined : kindOf(stat);
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * One buffer per walker, reused for every file: only what a file yields
 * (paths, cut lines) outlives its read, so a search of a large tree
 * allocates almost nothing per file.
 */
class ReadBuffer {
  #buffer = Buffer.allocUnsafe(FIRST_BUFFER_BYTES);

  /** Reads the open file: at most maxBytes, tooLarge past it, even when it grows while being read. */
  read(fd: number, size: number, maxBytes: number, decide?: HeadDecision): FileRead {
    if (size > maxBytes) return { ok: false, reason: 'tooLarge' };
    const limit = maxBytes + 1;
    if (this.#buffer.length < Math.min(size + 1, limit)) this.#buffer = Buffer.allocUnsafe(Math.min(limit, Math.max(size + 1, this.#buffer.length * 2)));
    let length = 0;
    if (decide !== undefined && size > HEAD_BYTES) {
      length = readSync(fd, this.#buffer, 0, HEAD_BYTES, 0);
      const head = this.#buffer.subarray(0, length);
      if (length === HEAD_BYTES && decide(head)) return { ok: true, bytes: head, settled: true };
    }
    for (;;) {
      if (length === this.#buffer.length) {
        if (length >= limit) break;
        const grown = Buffer.allocUnsafe(Math.min(limit, length * 2));
        this.#buffer.copy(grown, 0, 0, length);
        this.#buffer = grown;
      }
      // Ask for one byte more than fstat said: a short read is the end of the file, without a second call.
      const wanted = Math.min(this.#buffer.length - length, Math.max(size + 1 - length, 64 * 1024));
      const count = readSync(fd, this.#buffer, length, wanted, length);
      length += count;
      if (count < wanted) break;
    }
    if (length > maxBytes) return { ok: false, reason: 'tooLarge' };
    return { ok: true, bytes: this.#buffer.subarray(0, length) };
  }
}

/**
 * The search's host on Linux with /proc (docs/decisions/0009): every
 * directory is a descriptor opened with O_DIRECTORY | O_NOFOLLOW, and a name
 * is looked up under /proc/self/fd/N/, which is openat(2) without an addon.
 * Without /proc (`handles` false) each level is lstat-checked by path just
 * before it is used, the fallback of the main thread.
 */
export function nodeSearchHost(options: { handles: boolean }): SearchHost {
  const buffer = new ReadBuffer();
  return { open: (target, path) => openTarget(target, path, options.handles, buffer) };
}

function openTarget(target: WireTarget, path: string, handles: boolean, buffer: ReadBuffer): SearchDirectory {
  let directory = openRoot(target, handles, buffer);
  if (path === target.root) return directory;
  const known = new Map(target.chain.map(([chainPath, dev, ino]) => [chainPath, { dev, ino }]));
  let current = target.root === '/' ? '' : target.root;
  try {
    for (const name of path.slice(current.length + 1).split('/')) {
      current = `${current}/${name}`;
      const next = directory.openDirectory(name);
      directory.close();
      directory = next;
      const expected = known.get(current);
      if (expected !== undefined && (expected.dev !== directory.dev || expected.ino !== directory.ino)) throw new SearchOpenError('directory');
    }
    return directory;
  } catch (error) {
    directory.close();
    throw error;
  }
}

function openRoot(target: WireTarget, handles: boolean, buffer: ReadBuffer): SearchDirectory {
  const same = (stat: Stats) => stat.isDirectory() && stat.dev === target.rootDev && stat.ino === target.rootIno;
  if (!handles) {
    let stat: Stats;
    try {
      stat = lstatSync(target.root);
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes(codeOf(error) ?? '')) throw new SearchOpenError('root');
      throw error;
    }
    if (!same(stat)) throw new SearchOpenError('root');
    return new PathDirectory(target.root, stat, buffer);
  }
  let fd: number;
  try {
    fd = openSync(target.root, DIRECTORY_FLAGS);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(codeOf(error) ?? '')) throw new SearchOpenError('root');
    throw error;
  }
  const stat = fstatSync(fd);
  if (!same(stat)) {
    closeSync(fd);
    throw new SearchOpenError('root');
  }
  return new ProcDirectory(fd, stat, buffer);
}

/** A directory held open as a descriptor; names resolve under /proc/self/fd/N. */
class ProcDirectory implements SearchDirectory {
  readonly dev: number;
  readonly ino: number;
  readonly #fd: number;
  readonly #self: string;
  readonly #buffer: ReadBuffer;
  #closed = false;

  constructor(fd: number, stat: Stats, buffer: ReadBuffer) {
    this.#fd = fd;
    this.dev = stat.dev;
    this.ino = stat.ino;
    this.#self = `/proc/self/fd/${fd}`;
    this.#buffer = buffer;
  }

  list(): SearchEntry[] {
    return readdirSync(this.#self, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
  }

  openDirectory(name: string): SearchDirectory {
    const path = `${this.#self}/${name}`;
    let fd: number;
    try {
      fd = openSync(path, DIRECTORY_FLAGS);
    } catch (error) {
      // With O_DIRECTORY, Linux reports a symlink as ENOTDIR: a symlink there now, or a directory again, means it was swapped.
      const code = codeOf(error);
      if (code === 'ELOOP') throw new SearchOpenError('directory');
      if (code === 'ENOTDIR') {
        let now: Stats | undefined;
        try {
          now = lstatSync(path);
        } catch {
          now = undefined;
        }
        if (now !== undefined && (now.isSymbolicLink() || now.isDirectory())) throw new SearchOpenError('directory');
      }
      throw error;
    }
    try {
      return new ProcDirectory(fd, fstatSync(fd), this.#buffer);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  readFile(name: string, maxBytes: number, decide?: HeadDecision): FileRead {
    let fd: number;
    try {
      fd = openSync(`${this.#self}/${name}`, FILE_FLAGS);
    } catch (error) {
      return { ok: false, reason: codeOf(error) === 'ENOENT' ? 'gone' : 'unreadable' };
    }
    try {
      const stat = fstatSync(fd);
      // The listing said a regular file; fstat of what was opened confirms it, so a FIFO or device swapped in is never read.
      if (!stat.isFile()) return { ok: false, reason: 'unreadable' };
      return this.#buffer.read(fd, stat.size, maxBytes, decide);
    } catch {
      return { ok: false, reason: 'unreadable' };
    } finally {
      closeSync(fd);
    }
  }

  linkTarget(name: string): EntryKind | undefined {
    try {
      return targetKind(`${this.#self}/${name}`);
    } catch {
      return undefined;
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      closeSync(this.#fd);
    } catch {
      // Already gone with its thread: nothing to release.
    }
  }
}

/** Without /proc: a directory by its checked path, each level lstat-checked just before use (docs/decisions/0009, the fallback). */
class PathDirectory implements SearchDirectory {
  readonly dev: number;
  readonly ino: number;
  readonly #path: string;
  readonly #buffer: ReadBuffer;

  constructor(path: string, stat: Stats, buffer: ReadBuffer) {
    this.#path = path;
    this.dev = stat.dev;
    this.ino = stat.ino;
    this.#buffer = buffer;
  }

  #at(name: string): string {
    return this.#path === '/' ? `/${name}` : `${this.#path}/${name}`;
  }

  #still(): void {
    const now = lstatSync(this.#path);
    if (now.isSymbolicLink() || now.dev !== this.dev || now.ino !== this.ino) throw new SearchOpenError('directory');
  }

  list(): SearchEntry[] {
    // readdir follows a symlink: one swapped in before or during the listing must not be listed through.
    this.#still();
    const entries = readdirSync(this.#path, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
    this.#still();
    return entries;
  }

  openDirectory(name: string): SearchDirectory {
    const path = this.#at(name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) throw new SearchOpenError('directory');
    if (!stat.isDirectory()) throw Object.assign(new Error(`ENOTDIR: ${path}`), { code: 'ENOTDIR' });
    return new PathDirectory(path, stat, this.#buffer);
  }

  readFile(name: string, maxBytes: number, decide?: HeadDecision): FileRead {
    let fd: number;
    try {
      this.#still();
      fd = openSync(this.#at(name), FILE_FLAGS);
    } catch (error) {
      return { ok: false, reason: codeOf(error) === 'ENOENT' ? 'gone' : 'unreadable' };
    }
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return { ok: false, reason: 'unreadable' };
      const read = this.#buffer.read(fd, stat.size, maxBytes, decide);
      // The directory checked again once the file is read: a swap around the open is caught unless it was undone in between.
      this.#still();
      return read;
    } catch {
      return { ok: false, reason: 'unreadable' };
    } finally {
      closeSync(fd);
    }
  }

  linkTarget(name: string): EntryKind | undefined {
    try {
      return targetKind(this.#at(name));
    } catch {
      return undefined;
    }
  }

  close(): void {
    // Nothing is held open by path.
  }
}
