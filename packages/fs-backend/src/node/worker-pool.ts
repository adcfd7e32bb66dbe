import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SearchWalkers, TaskBatch, WalkerEvents, WalkerRun, WireSpec, WireTask } from '@openwork/tree-search';
import { CacheBudget, type FromWorker, type SharedSearchMemory, type ToWorker } from '@openwork/tree-search/worker';
// A build output (scripts/bundle-search-worker.ts), declared by worker-source.generated.d.ts.
import { SEARCH_WORKER_SOURCE } from './worker-source.generated.js';

/** How long a worker may take to stop a cancelled task before it is terminated instead. */
const CANCEL_GRACE_MS = 2000;
/** What each worker asks of the budget's part for directory listings (docs/decisions/0036): a tree of about 10,000 directories. */
const LISTING_BYTES_PER_WORKER = 8 * 1024 * 1024;

/** What a worker thread is started with: its last mile, and the shared budget of its search cache when it keeps one (docs/decisions/0036). */
export interface WorkerData {
  readonly handles: boolean;
  readonly cacheBudget?: SharedSearchMemory;
  readonly racyMs?: number;
  /** Bytes of directory listings it may keep between calls, reserved for it in the budget. */
  readonly listingBytes?: number;
}

/** One worker thread: the task it runs (at most one), the batch requests it owes, and whether it keeps the process alive. */
class PoolWorker {
  readonly worker: Worker;
  /** What it reserved of the budget's part for listings: given back once, when it stops or fails. */
  listingBytes: number;
  /** The search task it runs: [search id, task id]. */
  task: readonly [number, number] | undefined;
  failed: Error | undefined;
  /** Its code is loaded: a task handed to it starts at once. */
  ready = false;
  readonly #onIdle = new Map<number, Array<() => void>>();

  readonly #searchesOpen: () => boolean;

  constructor(
    data: WorkerData,
    onMessage: (worker: PoolWorker, message: FromWorker) => void,
    onFailure: (worker: PoolWorker, error: Error) => void,
    searchesOpen: () => boolean,
  ) {
    this.#searchesOpen = searchesOpen;
    this.listingBytes = data.listingBytes ?? 0;
    this.worker = new Worker(SEARCH_WORKER_SOURCE, { eval: true, workerData: data });
    this.worker.on('message', (message: FromWorker) => {
      if (message.op === 'ready') this.ready = true;
      if (message.op === 'idle') this.#idle(message.search);
      onMessage(this, message);
      this.settle();
    });
    const fail = (error: Error) => {
      if (this.failed !== undefined) return;
      this.failed = error;
      for (const waiters of this.#onIdle.values()) for (const waiter of waiters) waiter();
      this.#onIdle.clear();
      onFailure(this, error);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`a file system worker thread exited (${code})`)));
    // After the listeners: adding a 'message' listener refs the worker again, and an idle worker must never keep the process alive.
    this.worker.unref();
  }

  get busy(): boolean {
    return this.task !== undefined;
  }

  post(message: ToWorker): void {
    if (this.failed !== undefined) return;
    // Work in flight keeps the process alive until its answer arrives, and so
    // does an open search (it may be waiting for this worker to load before it
    // hands over its tasks); an idle pool does not.
    if (message.op === 'begin' || message.op === 'task') this.worker.ref();
    this.worker.postMessage(message);
  }

  /** Unrefs the worker once it owes nothing. */
  settle(): void {
    if (!this.busy && !this.#searchesOpen()) this.worker.unref();
  }

  /** Resolves once the worker runs no task of this search (it answered a cancel), or is gone. */
  whenIdle(search: number): Promise<void> {
    if (this.failed !== undefined || this.task?.[0] !== search) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.#onIdle.get(search) ?? [];
      waiters.push(resolve);
      this.#onIdle.set(search, waiters);
    });
  }

  #idle(search: number): void {
    if (this.task?.[0] === search) this.task = undefined;
    const waiters = this.#onIdle.get(search) ?? [];
    this.#onIdle.delete(search);
    for (const waiter of waiters) waiter();
  }
}

export interface WorkerPoolOptions {
  /** Worker threads; default the available parallelism, at most 4. */
  readonly size?: number | undefined;
  /** The last mile the workers walk: under /proc/self/fd, or lstat-checked paths (docs/decisions/0009). */
  readonly mode: 'handles' | 'paths';
  /** The search cache's shared budget and racy margin, none to keep nothing between calls. */
  readonly cache?: { readonly budget: SharedSearchMemory; readonly racyMs?: number } | undefined;
}

/**
 * The Node file system's worker threads, a resource of the session:
 * started on the first search, each unreferenced
 * whenever it owes nothing so that it never keeps a process alive, stopped
 * by close() (a later call starts them again). They run search tasks
 * (docs/decisions/0012).
 */
export class WorkerPool implements SearchWalkers {
  readonly #size: number;
  readonly #data: WorkerData;
  readonly #budget: CacheBudget | undefined;
  #workers: PoolWorker[] = [];
  readonly #runs = new Map<number, WorkerRun>();
  #searches = 0;
  #readyWaiters: Array<() => void> = [];

  constructor(options: WorkerPoolOptions) {
    this.#size = Math.max(1, Math.floor(options.size ?? Math.min(4, Math.max(1, availableParallelism()))));
    this.#data = {
      handles: options.mode === 'handles',
      ...(options.cache === undefined ? {} : { cacheBudget: options.cache.budget, ...(options.cache.racyMs === undefined ? {} : { racyMs: options.cache.racyMs }) }),
    };
    this.#budget = options.cache === undefined ? undefined : new CacheBudget({ shared: options.cache.budget });
  }

  get size(): number {
    return this.#size;
  }

  /** Worker threads that run a task or owe an answer right now. */
  get busy(): number {
    return this.#workers.filter((worker) => worker.busy).length;
  }

  begin(spec: WireSpec, events: WalkerEvents): WalkerRun {
    this.#searches += 1;
    const run = new WorkerRun(this, this.#searches, spec, events);
    this.#runs.set(run.id, run);
    for (const worker of this.workers()) worker.post({ op: 'begin', search: run.id, spec });
    return run;
  }

  /** Starts the workers if they are not, and resolves once one of them is ready for a task (never, when none can start). */
  whenReady(): Promise<void> {
    if (this.workers().some((worker) => worker.ready)) return Promise.resolve();
    return new Promise((resolve) => this.#readyWaiters.push(resolve));
  }

  /** The live workers, started now if they are not. */
  workers(): readonly PoolWorker[] {
    this.#release(this.#workers.filter((worker) => worker.failed !== undefined));
    this.#workers = this.#workers.filter((worker) => worker.failed === undefined);
    while (this.#workers.length < this.#size) {
      const listingBytes = this.#budget?.reserveListings(LISTING_BYTES_PER_WORKER) ?? 0;
      const worker = new PoolWorker(
        { ...this.#data, listingBytes },
        (from, message) => this.#onMessage(from, message),
        (from, error) => this.#onFailure(from, error),
        () => this.#runs.size > 0,
      );
      // A search that began before this worker existed still needs its spec here.
      for (const run of this.#runs.values()) worker.post({ op: 'begin', search: run.id, spec: run.spec });
      this.#workers.push(worker);
    }
    return this.#workers;
  }

  forget(run: WorkerRun): void {
    this.#runs.delete(run.id);
    for (const worker of this.#workers) {
      worker.post({ op: 'end', search: run.id });
      worker.settle();
    }
  }

  /** The workers running now; unlike workers(), starts none (a message that comes after close() must not bring them back). */
  running(): readonly PoolWorker[] {
    return this.#workers.filter((worker) => worker.failed === undefined);
  }

  /** Stops every worker; a later search or read starts new ones. */
  async close(): Promise<void> {
    const workers = this.#workers;
    this.#workers = [];
    this.#release(workers);
    await stop(workers);
  }

  /** Terminates one worker that did not stop in time; the pool starts another when needed. */
  async replace(worker: PoolWorker): Promise<void> {
    this.#workers = this.#workers.filter((candidate) => candidate !== worker);
    this.#release([worker]);
    await stop([worker]);
  }

  /** Gives back what workers that stop or failed reserved for their listings. */
  #release(workers: readonly PoolWorker[]): void {
    for (const worker of workers) {
      this.#budget?.releaseListings(worker.listingBytes);
      worker.listingBytes = 0;
    }
  }

  #onMessage(worker: PoolWorker, message: FromWorker): void {
    if (message.op === 'ready') {
      const waiters = this.#readyWaiters;
      this.#readyWaiters = [];
      for (const waiter of waiters) waiter();
      return;
    }
    if (message.op !== 'batch') return;
    if (message.batch.done && worker.task?.[0] === message.search && worker.task[1] === message.batch.taskId) worker.task = undefined;
    this.#runs.get(message.search)?.deliver(message.batch);
  }

  #onFailure(worker: PoolWorker, error: Error): void {
    const task = worker.task;
    worker.task = undefined;
    if (task !== undefined) this.#runs.get(task[0])?.fail(error);
  }
}

/**
 * Terminates workers and keeps the process alive until they are gone. An
 * idle worker is unreferenced, and one whose first message still waits to
 * be read is not a handle that holds the process either: a program awaiting
 * close() as its last step would otherwise exit first, the await never
 * settled and nothing after it run.
 */
async function stop(workers: readonly PoolWorker[]): Promise<void> {
  const hold = setInterval(() => {}, 60_000);
  try {
    await Promise.all(workers.map((worker) => worker.worker.terminate()));
  } finally {
    clearInterval(hold);
  }
}

/** One search on the pool's workers. */
class WorkerRun implements WalkerRun {
  readonly id: number;
  readonly spec: WireSpec;
  readonly #pool: WorkerPool;
  readonly #events: WalkerEvents;
  #ended = false;

  constructor(pool: WorkerPool, id: number, spec: WireSpec, events: WalkerEvents) {
    this.#pool = pool;
    this.id = id;
    this.spec = spec;
    this.#events = events;
  }

  get walkers(): number {
    return this.#pool.size;
  }

  assign(task: WireTask, bound: string | undefined): boolean {
    if (this.#ended) return false;
    const worker = this.#pool.workers().find((candidate) => candidate.task === undefined);
    if (worker === undefined) return false;
    worker.task = [this.id, task.id];
    worker.post({ op: 'task', search: this.id, task, bound });
    return true;
  }

  bound(key: string): void {
    for (const worker of this.#mine()) worker.post({ op: 'bound', search: this.id, key });
  }

  requestSplit(taskId: number): void {
    for (const worker of this.#mine()) if (worker.task?.[1] === taskId) worker.post({ op: 'split', search: this.id, taskId });
  }

  async cancel(): Promise<void> {
    await Promise.all(
      this.#mine().map(async (worker) => {
        const idle = worker.whenIdle(this.id);
        worker.post({ op: 'cancel', search: this.id });
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), CANCEL_GRACE_MS);
        });
        // A task stuck in one long system call or match is not waited for: its thread is ended instead.
        if ((await Promise.race([idle.then(() => 'idle' as const), late])) === 'late') await this.#pool.replace(worker);
        clearTimeout(timer);
        worker.settle();
      }),
    );
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#pool.forget(this);
  }

  deliver(batch: TaskBatch): void {
    if (!this.#ended) this.#events.batch(batch);
  }

  fail(error: Error): void {
    if (!this.#ended) this.#events.failed(error);
  }

  #mine(): PoolWorker[] {
    return this.#pool.running().filter((worker) => worker.task?.[0] === this.id);
  }
}
