import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import type { EntryKind } from '@openwork/path-guard';
import { SearchOpenError, type DirectoryStamp, type FileIdentity, type FileRead, type HeadDecision, type ListingCache, type SearchDirectory, type SearchEntry } from '@openwork/tree-search/worker';
import { codeOf, readAt, type ReadBuffer } from './search-file-read.ts';

// The directories a search walker of the Node file system walks through (node-search-host.ts):
// held open as descriptors under /proc/self/fd, or lstat-checked paths (docs/decisions/0009).

export const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

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
    // The Stats object is the identity (dev, ino, size, mtimeMs, ctimeMs): nothing more is made per file.
    return stat?.isFile() === true ? stat : undefined;
  } catch {
    return undefined;
  }
}

/** What a walker's directories share: the read buffer, and the listings kept between calls when it keeps any. */
export interface KeptBetweenCalls {
  readonly buffer: ReadBuffer;
  readonly listings: ListingCache | undefined;
}

function stampOf(stat: Stats): DirectoryStamp {
  return { dev: stat.dev, ino: stat.ino, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

/** A directory's listing: the one kept for the stamps fstat gave it when it was opened, or read now (and kept when it may be). */
function listed(kept: KeptBetweenCalls, stamp: DirectoryStamp, read: () => readonly SearchEntry[]): readonly SearchEntry[] {
  const listings = kept.listings;
  if (listings === undefined) return read();
  const cached = listings.get(stamp);
  if (cached !== undefined) return cached;
  const listedAt = listings.now();
  const entries = read();
  listings.put(stamp, entries, listedAt);
  return entries;
}

/**
 * A directory held open as a descriptor; names resolve under
 * /proc/self/fd/N. `path` is the absolute path the walk reached it by, used
 * only to ask files' identities for the search cache (see identify).
 */
export class ProcDirectory implements SearchDirectory {
  readonly dev: number;
  readonly ino: number;
  readonly #fd: number;
  readonly #self: string;
  readonly #path: string;
  readonly #kept: KeptBetweenCalls;
  readonly #stamp: DirectoryStamp;
  #pathLeadsHere: boolean | undefined;
  #closed = false;

  constructor(fd: number, stat: Stats, kept: KeptBetweenCalls, path: string) {
    this.#fd = fd;
    this.dev = stat.dev;
    this.ino = stat.ino;
    this.#self = `/proc/self/fd/${fd}`;
    this.#path = path;
    this.#kept = kept;
    this.#stamp = stampOf(stat);
  }

  list(): readonly SearchEntry[] {
    return listed(this.#kept, this.#stamp, () => readdirSync(this.#self, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: kindOf(entry) })));
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
      return new ProcDirectory(fd, fstatSync(fd), this.#kept, this.#path === '/' ? `/${name}` : `${this.#path}/${name}`);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  readFile(name: string, maxBytes: number, decide?: HeadDecision): FileRead {
    return readAt(`${this.#self}/${name}`, this.#kept.buffer, { maxBytes, decide });
  }

  /**
   * A file's identity for the search cache (docs/decisions/0036), by its
   * absolute path when that path leads to this very directory (checked once
   * per directory: a name under /proc/self/fd costs the kernel two to three
   * times the lookup), else under the descriptor. The identity only ever
   * lets a walk skip a file whose kept summary rules it out, or call it
   * binary: a swap in the moment after the check can make it ask about
   * another directory's file, which is skipped only if it is the very file
   * (device, inode, size and both stamps) a summary was kept for. Every
   * read stays under the descriptor.
   */
  identify(name: string): FileIdentity | undefined {
    return identityAt(this.#leadsHere() ? (this.#path === '/' ? `/${name}` : `${this.#path}/${name}`) : `${this.#self}/${name}`);
  }

  #leadsHere(): boolean {
    if (this.#pathLeadsHere === undefined) {
      try {
        const stat = lstatSync(this.#path);
        this.#pathLeadsHere = stat.isDirectory() && stat.dev === this.dev && stat.ino === this.ino;
      } catch {
        this.#pathLeadsHere = false;
      }
    }
    return this.#pathLeadsHere;
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
export class PathDirectory implements SearchDirectory {
  readonly dev: number;
  readonly ino: number;
  readonly #path: string;
  readonly #kept: KeptBetweenCalls;
  readonly #stamp: DirectoryStamp;

  constructor(path: string, stat: Stats, kept: KeptBetweenCalls) {
    this.#path = path;
    this.dev = stat.dev;
    this.ino = stat.ino;
    this.#kept = kept;
    this.#stamp = stampOf(stat);
  }

  #at(name: string): string {
    return this.#path === '/' ? `/${name}` : `${this.#path}/${name}`;
  }

  #still(): void {
    const now = lstatSync(this.#path);
    if (now.isSymbolicLink() || now.dev !== this.dev || now.ino !== this.ino) throw new SearchOpenError('directory');
  }

  list(): readonly SearchEntry[] {
    // readdir follows a symlink: one swapped in before or during the listing must not be listed through.
    return listed(this.#kept, this.#stamp, () => {
      this.#still();
      const entries = readdirSync(this.#path, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
      this.#still();
      return entries;
    });
  }

  openDirectory(name: string): SearchDirectory {
    const path = this.#at(name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) throw new SearchOpenError('directory');
    if (!stat.isDirectory()) throw Object.assign(new Error(`ENOTDIR: ${path}`), { code: 'ENOTDIR' });
    return new PathDirectory(path, stat, this.#kept);
  }

  readFile(name: string, maxBytes: number, decide?: HeadDecision): FileRead {
    return readAt(this.#at(name), this.#kept.buffer, { maxBytes, decide, check: () => this.#still() });
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
