import type { CheckedPath, PathGuard } from '@openwork/path-guard';
import { isToolError } from '@openwork/tool-contract';
import { abortedError, throwIfAborted } from './abort.ts';
import { appendAll } from './append-all.ts';
import { compareUtf8 } from './compare.ts';
import { compileSpec } from './compiled-spec.ts';
import { hitWeight } from './hit-weight.ts';
import type { TreeSearchOptions, TreeSearchRequest, TreeSearchResult } from './search-types.ts';
import type { TaskBatch, WireSpec, WireSplit, WireTask } from './search-wire.ts';
import type { SearchTargets } from './search-targets.ts';
import { wireSpec } from './wire-spec.ts';
import { newPlaceholder, TaskList, type Placeholder, type TaskRecord } from './task-list.ts';
import type { SearchWalkers, WalkerRun } from './walkers.ts';

/** The file system a search runs on: where its tasks walk, and how its paths are opened. */
export interface SearchBackend {
  readonly walkers: SearchWalkers;
  readonly targets: SearchTargets;
}

function childKey(display: string, name: string, kind: string): string {
  const path = display === '.' ? name : display === '/' ? `/${name}` : `${display}/${name}`;
  return kind === 'directory' ? `${path}/` : path;
}

/**
 * The part of a search that stays on the calling thread: it hands
 * tasks to the walkers, merges what they find, keeps the bound and pushes it
 * down, issues through the path guard a CheckedPath for every directory a
 * walker gives away and resolves every symlink a walker meets, reports
 * progress, and cancels. docs/decisions/0012.
 */
export function runTreeSearch(backend: SearchBackend, root: CheckedPath, request: TreeSearchRequest, options: TreeSearchOptions): Promise<TreeSearchResult> {
  let spec: WireSpec;
  try {
    spec = wireSpec(request);
    // Refused here, before a walker starts: what does not compile is invalid_input for the caller.
    compileSpec(spec);
    throwIfAborted(options.signal, 'searching');
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  const { guard, signal } = options;
  return new Promise((resolve, reject) => {
    new Coordinator({ walkers: backend.walkers, targets: backend.targets, root, request, spec, guard, signal, onProgress: options.onProgress, resolve, reject }).start();
  });
}

interface CoordinatorOptions {
  readonly walkers: SearchWalkers;
  readonly targets: SearchTargets;
  readonly root: CheckedPath;
  readonly request: TreeSearchRequest;
  readonly spec: WireSpec;
  readonly guard: PathGuard;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: TreeSearchOptions['onProgress'];
  readonly resolve: (result: TreeSearchResult) => void;
  readonly reject: (error: unknown) => void;
}

class Coordinator {
  readonly #options: CoordinatorOptions;
  readonly #list: TaskList;
  readonly #byId = new Map<number, TaskRecord>();
  /** File tasks (symlinks resolved to files), each filling its placeholder. */
  readonly #fileTasks = new Map<number, { task: WireTask; placeholder: Placeholder; state: 'pending' | 'running' }>();
  #run: WalkerRun | undefined;
  #ids = 0;
  #running = 0;
  #resolving = 0;
  #bound: string | undefined;
  #settled = false;
  #files = 0;
  #directories = 0;
  /** Results still to drop before the first one kept (the request's `skip`), and those dropped. */
  #toSkip: number;
  #skippedResults = 0;
  readonly #onAbort = () => this.#fail(abortedError(this.#options.signal as AbortSignal, 'searching'));

  constructor(options: CoordinatorOptions) {
    this.#options = options;
    this.#toSkip = options.request.skip ?? 0;
    this.#list = new TaskList({ capacity: options.spec.capacity, maxWeight: options.spec.maxResultBytes, offset: options.spec.offset });
  }

  start(): void {
    const { root, request, signal } = this.#options;
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    const levels = root.kind === 'directory' ? (request.ignore?.rules ?? []).map((rule) => ({ source: rule.source, text: rule.text, base: '', prefix: rule.prefix })) : [];
    const task: WireTask = { id: this.#nextId(), kind: root.kind === 'directory' ? 'directory' : 'file', target: this.#options.targets.target(root), relative: '', display: root.displayPath, levels, walkRoot: true };
    const record = this.#record(task, root, root.kind === 'directory' ? `${root.displayPath}/` : root.displayPath);
    this.#list.add(record);
    try {
      this.#run = this.#options.walkers.begin(this.#options.spec, { batch: (batch) => this.#onBatch(batch), failed: (error) => this.#fail(error) });
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#pump();
  }

  #nextId(): number {
    this.#ids += 1;
    return this.#ids;
  }

  #record(task: WireTask, checked: CheckedPath, startKey: string): TaskRecord {
    const record: TaskRecord = { task, checked, startKey, state: 'pending', run: [], marks: [], held: 0, weight: 0, splitAsked: false };
    this.#byId.set(task.id, record);
    return record;
  }

  /** Starts pending work on free walkers, earliest first; with walkers still free, asks running tasks to give work away. */
  #pump(): void {
    const run = this.#run;
    if (this.#settled || run === undefined) return;
    // While results are still to be dropped, one task runs at a time, in key order, each told how many to drop: nothing before the page is held.
    const skipping = this.#toSkip > 0;
    const walkers = skipping ? 1 : run.walkers;
    const waiting = skipping && this.#resolving > 0;
    for (const [id, file] of this.#fileTasks) {
      if (waiting) break;
      if (file.state !== 'pending' || this.#running >= walkers) continue;
      if (this.#bound !== undefined && compareUtf8(file.placeholder.key, this.#bound) > 0) {
        file.placeholder.settled = true;
        this.#fileTasks.delete(id);
        continue;
      }
      if (!run.assign(this.#skipping(file.task), this.#bound)) break;
      file.state = 'running';
      this.#running += 1;
    }
    let free = waiting || (skipping && this.#fileTasks.size > 0) ? 0 : walkers - this.#running;
    for (const record of this.#list.records) {
      if (free <= 0) break;
      if (record.state !== 'pending') continue;
      if (this.#bound !== undefined && compareUtf8(record.startKey, this.#bound) > 0) {
        record.state = 'dropped';
        continue;
      }
      if (!run.assign(this.#skipping(record.task), this.#bound)) break;
      record.state = 'running';
      this.#running += 1;
      free -= 1;
    }
    for (const record of this.#list.records) {
      if (free <= 0 || skipping) break;
      if (record.state !== 'running' || record.splitAsked) continue;
      record.splitAsked = true;
      run.requestSplit(record.task.id);
      free -= 1;
    }
    if (this.#running === 0 && this.#resolving === 0 && this.#fileTasks.size === 0 && !this.#list.records.some((record) => record.state === 'pending')) this.#finish();
  }

  /** The task as assigned: told how many results to drop while some still are; every result before it is counted by then. */
  #skipping(task: WireTask): WireTask {
    return this.#toSkip > 0 ? { ...task, skip: this.#toSkip } : task;
  }

  /**
   * Batches come from a worker's message or an in-process turn, where a throw
   * would be uncaught and end the whole process: a failure here ends this
   * search alone, as an error of its call.
   */
  #onBatch(batch: TaskBatch): void {
    try {
      this.#takeBatch(batch);
    } catch (error) {
      this.#fail(error);
    }
  }

  #takeBatch(batch: TaskBatch): void {
    if (this.#settled) return;
    const dropped = batch.dropped ?? 0;
    this.#toSkip -= dropped;
    this.#skippedResults += dropped;
    this.#files += batch.files;
    this.#directories += batch.directories;
    const file = this.#fileTasks.get(batch.taskId);
    if (file !== undefined) {
      for (const item of batch.items) if ('hit' in item) file.placeholder.hits.push(item);
      appendAll(file.placeholder.marks, batch.marks);
      if (batch.done) {
        this.#fileTasks.delete(batch.taskId);
        this.#running -= 1;
        file.placeholder.settled = true;
        const { owner } = file.placeholder;
        owner.held += file.placeholder.hits.length;
        owner.weight += file.placeholder.hits.reduce((sum, hit) => sum + hit.weight, 0);
      }
    } else {
      const record = this.#byId.get(batch.taskId);
      if (record === undefined) return;
      if (batch.failure !== undefined) {
        this.#fail(this.#options.targets.failure(batch.failure, record.checked));
        return;
      }
      this.#take(record, batch);
    }
    this.#progress();
    this.#tighten();
    this.#pump();
  }

  #take(record: TaskRecord, batch: TaskBatch): void {
    record.splitAsked = false;
    for (const item of batch.items) {
      if ('hit' in item) {
        record.run.push(item);
        record.held += 1;
        record.weight += item.weight;
        continue;
      }
      const placeholder = newPlaceholder(item.symlink.display, record);
      record.run.push(placeholder);
      this.#resolveSymlink(placeholder, item.symlink.display, item.symlink.relative);
    }
    appendAll(record.marks, batch.marks);
    for (const split of batch.splits) this.#adopt(record, split);
    if (batch.done) {
      record.state = 'done';
      this.#running -= 1;
    }
  }

  /** A part a walker gave away becomes a task of its own, its directory checked by the path guard. */
  #adopt(parent: TaskRecord, split: WireSplit): void {
    const first = split.entries[0];
    if (first === undefined) return;
    let checked = parent.checked;
    if (split.fromTask !== '') for (const name of split.fromTask.split('/')) checked = this.#options.guard.child(checked, name, 'directory');
    const parentTarget = this.#options.targets.target(parent.checked);
    const base = parentTarget.path;
    const seen = split.identities.map(([fromTask, dev, ino]) => [fromTask === '' ? base : base === '/' ? `/${fromTask}` : `${base}/${fromTask}`, dev, ino] as const);
    const task: WireTask = {
      id: this.#nextId(),
      kind: 'directory',
      target: this.#options.targets.target(checked, [...parentTarget.chain, ...seen]),
      relative: split.relative,
      display: split.display,
      levels: split.levels,
      entries: split.entries,
      walkRoot: false,
    };
    this.#list.add(this.#record(task, checked, childKey(split.display, first[0], first[1])), parent);
  }

  /** A symlink the walk met: kept only when the path guard resolves it to a file inside the roots (never a directory: no cycles, no duplicates). */
  #resolveSymlink(placeholder: Placeholder, display: string, relative: string): void {
    const { guard, signal, spec } = this.#options;
    this.#resolving += 1;
    guard.resolvePath(display, 'read', 'must_exist', signal === undefined ? {} : { signal }).then(
      (target) => {
        this.#resolving -= 1;
        if (this.#settled) return;
        if (target.kind !== 'file') {
          placeholder.settled = true;
        } else if (spec.mode === 'paths') {
          const hit = { path: display };
          placeholder.hits.push({ hit, weight: hitWeight(hit) });
          placeholder.settled = true;
          placeholder.owner.held += 1;
          placeholder.owner.weight += hitWeight(hit);
        } else {
          const task: WireTask = { id: this.#nextId(), kind: 'file', target: this.#options.targets.target(target), relative, display, levels: [], walkRoot: false };
          this.#fileTasks.set(task.id, { task, placeholder, state: 'pending' });
        }
        this.#tighten();
        this.#pump();
      },
      (error: unknown) => {
        this.#resolving -= 1;
        if (this.#settled) return;
        // Outside the roots, dangling or a loop: not followed. Anything else ends the search.
        if (!isToolError(error) || error.kind === 'cancelled' || error.kind === 'timed_out') {
          this.#fail(error);
          return;
        }
        placeholder.settled = true;
        this.#pump();
      },
    );
  }

  #progress(): void {
    this.#options.onProgress?.({ files: this.#files, directories: this.#directories, results: this.#list.held });
  }

  /** A tighter bound goes to every walker, and pending work past it is dropped. */
  #tighten(): void {
    const bound = this.#list.bound();
    if (bound === undefined || (this.#bound !== undefined && compareUtf8(bound, this.#bound) >= 0)) return;
    this.#bound = bound;
    this.#run?.bound(bound);
    this.#list.prune(bound);
  }

  #finish(): void {
    if (this.#settled) return;
    this.#settle();
    this.#run?.end();
    this.#options.resolve({ ...this.#list.result(this.#options.request.maxResults), skippedResults: this.#skippedResults });
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settle();
    const run = this.#run;
    // No walker is left busy: the call ends once every one of them has stopped.
    const stopped = run === undefined ? Promise.resolve() : run.cancel();
    void stopped.then(
      () => {
        run?.end();
        this.#options.reject(error);
      },
      () => {
        run?.end();
        this.#options.reject(error);
      },
    );
  }

  #settle(): void {
    this.#settled = true;
    this.#options.signal?.removeEventListener('abort', this.#onAbort);
  }
}
