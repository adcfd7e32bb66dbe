import { lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { constants } from 'node:fs';
import { joinPath } from '../common/checked.ts';
import { errnoError } from '../common/errno.ts';
import type { DirectoryHandle, HostDirectoryEntry, HostStat, ReadHandle, WriteHandle } from '../common/host.ts';
import { closeQuietly, createFlags, hostStat, kindOf, readFlags, readHandle, singleComponent, writeHandle } from './node-file-handles.ts';

interface Level {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/**
 * The fallback where there is no /proc/self/fd (macOS): a directory by its
 * path. Each level is lstat-ed when opened (a symlink is ELOOP), and the whole
 * chain from the root is lstat-ed again right before anything is opened,
 * created, renamed, removed or listed in it (ESTALE when a level changed).
 * A swap between that check and the system call can still win: the window
 * docs/decisions/0009 measures.
 */
export class PathDirectory implements DirectoryHandle {
  readonly #chain: readonly Level[];

  private constructor(chain: readonly Level[]) {
    this.#chain = chain;
  }

  static async open(path: string): Promise<PathDirectory> {
    return new PathDirectory([await level(path)]);
  }

  get #path(): string {
    return (this.#chain.at(-1) as Level).path;
  }

  #at(name: string): string {
    return joinPath(this.#path, singleComponent(name));
  }

  async #verify(): Promise<void> {
    for (const { path, dev, ino } of this.#chain) {
      const now = await lstat(path).catch(() => null);
      if (now === null || !now.isDirectory() || now.dev !== dev || now.ino !== ino) throw errnoError('ESTALE', 'lstat', path);
    }
  }

  async stat(): Promise<HostStat> {
    return hostStat(await lstat(this.#path));
  }

  async openDirectory(name: string): Promise<DirectoryHandle> {
    return new PathDirectory([...this.#chain, await level(this.#at(name))]);
  }

  async lstat(name: string): Promise<HostStat> {
    return hostStat(await lstat(this.#at(name)));
  }

  async readdir(): Promise<HostDirectoryEntry[]> {
    await this.#verify();
    const entries = await readdir(this.#path, { withFileTypes: true });
    // readdir follows a symlink: one swapped in meanwhile must not be listed through.
    await this.#verify();
    return entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
  }

  async mkdir(name: string): Promise<void> {
    await this.#verify();
    await mkdir(this.#at(name), { mode: 0o777 });
  }

  async openRead(name: string): Promise<ReadHandle> {
    await this.#verify();
    return readHandle(await open(this.#at(name), readFlags));
  }

  async createExclusive(name: string): Promise<WriteHandle> {
    await this.#verify();
    return writeHandle(await open(this.#at(name), createFlags, 0o600));
  }

  async rename(from: string, to: string): Promise<void> {
    await this.#verify();
    await rename(this.#at(from), this.#at(to));
  }

  async unlink(name: string): Promise<void> {
    await this.#verify();
    await unlink(this.#at(name));
  }

  discardTemp(name: string): Promise<void> {
    return unlink(this.#at(name));
  }

  async sync(): Promise<void> {
    const handle = await open(this.#path, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      await handle.sync();
    } finally {
      await closeQuietly(handle);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

async function level(path: string): Promise<Level> {
  const stat = await lstat(path);
  if (stat.isSymbolicLink()) throw errnoError('ELOOP', 'open', path);
  if (!stat.isDirectory()) throw errnoError('ENOTDIR', 'open', path);
  return { path, dev: stat.dev, ino: stat.ino };
}
