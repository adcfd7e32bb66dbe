import { close, fstatSync, fsync, lstatSync, openSync } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { errnoCode, errnoError } from '../common/errno.ts';
import type { DirectoryHandle, HostDirectoryEntry, HostStat, ReadHandle, WriteHandle } from '../common/host.ts';
import { createFlags, descriptorReadHandle, directoryFlags, hostStat, kindOf, onCallingThread, readFlags, singleComponent, writeHandle } from './node-file-handles.ts';

/**
 * A directory held open with O_DIRECTORY | O_NOFOLLOW, in which names are
 * looked up through /proc/self/fd/N/name: Linux resolves /proc/self/fd/N to
 * this very directory, wherever it has moved since, and the name is the only
 * component after it. That is openat(2) without a native addon
 * (docs/decisions/0009). The descriptor stays open until close, so N always
 * means this directory while a call uses it.
 *
 * Opening, fstat, lstat and opening a file to read are made on the calling
 * thread (docs/decisions/0042): the kernel answers them from its caches in
 * microseconds, where a trip through libuv's thread pool costs tens. Listing,
 * reading bytes, writing, renaming and removing stay on the pool.
 */
export class ProcDirectory implements DirectoryHandle {
  readonly #fd: number;
  #closed = false;

  private constructor(fd: number) {
    this.#fd = fd;
  }

  /** Opens an absolute path: a final symlink is refused; earlier components are the caller's to trust (a root, then compared by identity). */
  static open(path: string): Promise<ProcDirectory> {
    return onCallingThread(() => new ProcDirectory(openSync(path, directoryFlags)));
  }

  get #self(): string {
    if (this.#closed) throw errnoError('EBADF', 'open', 'a closed directory');
    return `/proc/self/fd/${this.#fd}`;
  }

  #at(name: string): string {
    return `${this.#self}/${singleComponent(name)}`;
  }

  stat(): Promise<HostStat> {
    return onCallingThread(() => {
      if (this.#closed) throw errnoError('EBADF', 'fstat', 'a closed directory');
      return hostStat(fstatSync(this.#fd));
    });
  }

  async openDirectory(name: string): Promise<DirectoryHandle> {
    const path = this.#at(name);
    try {
      return await onCallingThread(() => new ProcDirectory(openSync(path, directoryFlags)));
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

  openRead(name: string): Promise<ReadHandle> {
    // O_NONBLOCK: a FIFO swapped in does not hold the thread; the fstat after it refuses anything but a regular file.
    return onCallingThread(() => descriptorReadHandle(openSync(this.#at(name), readFlags)));
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
    return new Promise((resolve, reject) => {
      fsync(this.#fd, (error) => (error === null ? resolve() : reject(error)));
    });
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    // Never throws: a descriptor that cannot be closed is gone already.
    return new Promise((resolve) => {
      close(this.#fd, () => resolve());
    });
  }
}
