import { KeyedMutex } from '../common/keyed-mutex.ts';
import { CheckedFileSystem } from '../common/checked-file-system.ts';
import { errnoError } from '../common/errno.ts';
import { FaultTable, type FaultCode, type FaultOperation } from './memory-faults.ts';
import { InProcessWalkers } from '@openwork/tree-search';
import { memoryHost } from './memory-host.ts';
import { memorySearchHost } from './memory-search-host.ts';
import { MemoryTree, type MemoryNode } from './memory-tree.ts';

export interface MemoryFileSystemOptions {
  /** Files to seed, absolute path → content (UTF-8 for a string); parents are made. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Directories to seed, with their parents. */
  readonly directories?: readonly string[];
  /** Symlinks to seed, absolute path → raw target (relative or absolute). */
  readonly symlinks?: Readonly<Record<string, string>>;
  /** Bits taken from the mode of every new file and directory; default 0o022. */
  readonly umask?: number;
  /** Walkers that take a search's tasks in turns, as the Node file system's workers do; default 1. */
  readonly searchWalkers?: number;
}

export interface SeedOptions {
  /** Permission bits, set exactly (no umask). */
  readonly mode?: number;
}

const encoder = new TextEncoder();

/**
 * A POSIX file system that lives in memory and never touches the host disk:
 * for tests of the tools, with the same atomic-write, error and lock semantics
 * as NodeFileSystem (the shared contract suite runs on both). Locks are
 * in-process only. Seeding methods bypass the checked-path door on purpose:
 * they build the world a test starts from.
 */
export class MemoryFileSystem extends CheckedFileSystem {
  readonly name = 'memory';
  readonly #tree: MemoryTree;
  readonly #faults: FaultTable;

  constructor(options: MemoryFileSystemOptions = {}) {
    const tree = new MemoryTree();
    const faults = new FaultTable();
    const mutex = new KeyedMutex();
    super(
      memoryHost(tree, faults, options.umask ?? 0o022),
      {
        acquire: async (realPath, signal, what) => {
          const release = await mutex.acquire(realPath, signal, what);
          return () => Promise.resolve(release());
        },
      },
      new InProcessWalkers(memorySearchHost(tree, faults), { walkers: options.searchWalkers ?? 1 }),
    );
    this.#tree = tree;
    this.#faults = faults;
    for (const directory of options.directories ?? []) this.seedDirectory(directory);
    for (const [path, content] of Object.entries(options.files ?? {})) this.seedFile(path, content);
    for (const [path, target] of Object.entries(options.symlinks ?? {})) this.seedSymlink(path, target);
  }

  /** mkdir -p; an existing directory is kept (its mode set when given). */
  seedDirectory(path: string, options: SeedOptions = {}): void {
    let prefix = '';
    for (const name of path.split('/').filter((part) => part !== '')) {
      prefix = `${prefix}/${name}`;
      const found = this.#tree.walk(prefix, { followLast: true });
      if (found.node === undefined && found.parent !== null) {
        found.parent.entries.set(found.name, this.#tree.newDirectory(0o755));
      } else if (found.node?.type !== 'directory') {
        throw errnoError('ENOTDIR', 'mkdir', prefix);
      }
    }
    const found = this.#tree.walk(path, { followLast: true });
    if (found.node?.type === 'directory' && options.mode !== undefined) found.node.mode = options.mode & 0o7777;
  }

  /** Creates or replaces the content of a file, making its parents; mode default 0o644. */
  seedFile(path: string, content: string | Uint8Array, options: SeedOptions = {}): void {
    const data = typeof content === 'string' ? encoder.encode(content) : new Uint8Array(content);
    this.#seedParents(path);
    const found = this.#tree.walk(path, { followLast: true });
    if (found.node?.type === 'file') {
      found.node.data = data;
      found.node.mtimeMs = Date.now();
      if (options.mode !== undefined) found.node.mode = options.mode & 0o7777;
      return;
    }
    if (found.node !== undefined) throw errnoError('EISDIR', 'open', path);
    this.#place(path, this.#tree.newFile((options.mode ?? 0o644) & 0o7777, data));
  }

  /** A symlink with this raw target, which need not exist. */
  seedSymlink(path: string, target: string): void {
    this.#place(path, this.#tree.newSymlink(target));
  }

  /** A FIFO (lstat kind `other`): never readable as a file. */
  seedFifo(path: string, options: SeedOptions = {}): void {
    this.#place(path, this.#tree.newSpecial((options.mode ?? 0o644) & 0o7777));
  }

  /** rm -rf of one entry (a symlink itself, not its target); nothing when absent. */
  removeEntry(path: string): void {
    const found = this.#tree.walk(path, { followLast: false });
    if (found.node === undefined || found.parent === null) return;
    found.parent.entries.delete(found.name);
  }

  /** rename(2) of one entry, keeping its inode; replaces a destination that is not a non-empty directory. */
  moveEntry(from: string, to: string): void {
    const source = this.#tree.walk(from, { followLast: false });
    if (source.node === undefined || source.parent === null) throw errnoError('ENOENT', 'rename', from);
    const destination = this.#tree.walk(to, { followLast: false });
    if (destination.parent === null) throw errnoError('EBUSY', 'rename', to);
    if (destination.node?.type === 'directory' && destination.node.entries.size > 0) throw errnoError('ENOTEMPTY', 'rename', to);
    source.parent.entries.delete(source.name);
    destination.parent.entries.set(destination.name, source.node);
  }

  /** The bytes of a file as stored (following symlinks), or undefined; for assertions. */
  inspectFile(path: string): Uint8Array | undefined {
    const node = this.#lookup(path);
    return node?.type === 'file' ? new Uint8Array(node.data) : undefined;
  }

  /** The entry names of a directory, sorted, or undefined; for assertions. */
  inspectDirectory(path: string): string[] | undefined {
    const node = this.#lookup(path);
    return node?.type === 'directory' ? [...node.entries.keys()].sort() : undefined;
  }

  /** The permission bits of an entry (not following a final symlink), or undefined; for assertions. */
  inspectMode(path: string): number | undefined {
    try {
      return this.#tree.walk(path, { followLast: false }).node?.mode;
    } catch {
      return undefined;
    }
  }

  /** From now on, `operation` on `path` (or below it, or on its temp file) fails with `code`. */
  injectFault(path: string, operation: FaultOperation, code: FaultCode): void {
    this.#faults.add(path, operation, code);
  }

  clearFaults(): void {
    this.#faults.clear();
  }

  #lookup(path: string): MemoryNode | undefined {
    try {
      return this.#tree.walk(path, { followLast: true }).node;
    } catch {
      return undefined;
    }
  }

  #seedParents(path: string): void {
    const slash = path.lastIndexOf('/');
    if (slash > 0) this.seedDirectory(path.slice(0, slash));
  }

  #place(path: string, node: MemoryNode): void {
    this.#seedParents(path);
    const found = this.#tree.walk(path, { followLast: false });
    if (found.parent === null) throw errnoError('EEXIST', 'seed', path);
    if (found.node !== undefined) throw errnoError('EEXIST', 'seed', path);
    found.parent.entries.set(found.name, node);
  }
}
