import { close, constants, fstatSync, read, type Dirent, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { EntryKind } from '@openwork/path-guard';
import { errnoError } from '../common/errno.ts';
import type { HostStat, ReadHandle, WriteHandle } from '../common/host.ts';

// O_NOFOLLOW: a symlink swapped in after the check is refused, not followed.
// O_NONBLOCK: opening a FIFO never waits for a writer. O_NOCTTY: a terminal never becomes ours.
export const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
export const createFlags = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW;
// O_NOFOLLOW on the last component: a directory swapped for a symlink is refused (ENOTDIR or ELOOP), never entered.
export const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

export function kindOf(entry: Stats | Dirent): EntryKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

export function hostStat(stats: Stats): HostStat {
  return {
    kind: kindOf(stats),
    dev: stats.dev,
    ino: stats.ino,
    size: stats.size,
    mode: stats.mode & 0o7777,
    mtimeMs: stats.mtimeMs,
    uid: stats.uid,
    gid: stats.gid,
  };
}

/**
 * A system call made on the calling thread, its answer or error as a promise
 * (docs/decisions/0042): for the calls the kernel answers from memory (an
 * fstat, an lstat whose path is in the dentry cache), a trip through libuv's
 * thread pool costs far more than the call.
 */
export function onCallingThread<T>(call: () => T): Promise<T> {
  // A throw in the executor rejects the promise.
  return new Promise((resolve) => resolve(call()));
}

export async function closeQuietly(handle: FileHandle): Promise<void> {
  await handle.close().catch(() => undefined);
}

export function readHandle(handle: FileHandle): ReadHandle {
  let closed = false;
  return {
    stat: () =>
      onCallingThread(() => {
        if (closed) throw errnoError('EBADF', 'fstat', 'a closed file');
        return hostStat(fstatSync(handle.fd));
      }),
    read: async (into, offset, length, position) => (await handle.read(into, offset, length, position)).bytesRead,
    close: async () => {
      if (closed) return;
      closed = true;
      await closeQuietly(handle);
    },
  };
}

/** A file opened on the calling thread (docs/decisions/0042), by its descriptor: fstat there too; its bytes are read and it is closed on the thread pool. */
export function descriptorReadHandle(fd: number): ReadHandle {
  let closed = false;
  return {
    stat: () =>
      onCallingThread(() => {
        if (closed) throw errnoError('EBADF', 'fstat', 'a closed file');
        return hostStat(fstatSync(fd));
      }),
    read: (into, offset, length, position) =>
      new Promise((resolve, reject) => {
        if (closed) {
          reject(errnoError('EBADF', 'read', 'a closed file'));
          return;
        }
        read(fd, into, offset, length, position, (error, bytesRead) => (error === null ? resolve(bytesRead) : reject(error)));
      }),
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise((resolve) => {
        close(fd, () => resolve());
      });
    },
  };
}

export function writeHandle(handle: FileHandle): WriteHandle {
  let closed = false;
  return {
    write: async (data) => {
      await handle.writeFile(data);
    },
    chmod: (mode) => handle.chmod(mode),
    chown: async (uid, gid) => {
      if (uid === process.getuid?.() && gid === process.getgid?.()) return;
      // Only a privileged process may give a file away; otherwise the writer owns the new content.
      await handle.chown(uid, gid).catch(() => undefined);
    },
    sync: () => handle.sync(),
    close: async () => {
      if (closed) return;
      closed = true;
      await closeQuietly(handle);
    },
  };
}

/** A name looked up in a directory must stay in it: `..` through /proc/self/fd/N would climb out. */
export function singleComponent(name: string): string {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
    throw new TypeError(`not a single path component: ${JSON.stringify(name)}`);
  }
  return name;
}
