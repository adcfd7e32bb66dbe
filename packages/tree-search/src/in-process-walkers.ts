import { compileSpec, type CompiledSpec } from './compiled-spec.ts';
import type { SearchHost } from './search-directory.ts';
import type { WireSpec, WireTask } from './search-wire.ts';
import { TaskWalk } from './task-walk.ts';
import type { SearchWalkers, WalkerEvents, WalkerRun } from './walkers.ts';

/** Entries one walker visits at a time; a turn is one step each, or as many as fit in `sliceMs`. */
const STEP_ENTRIES = 32;

/**
 * Walkers on the calling thread, for a file system that answers from memory:
 * the same tasks and walk as the worker threads run, taken in turns of a
 * few entries, with a macrotask between turns so that a deadline timer or a
 * cancel can fire in the middle of a large walk.
 */
export class InProcessWalkers implements SearchWalkers {
  readonly #host: SearchHost;
  readonly #walkers: number;
  readonly #sliceMs: number;

  /** `sliceMs`: a turn walks for this long before it lets other work run; default one step of a few entries. */
  constructor(host: SearchHost, options: { walkers?: number; sliceMs?: number } = {}) {
    this.#host = host;
    this.#walkers = Math.max(1, options.walkers ?? 1);
    this.#sliceMs = options.sliceMs ?? 0;
  }

  begin(spec: WireSpec, events: WalkerEvents): InProcessRun {
    return new InProcessRun(compileSpec(spec), this.#host, { walkers: this.#walkers, sliceMs: this.#sliceMs }, events);
  }
}

interface Slot {
  walk: TaskWalk | undefined;
  splitAsked: boolean;
}

export class InProcessRun implements WalkerRun {
  readonly walkers: number;
  readonly #spec: CompiledSpec;
  readonly #host: SearchHost;
  readonly #events: WalkerEvents;
  readonly #slots: Slot[];
  readonly #sliceMs: number;
  #scheduled = false;
  #ended = false;

  constructor(spec: CompiledSpec, host: SearchHost, options: { walkers: number; sliceMs: number }, events: WalkerEvents) {
    this.walkers = options.walkers;
    this.#sliceMs = options.sliceMs;
    this.#spec = spec;
    this.#host = host;
    this.#events = events;
    this.#slots = Array.from({ length: options.walkers }, () => ({ walk: undefined, splitAsked: false }));
  }

  /** Whether a task runs here now. */
  get busy(): boolean {
    return this.#slots.some((slot) => slot.walk !== undefined);
  }

  /** Hands every running task's remaining work back to the coordinator, as parts for other walkers. */
  surrender(): void {
    for (const slot of this.#slots) {
      const walk = slot.walk;
      if (walk === undefined) continue;
      walk.surrender();
      slot.walk = undefined;
      this.#events.batch(walk.takeBatch());
    }
  }

  assign(task: WireTask, bound: string | undefined): boolean {
    const slot = this.#slots.find((candidate) => candidate.walk === undefined);
    if (slot === undefined || this.#ended) return false;
    // Opening the task's directory happens here, in the turn that assigns it: its failure is the task's first batch.
    slot.walk = new TaskWalk(this.#spec, this.#host, task, bound);
    this.#schedule();
    return true;
  }

  bound(key: string): void {
    for (const slot of this.#slots) slot.walk?.setBound(key);
  }

  requestSplit(taskId: number): void {
    const slot = this.#slots.find((candidate) => candidate.walk !== undefined && candidate.walk.taskId === taskId);
    if (slot !== undefined) slot.splitAsked = true;
  }

  cancel(): Promise<void> {
    for (const slot of this.#slots) {
      slot.walk?.abort();
      slot.walk = undefined;
    }
    return Promise.resolve();
  }

  end(): void {
    this.#ended = true;
    void this.cancel();
  }

  #schedule(): void {
    if (this.#scheduled || this.#ended) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      // Nothing above this callback would catch a throw: it would end the process. It ends this search instead.
      try {
        this.#turn();
      } catch (error) {
        this.end();
        this.#events.failed(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** One turn: each busy walker takes a step, and reports what it found. */
  #turn(): void {
    for (const slot of this.#slots) {
      const walk = slot.walk;
      if (walk === undefined || this.#ended) continue;
      const until = performance.now() + this.#sliceMs;
      let done = walk.finished || walk.step(STEP_ENTRIES);
      while (!done && !slot.splitAsked && performance.now() < until) done = walk.step(STEP_ENTRIES);
      if (slot.splitAsked && !done) {
        slot.splitAsked = false;
        walk.split();
      }
      if (done) slot.walk = undefined;
      const batch = walk.takeBatch();
      // The coordinator may assign a new task to this slot from inside the batch.
      this.#events.batch(batch);
    }
    if (this.#slots.some((slot) => slot.walk !== undefined)) this.#schedule();
  }
}
