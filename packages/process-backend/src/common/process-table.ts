import type { CommandContainer } from './command-container.ts';

interface TrackedRun {
  readonly stop: AbortController;
  readonly done: Promise<unknown>;
}

/**
 * The live commands of one backend, by process group, with what holds each
 * (its cgroup or its group), and the runs that own them (docs/design.md §5: no child may
 * be left without an owner). A command whose end could not be confirmed
 * stays here until `dispose` confirms it.
 */
export class ProcessTable {
  readonly #groups = new Map<number, CommandContainer>();
  readonly #runs = new Set<TrackedRun>();
  #disposed = false;

  get disposed(): boolean {
    return this.#disposed;
  }

  add(pgid: number, container: CommandContainer): void {
    this.#groups.set(pgid, container);
  }

  remove(pgid: number): void {
    this.#groups.delete(pgid);
  }

  list(): readonly number[] {
    return [...this.#groups.keys()];
  }

  /** Registers a run so that `dispose` can stop it and wait for it. */
  track(stop: AbortController, done: Promise<unknown>): void {
    const run: TrackedRun = { stop, done };
    this.#runs.add(run);
    const forget = () => this.#runs.delete(run);
    void done.then(forget, forget);
  }

  /** Stops every run, waits for each, then ends any command still listed (its whole cgroup where it has one). */
  async dispose(options: { readonly graceMs: number }): Promise<void> {
    this.#disposed = true;
    const runs = [...this.#runs];
    for (const run of runs) run.stop.abort();
    await Promise.allSettled(runs.map((run) => run.done));
    await Promise.all(
      [...this.#groups].map(async ([pgid, container]) => {
        const ended = await container.end(pgid, options);
        if (ended.fate === 'gone' && (await container.release())) this.remove(pgid);
      }),
    );
  }
}
