import type { SearchCacheOptions } from '@openwork/tree-search/worker';
import { InProcessWalkers, type InProcessRun, type SearchWalkers, type WalkerEvents, type WalkerRun, type WireSpec, type WireTask } from '@openwork/tree-search';
import { nodeSearchHost } from './node-search-host.ts';
import type { WorkerPool } from './worker-pool.ts';

/** How long a search walks on the calling thread alone before the worker threads are started to take over. */
const HEAD_START_MS = 75;
/**
 * A search that may keep more results than this is expected to walk a
 * good part of its tree: its workers start at once, while the calling
 * thread walks until the first of them is ready.
 */
const LARGE_CAPACITY = 10_000;
/** The calling thread's turns: this long, then other work (and the merge) runs. */
const SLICE_MS = 4;
/**
 * What the calling thread's walker asks of the budget's part for directory
 * listings (docs/decisions/0036): it walks a tree alone only while the tree
 * is small, so less than a worker's 8 MiB.
 */
const LISTING_BYTES_CALLING_THREAD = 2 * 1024 * 1024;

/**
 * The Node file system's walkers (docs/decisions/0012): a search starts
 * walking on the calling thread at once, in short turns, with the same code
 * and the same directory handles as the workers; one still running after a
 * head start starts the worker threads, and once one of them is ready, the
 * calling thread hands over all it has left and walks no more. A small
 * search, or the first hundred hits of a large one, never waits for a thread
 * to start, and a one-shot command that searched a small tree starts none.
 * A search for more than ten thousand results starts the threads at once.
 */
export class NodeWalkers implements SearchWalkers {
  readonly #pool: WorkerPool;
  readonly #options: { handles: boolean; cache?: SearchCacheOptions | undefined };
  /** The calling thread's walker, made at its first search after a close, with what it reserved for its listings. */
  #local: { readonly walkers: InProcessWalkers; readonly listingBytes: number } | undefined;

  constructor(pool: WorkerPool, options: { handles: boolean; cache?: SearchCacheOptions | undefined }) {
    this.#pool = pool;
    this.#options = options;
  }

  begin(spec: WireSpec, events: WalkerEvents): WalkerRun {
    return new HeadStartRun(this.#pool, this.#localWalkers().begin(spec, events), spec, events);
  }

  /** Forgets the calling thread's listings and gives back what they reserved; a later search starts afresh. */
  close(): void {
    if (this.#local !== undefined) this.#options.cache?.budget.releaseListings(this.#local.listingBytes);
    this.#local = undefined;
  }

  #localWalkers(): InProcessWalkers {
    if (this.#local === undefined) {
      const cache = this.#options.cache;
      const listingBytes = cache?.budget.reserveListings(LISTING_BYTES_CALLING_THREAD) ?? 0;
      const host = nodeSearchHost({ handles: this.#options.handles, ...(cache === undefined ? {} : { cache, listingBytes }) });
      this.#local = { walkers: new InProcessWalkers(host, { sliceMs: SLICE_MS }), listingBytes };
    }
    return this.#local.walkers;
  }
}

class HeadStartRun implements WalkerRun {
  readonly #local: InProcessRun;
  #remote: WalkerRun | undefined;
  #handedOver = false;
  #ended = false;
  readonly #timer: NodeJS.Timeout;

  constructor(pool: WorkerPool, local: InProcessRun, spec: WireSpec, events: WalkerEvents) {
    this.#local = local;
    this.#timer = setTimeout(() => {
      if (this.#ended) return;
      this.#remote = pool.begin(spec, events);
      void pool.whenReady().then(() => {
        if (this.#ended) return;
        this.#handedOver = true;
        // The parts go back to the coordinator, which hands them to the workers.
        this.#local.surrender();
      });
    }, spec.capacity > LARGE_CAPACITY ? 0 : HEAD_START_MS);
    // A timer never keeps a process alive on its own: the search's own work does.
    this.#timer.unref();
  }

  get walkers(): number {
    return this.#handedOver && this.#remote !== undefined ? this.#remote.walkers : 1;
  }

  assign(task: WireTask, bound: string | undefined): boolean {
    if (this.#handedOver && this.#remote !== undefined) return this.#remote.assign(task, bound);
    return this.#local.assign(task, bound);
  }

  bound(key: string): void {
    this.#local.bound(key);
    this.#remote?.bound(key);
  }

  requestSplit(taskId: number): void {
    this.#local.requestSplit(taskId);
    this.#remote?.requestSplit(taskId);
  }

  async cancel(): Promise<void> {
    clearTimeout(this.#timer);
    await Promise.all([this.#local.cancel(), this.#remote?.cancel()]);
  }

  end(): void {
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#local.end();
    this.#remote?.end();
  }
}
