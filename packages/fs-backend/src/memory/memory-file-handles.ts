import { errnoError } from '../common/errno.ts';
import type { ReadHandle, WriteHandle } from '../common/host.ts';
import type { FaultTable } from './memory-faults.ts';
import { statOf, yieldTurn } from './memory-stat.ts';
import type { MemoryFile, MemoryNode } from './memory-tree.ts';

/** An open file of the tree: reads see the node, wherever it has moved. */
export function readHandle(node: MemoryNode, path: string, faults: FaultTable): ReadHandle {
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

/** A temp file made by createExclusive, written through its node. */
export function writeHandle(file: MemoryFile, path: string, faults: FaultTable): WriteHandle {
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
