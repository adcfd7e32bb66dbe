import type { EntryKind } from '@openwork/path-guard';
import { errnoError } from '../shared/errno.ts';
import type { Host, HostDirectoryEntry, HostStat, ReadHandle, WriteHandle } from '../shared/host.ts';
import type { FaultTable } from './memory-faults.ts';
import { memoryDevice, type MemoryFile, type MemoryNode, type MemoryTree } from './memory-tree.ts';

function kindOf(node: MemoryNode): EntryKind {
  return node.type === 'file' ? 'file' : node.type;
}

function statOf(node: MemoryNode): HostStat {
  return {
    kind: kindOf(node),
    dev: memoryDevice,
    ino: node.ino,
    size: node.type === 'file' ? node.data.byteLength : node.type === 'symlink' ? new TextEncoder().encode(node.target).byteLength : 0,
    mode: node.mode,
    mtimeMs: node.mtimeMs,
    uid: 0,
    gid: 0,
  };
}

/** Lets other operations run between steps, as real I/O would, so unlocked writers can interleave. */
function yieldTurn(): Promise<void> {
  return new Promise((resolve) => queueMicrotask(resolve));
}

/**
 * The Host over an in-memory tree: the same system-call semantics the shared
 * algorithms get from node:fs (O_NOFOLLOW, O_EXCL, rename over a file,
 * EISDIR/ENOTEMPTY), and injected faults at the same points.
 */
export function memoryHost(tree: MemoryTree, faults: FaultTable, umask: number): Host {
  const existing = (path: string, syscall: string, followLast: boolean): MemoryNode => {
    const found = tree.walk(path, { followLast });
    if (found.node === undefined) throw errnoError('ENOENT', syscall, path);
    return found.node;
  };
  return {
    lstat: async (path) => {
      await yieldTurn();
      faults.check('lstat', path);
      return statOf(existing(path, 'lstat', false));
    },
    readlink: async (path) => {
      await yieldTurn();
      faults.check('readlink', path);
      const node = existing(path, 'readlink', false);
      if (node.type !== 'symlink') throw errnoError('EINVAL', 'readlink', path);
      return node.target;
    },
    readdir: async (path): Promise<HostDirectoryEntry[]> => {
      await yieldTurn();
      faults.check('readdir', path);
      const node = existing(path, 'scandir', true);
      if (node.type !== 'directory') throw errnoError('ENOTDIR', 'scandir', path);
      return [...node.entries].map(([name, entry]) => ({ name, kind: kindOf(entry) }));
    },
    mkdir: async (path) => {
      await yieldTurn();
      faults.check('mkdir', path);
      const found = tree.walk(path, { followLast: false });
      if (found.node !== undefined) throw errnoError('EEXIST', 'mkdir', path);
      if (found.parent === null) throw errnoError('EEXIST', 'mkdir', path);
      found.parent.entries.set(found.name, tree.newDirectory(0o777 & ~umask));
    },
    openRead: async (path) => {
      await yieldTurn();
      faults.check('open', path);
      const node = existing(path, 'open', false);
      if (node.type === 'symlink') throw errnoError('ELOOP', 'open', path);
      return readHandle(node, path, faults);
    },
    createExclusive: async (path) => {
      await yieldTurn();
      faults.check('open', path);
      const found = tree.walk(path, { followLast: false });
      if (found.node !== undefined || found.parent === null) throw errnoError('EEXIST', 'open', path);
      const file = tree.newFile(0o600 & ~umask, new Uint8Array(0));
      found.parent.entries.set(found.name, file);
      return writeHandle(file, path, faults);
    },
    rename: async (from, to) => {
      await yieldTurn();
      faults.check('rename', from, to);
      const source = tree.walk(from, { followLast: false });
      const destination = tree.walk(to, { followLast: false });
      if (source.node === undefined || source.parent === null) throw errnoError('ENOENT', 'rename', from);
      if (destination.parent === null) throw errnoError('EBUSY', 'rename', to);
      const replaced = destination.node;
      if (replaced === source.node) return;
      if (replaced?.type === 'directory') {
        if (source.node.type !== 'directory') throw errnoError('EISDIR', 'rename', to);
        if (replaced.entries.size > 0) throw errnoError('ENOTEMPTY', 'rename', to);
      } else if (replaced !== undefined && source.node.type === 'directory') {
        throw errnoError('ENOTDIR', 'rename', to);
      }
      source.parent.entries.delete(source.name);
      destination.parent.entries.set(destination.name, source.node);
    },
    unlink: async (path) => {
      await yieldTurn();
      faults.check('unlink', path);
      const found = tree.walk(path, { followLast: false });
      if (found.node === undefined || found.parent === null) throw errnoError('ENOENT', 'unlink', path);
      if (found.node.type === 'directory') throw errnoError('EISDIR', 'unlink', path);
      found.parent.entries.delete(found.name);
    },
    syncDirectory: async (path) => {
      await yieldTurn();
      faults.check('sync', path);
    },
    newFileMode: (requested) => (requested ?? 0o644) & ~umask & 0o7777,
  };
}

function readHandle(node: MemoryNode, path: string, faults: FaultTable): ReadHandle {
  return {
    stat: async () => {
      await yieldTurn();
      return statOf(node);
    },
    read: async (into, offset, length, position) => {
      await yieldTurn();
      faults.check('read', path);
      if (node.type === 'directory') throw errnoError('EISDIR', 'read', path);
      // A FIFO with no writer reads as end of file, as O_NONBLOCK does.
      if (node.type !== 'file') return 0;
      const chunk = node.data.subarray(position, position + length);
      into.set(chunk, offset);
      return chunk.byteLength;
    },
    close: async () => {
      await yieldTurn();
    },
  };
}

function writeHandle(file: MemoryFile, path: string, faults: FaultTable): WriteHandle {
  let closed = false;
  const open = (syscall: string) => {
    if (closed) throw errnoError('EBADF', syscall, path);
  };
  return {
    write: async (data) => {
      await yieldTurn();
      open('write');
      faults.check('write', path);
      const grown = new Uint8Array(file.data.byteLength + data.byteLength);
      grown.set(file.data);
      grown.set(data, file.data.byteLength);
      file.data = grown;
      file.mtimeMs = Date.now();
    },
    chmod: async (mode) => {
      await yieldTurn();
      open('fchmod');
      file.mode = mode & 0o7777;
    },
    chown: async () => {
      await yieldTurn();
    },
    sync: async () => {
      await yieldTurn();
      open('fsync');
      faults.check('sync', path);
    },
    close: async () => {
      closed = true;
      await yieldTurn();
    },
  };
}
