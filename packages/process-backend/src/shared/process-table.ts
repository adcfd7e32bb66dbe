import { terminateGroup } from './terminate-group.ts';

interface TrackedRun {
  readonly stop: AbortController;
  readonly done: Promise<unknown>;
}

/**
 * The live process groups of one backend and the runs that own them (seed §5:
 * no child may be left without an owner). A group whose kill could not be
 * confirmed stays here until `dispose` confirms it.
 */
export class ProcessTable {
  readonly #groups = new Set<number>();
  readonly #runs = new Set<TrackedRun>();
  #disposed = false;

  get disposed(): boolean {
    return this.#disposed;
  }

  add(pgid: number): void {
    this.#groups.add(pgid);
  }

  remove(pgid: number): void {
    this.#groups.delete(pgid);
  }

  list(): readonly number[] {
    return [...this.#groups];
  }

  /** Registers a run so that `dispose` can stop it and wait for it. */
  track(stop: AbortController, done: Promise<unknown>): void {
    const run: TrackedRun = { stop, done };
    this.#runs.add(run);
    const forget = () => this.#runs.delete(run);
    void done.then(forget, forget);
  }

  /** Stops every run, waits for each, then ends any group still listed. */
  async dispose(options: { readonly graceMs: number }): Promise<void> {
    this.#disposed = true;
    const runs = [...this.#runs];
    for (const run of runs) run.stop.abort();
    await Promise.allSettled(runs.map((run) => run.done));
    await Promise.all(
      this.list().map(async (pgid) => {
        if ((await terminateGroup(pgid, options)) === 'gone') this.remove(pgid);
      }),
    );
  }
}
