import { constants, type Dirent, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, rename, unlink, type FileHandle } from 'node:fs/promises';
import type { EntryKind } from '@openwork/path-guard';
import type { Host, HostDirectoryEntry, HostStat, ReadHandle, WriteHandle } from '../shared/host.ts';

// O_NOFOLLOW: a symlink swapped in after the check is refused, not followed.
// O_NONBLOCK: opening a FIFO never waits for a writer. O_NOCTTY: a terminal never becomes ours.
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const createFlags = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW;
const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY;

function kindOf(entry: Stats | Dirent): EntryKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

function hostStat(stats: Stats): HostStat {
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

async function closeQuietly(handle: FileHandle): Promise<void> {
  await handle.close().catch(() => undefined);
}

function readHandle(handle: FileHandle): ReadHandle {
  let closed = false;
  return {
    stat: async () => hostStat(await handle.stat()),
    read: async (into, offset, length, position) => (await handle.read(into, offset, length, position)).bytesRead,
    close: async () => {
      if (closed) return;
      closed = true;
      await closeQuietly(handle);
    },
  };
}

function writeHandle(handle: FileHandle): WriteHandle {
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

/** The host's system calls: node:fs/promises, nothing else. */
export const nodeHost: Host = {
  lstat: async (path) => hostStat(await lstat(path)),
  readlink: (path) => readlink(path),
  readdir: async (path): Promise<HostDirectoryEntry[]> =>
    (await readdir(path, { withFileTypes: true })).map((entry) => ({ name: entry.name, kind: kindOf(entry) })),
  mkdir: async (path) => {
    await mkdir(path, { mode: 0o777 });
  },
  openRead: async (path) => readHandle(await open(path, readFlags)),
  createExclusive: async (path) => writeHandle(await open(path, createFlags, 0o600)),
  rename: (from, to) => rename(from, to),
  unlink: (path) => unlink(path),
  syncDirectory: async (path) => {
    const handle = await open(path, directoryFlags);
    try {
      await handle.sync();
    } finally {
      await closeQuietly(handle);
    }
  },
  // process.umask() only reads the mask here; a new file gets the mode open(2) would give it.
  newFileMode: (requested) => (requested ?? 0o644) & ~process.umask() & 0o7777,
};
