import { fstatSync, lstatSync } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { errnoCode, errnoError } from '../shared/errno.ts';
import type { DirectoryHandle, HostDirectoryEntry, HostStat, ReadHandle, WriteHandle } from '../shared/host.ts';
import { closeQuietly, createFlags, onCallingThread, directoryFlags, hostStat, kindOf, readFlags, readHandle, singleComponent, writeHandle } from './node-file-handles.ts';

/**
 * A directory held open with O_DIRECTORY | O_NOFOLLOW, in which names are
 * looked up through /proc/self/fd/N/name: Linux resolves /proc/self/fd/N to
 * this very directory, wherever it has moved since, and the name is the only
 * component after it. That is openat(2) without a native addon
 * (docs/decisions/0009). The descriptor stays open until close, so N always
 * means this directory while a call uses it.
 */
export class ProcDirectory implements DirectoryHandle {
  readonly #handle: FileHandle;
  #closed = false;

  private constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  /** Opens an absolute path: a final symlink is refused; earlier components are the caller's to trust (a root, then compared by identity). */
  static async open(path: string): Promise<ProcDirectory> {
    return new ProcDirectory(await open(path, directoryFlags));
  }

  get #self(): string {
    if (this.#closed) throw errnoError('EBADF', 'open', 'a closed directory');
    return `/proc/self/fd/${this.#handle.fd}`;
  }

  #at(name: string): string {
    return `${this.#self}/${singleComponent(name)}`;
  }

  // fstat and lstat on the calling thread (docs/decisions/0042): answered from the kernel's caches, no trip through the thread pool.
  stat(): Promise<HostStat> {
    return onCallingThread(() => {
      if (this.#closed) throw errnoError('EBADF', 'fstat', 'a closed directory');
      return hostStat(fstatSync(this.#handle.fd));
    });
  }

  async openDirectory(name: string): Promise<DirectoryHandle> {
    const path = this.#at(name);
    try {
      return new ProcDirectory(await open(path, directoryFlags));
    } catch (error) {
      // With O_DIRECTORY, Linux reports a symlink as ENOTDIR. A symlink there now, or a directory again, means it was swapped: told apart from a file.
      if (errnoCode(error) === 'ENOTDIR') {
        const now = await lstat(path).catch(() => null);
        if (now?.isSymbolicLink() === true || now?.isDirectory() === true) throw errnoError('ELOOP', 'open', path);
      }
      throw error;
    }
  }

  lstat(name: string): Promise<HostStat> {
    return onCallingThread(() => hostStat(lstatSync(this.#at(name))));
  }

  async readdir(): Promise<HostDirectoryEntry[]> {
    return (await readdir(this.#self, { withFileTypes: true })).map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
  }

  async mkdir(name: string): Promise<void> {
    await mkdir(this.#at(name), { mode: 0o777 });
  }

  async openRead(name: string): Promise<ReadHandle> {
    return readHandle(await open(this.#at(name), readFlags));
  }

  async createExclusive(name: string): Promise<WriteHandle> {
    return writeHandle(await open(this.#at(name), createFlags, 0o600));
  }

  rename(from: string, to: string): Promise<void> {
    return rename(this.#at(from), this.#at(to));
  }

  unlink(name: string): Promise<void> {
    return unlink(this.#at(name));
  }

  discardTemp(name: string): Promise<void> {
    return this.unlink(name);
  }

  sync(): Promise<void> {
    return this.#handle.sync();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await closeQuietly(this.#handle);
  }
}
