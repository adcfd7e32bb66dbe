import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import type { EntryKind } from '@openwork/path-guard';
import {
  openTarget,
  SearchCache,
  SearchOpenError,
  type FileIdentity,
  type FileRead,
  type HeadDecision,
  type SearchCacheOptions,
  type SearchDirectory,
  type SearchEntry,
  type SearchHost,
  type WireTarget,
} from '@openwork/tree-search/worker';
import { codeOf, identityOf, readAt, ReadBuffer } from './search-file-read.ts';

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

function kindOf(entry: Dirent | Stats): EntryKind {
  return entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'other';
}

/** The kind a symlink leads to, following it; undefined when it leads nowhere (or loops). */
function targetKind(path: string): EntryKind | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat === undefined ? undefined : kindOf(stat);
}

/** A regular file's identity by name, never through a symlink; undefined for anything else. */
function identityAt(path: string): FileIdentity | undefined {
  try {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    return stat?.isFile() === true ? identityOf(stat) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The search's host on Linux with /proc (docs/decisions/0009): every
 * directory is a descriptor opened with O_DIRECTORY | O_NOFOLLOW, and a name
 * is looked up under /proc/self/fd/N/, which is openat(2) without an addon.
 * Without /proc (`handles` false) each level is lstat-checked by path just
 * before it is used, the fallback of the main thread. With `cache`, the
 * walker keeps file summaries between calls (docs/decisions/0036).
 */
export function nodeSearchHost(options: { handles: boolean; cache?: SearchCacheOptions }): SearchHost {
  const cache = options.cache?.budget.shared === undefined ? undefined : new SearchCache(options.cache);
  const buffer = new ReadBuffer({ identities: cache !== undefined });
  return { open: (target, path) => openTarget(target, path, () => openRoot(target, options.handles, buffer)), ...(cache === undefined ? {} : { cache }) };
}

function openRoot(target: WireTarget, handles: boolean, buffer: ReadBuffer): SearchDirectory {
  // The identity is compared by the shared walk; here only what a descriptor cannot tell: by path, a symlink is not the root.
  if (!handles) {
    let stat: Stats;
    try {
      stat = lstatSync(target.root);
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes(codeOf(error) ?? '')) throw new SearchOpenError('root');
      throw error;
    }
    if (!stat.isDirectory()) throw new SearchOpenError('root');
    return new PathDirectory(target.root, stat, buffer);
  }
  let fd: number;
  try {
    fd = openSync(target.root, DIRECTORY_FLAGS);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(codeOf(error) ?? '')) throw new SearchOpenError('root');
    throw error;
  }
  try {
    return new ProcDirectory(fd, fstatSync(fd), buffer);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
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
    return readAt(`${this.#self}/${name}`, this.#buffer, { maxBytes, decide });
  }

  identify(name: string): FileIdentity | undefined {
    return identityAt(`${this.#self}/${name}`);
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
    return readAt(this.#at(name), this.#buffer, { maxBytes, decide, check: () => this.#still() });
  }

  identify(name: string): FileIdentity | undefined {
    return identityAt(this.#at(name));
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
