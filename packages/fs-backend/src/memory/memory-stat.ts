import type { EntryKind } from '@openwork/path-guard';
import type { HostStat } from '../common/host.ts';
import { memoryDevice, type MemoryNode } from './memory-tree.ts';

export function kindOf(node: MemoryNode): EntryKind {
  return node.type === 'file' ? 'file' : node.type;
}

export function statOf(node: MemoryNode): HostStat {
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
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => queueMicrotask(resolve));
}
