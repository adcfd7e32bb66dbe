import { joinPath } from '../common/checked.ts';
import { errnoError } from '../common/errno.ts';
import type { DirectoryHandle, Host, HostDirectoryEntry } from '../common/host.ts';
import type { FaultTable } from './memory-faults.ts';
import { readHandle, writeHandle } from './memory-file-handles.ts';
import { kindOf, statOf, yieldTurn } from './memory-stat.ts';
import type { MemoryDirectory, MemoryNode, MemoryTree } from './memory-tree.ts';

const maxNameBytes = 255;
const encoder = new TextEncoder();

/**
 * The Host over an in-memory tree: the same system-call semantics the shared
 * algorithms get from node:fs (O_NOFOLLOW, O_EXCL, rename over a file,
 * EISDIR/ENOTEMPTY), and injected faults at the same points. A directory
 * handle holds the directory node itself, as a descriptor does, so the tree
 * behaves like Linux's /proc/self/fd walk (docs/decisions/0009).
 */
export function memoryHost(tree: MemoryTree, faults: FaultTable, umask: number): Host {
  return {
    lstat: async (path) => {
      await yieldTurn();
      faults.check('lstat', path);
      const node = tree.walk(path, { followLast: false }).node;
      if (node === undefined) throw errnoError('ENOENT', 'lstat', path);
      return statOf(node);
    },
    readlink: async (path) => {
      await yieldTurn();
      faults.check('readlink', path);
      const node = tree.walk(path, { followLast: false }).node;
      if (node === undefined) throw errnoError('ENOENT', 'readlink', path);
      if (node.type !== 'symlink') throw errnoError('EINVAL', 'readlink', path);
      return node.target;
    },
    openRoot: async (path) => {
      await yieldTurn();
      const node = tree.walk(path, { followLast: false }).node;
      if (node === undefined) throw errnoError('ENOENT', 'open', path);
      if (node.type === 'symlink') throw errnoError('ELOOP', 'open', path);
      if (node.type !== 'directory') throw errnoError('ENOTDIR', 'open', path);
      return directoryHandle(tree, node, path, { faults, umask });
    },
    newFileMode: (requested) => (requested ?? 0o644) & ~umask & 0o7777,
  };
}

interface Settings {
  readonly faults: FaultTable;
  readonly umask: number;
}

/** `path` is how the directory was reached: for faults and messages only, never to look anything up. */
function directoryHandle(tree: MemoryTree, directory: MemoryDirectory, path: string, settings: Settings): DirectoryHandle {
  const { faults, umask } = settings;
  const at = (name: string, syscall: string): string => {
    if (name === '' || name === '.' || name === '..' || name.includes('/')) throw new TypeError(`not a single path component: ${JSON.stringify(name)}`);
    if (encoder.encode(name).byteLength > maxNameBytes) throw errnoError('ENAMETOOLONG', syscall, joinPath(path, name));
    return joinPath(path, name);
  };
  const entry = (name: string, syscall: string): MemoryNode => {
    const node = directory.entries.get(name);
    if (node === undefined) throw errnoError('ENOENT', syscall, joinPath(path, name));
    return node;
  };
  const unlink = async (name: string): Promise<void> => {
    await yieldTurn();
    const child = at(name, 'unlink');
    faults.check('unlink', child);
    const node = entry(name, 'unlink');
    if (node.type === 'directory') throw errnoError('EISDIR', 'unlink', child);
    directory.entries.delete(name);
  };
  return {
    stat: async () => {
      await yieldTurn();
      return statOf(directory);
    },
    openDirectory: async (name) => {
      await yieldTurn();
      const child = at(name, 'open');
      const node = entry(name, 'open');
      if (node.type === 'symlink') throw errnoError('ELOOP', 'open', child);
      if (node.type !== 'directory') throw errnoError('ENOTDIR', 'open', child);
      return directoryHandle(tree, node, child, settings);
    },
    lstat: async (name) => {
      await yieldTurn();
      const child = at(name, 'lstat');
      faults.check('lstat', child);
      return statOf(entry(name, 'lstat'));
    },
    readdir: async (): Promise<HostDirectoryEntry[]> => {
      await yieldTurn();
      faults.check('readdir', path);
      return [...directory.entries].map(([name, node]) => ({ name, kind: kindOf(node) }));
    },
    mkdir: async (name) => {
      await yieldTurn();
      const child = at(name, 'mkdir');
      faults.check('mkdir', child);
      if (directory.entries.has(name)) throw errnoError('EEXIST', 'mkdir', child);
      directory.entries.set(name, tree.newDirectory(0o777 & ~umask));
    },
    openRead: async (name) => {
      await yieldTurn();
      const child = at(name, 'open');
      faults.check('open', child);
      const node = entry(name, 'open');
      if (node.type === 'symlink') throw errnoError('ELOOP', 'open', child);
      return readHandle(node, child, faults);
    },
    createExclusive: async (name) => {
      await yieldTurn();
      const child = at(name, 'open');
      faults.check('open', child);
      if (directory.entries.has(name)) throw errnoError('EEXIST', 'open', child);
      const file = tree.newFile(0o600 & ~umask, new Uint8Array(0));
      directory.entries.set(name, file);
      return writeHandle(file, child, faults);
    },
    rename: async (from, to) => {
      await yieldTurn();
      const source = at(from, 'rename');
      const destination = at(to, 'rename');
      faults.check('rename', source, destination);
      const moving = entry(from, 'rename');
      const replaced = directory.entries.get(to);
      if (replaced === moving) return;
      if (replaced?.type === 'directory') {
        if (moving.type !== 'directory') throw errnoError('EISDIR', 'rename', destination);
        if (replaced.entries.size > 0) throw errnoError('ENOTEMPTY', 'rename', destination);
      } else if (replaced !== undefined && moving.type === 'directory') {
        throw errnoError('ENOTDIR', 'rename', destination);
      }
      directory.entries.delete(from);
      directory.entries.set(to, moving);
    },
    unlink,
    discardTemp: unlink,
    sync: async () => {
      await yieldTurn();
      faults.check('sync', path);
    },
    close: () => Promise.resolve(),
  };
}
