import { CacheBudget } from '@openwork/tree-search/worker';
import { CheckedFileSystem } from '../common/checked-file-system.ts';
import { detectDirectoryHandles, type DirectoryHandleSupport } from './directory-handles.ts';
import { nodeHost } from './node-host.ts';
import { defaultLockDirectory, NodeLocker } from './node-locker.ts';
import { NodeWalkers } from './node-walkers.ts';
import { WorkerPool } from './worker-pool.ts';

export interface NodeFileSystemOptions {
  /** Where cross-process lock files live; default `os.tmpdir()/openwork-tools-locks`. Keep it outside every root. */
  readonly lockDirectory?: string;
  /** A lock not refreshed for this long is taken over (its holder died); default 10000, at least 2000. */
  readonly lockStaleMs?: number;
  /** Worker threads of searches; default the available parallelism, at most 4. */
  readonly readWorkers?: number;
  /**
   * `auto` (default): resolve the last mile under open directories where the
   * host allows it (Linux /proc/self/fd); `never`: lstat-checked paths, the
   * fallback of hosts without /proc (docs/decisions/0009).
   */
  readonly directoryHandles?: 'auto' | 'never';
  /**
   * What searches keep between calls (docs/decisions/0036): file summaries
   * within a memory budget, by default a budget of this file system's own
   * of SEARCH_CACHE_BYTES. A server with several sessions passes them one
   * CacheBudget; `maxBytes: 0` keeps nothing. `racyMs`: how old a file's
   * ctime must be, when it is read, for its summary to be kept (default
   * 2000; a file system with a coarser clock needs more).
   */
  readonly searchCache?: { readonly budget?: CacheBudget; readonly maxBytes?: number; readonly racyMs?: number };
}

/** The default memory budget of a server's search caches: 256 MiB (docs/contract.md §6). */
export const SEARCH_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * The host file system (node:fs/promises). The only code that turns a
 * CheckedPath into real I/O (docs/contract.md §1).
 */
export class NodeFileSystem extends CheckedFileSystem {
  readonly name = 'node';
  /** How a call gets from a root to its file on this host, and why. */
  readonly directoryHandles: DirectoryHandleSupport;
  readonly #workers: WorkerPool;
  readonly #walkers: NodeWalkers;
  readonly #budget: CacheBudget;

  constructor(options: NodeFileSystemOptions = {}) {
    const support: DirectoryHandleSupport =
      options.directoryHandles === 'never' ? { mode: 'paths', reason: 'turned off with directoryHandles: never' } : detectDirectoryHandles();
    const budget = options.searchCache?.budget ?? new CacheBudget({ maxBytes: options.searchCache?.maxBytes ?? SEARCH_CACHE_BYTES });
    const racyMs = options.searchCache?.racyMs;
    const shared = budget.shared;
    const cache = shared === undefined ? undefined : { budget, ...(racyMs === undefined ? {} : { racyMs }) };
    const workers = new WorkerPool({ size: options.readWorkers, mode: support.mode, cache: shared === undefined ? undefined : { budget: shared, ...(racyMs === undefined ? {} : { racyMs }) } });
    const walkers = new NodeWalkers(workers, { handles: support.mode === 'handles', cache });
    super(nodeHost(support.mode), new NodeLocker({ directory: options.lockDirectory ?? defaultLockDirectory(), staleMs: Math.max(2000, options.lockStaleMs ?? 10_000) }), walkers);
    this.#walkers = walkers;
    this.#budget = budget;
    this.directoryHandles = support;
    this.#workers = workers;
  }

  /** The budget's size in bytes, shared with every file system given the same budget; 0 when searches keep nothing. */
  get searchCacheMaxBytes(): number {
    return this.#budget.maxBytes;
  }

  /** Bytes of summaries the search caches hold now, of every file system sharing this one's budget. */
  get searchCacheBytes(): number {
    return this.#budget.usedBytes;
  }

  /** Worker threads running a search task right now (0 once a call has ended, cancelled or not). */
  get busyWorkers(): number {
    return this.#workers.busy;
  }

  /**
   * Stops the worker threads, which start on the first search, and forgets
   * the directory listings kept for the next calls, giving their part of the
   * budget back: a session closes its file system when it ends. Idle
   * workers never keep the process alive meanwhile; a later call starts them
   * again.
   */
  close(): Promise<void> {
    this.#walkers.close();
    return this.#workers.close();
  }
}
