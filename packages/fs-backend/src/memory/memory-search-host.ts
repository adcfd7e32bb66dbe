import type { EntryKind } from '@openwork/path-guard';
import { joinPath } from '../common/checked.ts';
import { errnoError } from '../common/errno.ts';
import { HEAD_BYTES, openTarget, SearchOpenError, type FileRead, type SearchDirectory, type SearchEntry, type SearchHost, type WireTarget } from '@openwork/tree-search';
import type { FaultTable } from './memory-faults.ts';
import { kindOf } from './memory-stat.ts';
import { memoryDevice, type MemoryDirectory, type MemoryTree } from './memory-tree.ts';

/**
 * The search's walkers over the in-memory tree: the same refusals as the
 * Node walkers (a symlink is never entered, a changed root or directory is
 * refused) and the same injected faults as the memory host, synchronously,
 * since the tree answers at once. A directory holds its node, as a
 * descriptor does (docs/decisions/0009).
 */
export function memorySearchHost(tree: MemoryTree, faults: FaultTable): SearchHost {
  return {
    open: (target, path) => openTarget(target, path, () => openRoot(tree, faults, target)),
  };
}

function linkTarget(tree: MemoryTree, path: string): EntryKind | undefined {
  try {
    const node = tree.walk(path, { followLast: true }).node;
    return node === undefined ? undefined : kindOf(node);
  } catch {
    return undefined;
  }
}

function openRoot(tree: MemoryTree, faults: FaultTable, target: WireTarget): SearchDirectory {
  const rootNode = tree.walk(target.root, { followLast: false }).node;
  if (rootNode?.type !== 'directory') throw new SearchOpenError('root');
  return searchDirectory(tree, rootNode, target.root, faults);
}

function searchDirectory(tree: MemoryTree, node: MemoryDirectory, path: string, faults: FaultTable): SearchDirectory {
  return {
    dev: memoryDevice,
    ino: node.ino,
    list: (): SearchEntry[] => {
      faults.check('readdir', path);
      return [...node.entries].map(([name, child]) => ({ name, kind: kindOf(child) }));
    },
    openDirectory: (name) => {
      const child = node.entries.get(name);
      const childPath = joinPath(path, name);
      if (child === undefined) throw errnoError('ENOENT', 'open', childPath);
      if (child.type === 'symlink') throw new SearchOpenError('directory');
      if (child.type !== 'directory') throw errnoError('ENOTDIR', 'open', childPath);
      return searchDirectory(tree, child, childPath, faults);
    },
    readFile: (name, maxBytes, decide): FileRead => {
      const childPath = joinPath(path, name);
      try {
        faults.check('open', childPath);
        const child = node.entries.get(name);
        if (child === undefined) return { ok: false, reason: 'gone' };
        if (child.type !== 'file') return { ok: false, reason: 'unreadable' };
        if (child.data.byteLength > maxBytes) return { ok: false, reason: 'tooLarge' };
        faults.check('read', childPath);
        const bytes = Buffer.from(child.data.buffer, child.data.byteOffset, child.data.byteLength);
        if (decide !== undefined && bytes.length > HEAD_BYTES && decide(bytes.subarray(0, HEAD_BYTES))) return { ok: true, bytes: bytes.subarray(0, HEAD_BYTES), settled: true };
        return { ok: true, bytes };
      } catch (error) {
        return { ok: false, reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable' };
      }
    },
    // The path the directory was reached by: a hint, as the Node host's stat through its descriptor is.
    linkTarget: (name) => linkTarget(tree, joinPath(path, name)),
    close: () => undefined,
  };
}
