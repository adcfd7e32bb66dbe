/** The budget counts in units of this many bytes, so that one 32-bit counter holds up to 128 GiB. */
const UNIT = 64;

/**
 * The memory every search cache of a server shares (docs/decisions/0036):
 * a counter in shared memory, so that the walkers of every worker thread,
 * and of every session's file system, draw from one budget. A reservation
 * that would pass it fails, and the cache that asked gives up its own
 * oldest entries or keeps nothing.
 */
export class CacheBudget {
  /** [limit, used], in UNIT bytes. */
  readonly #counters: Int32Array;

  /** A new budget of `maxBytes`, or one shared with another thread through its `shared` buffer. */
  constructor(from: { maxBytes: number } | { shared: SharedArrayBuffer }) {
    if ('shared' in from) {
      this.#counters = new Int32Array(from.shared);
      return;
    }
    this.#counters = new Int32Array(new SharedArrayBuffer(8));
    this.#counters[0] = Math.min(2 ** 31 - 1, Math.max(0, Math.floor(from.maxBytes / UNIT)));
  }

  /** What another thread passes to the constructor to share this budget. */
  get shared(): SharedArrayBuffer {
    return this.#counters.buffer as SharedArrayBuffer;
  }

  get maxBytes(): number {
    return Atomics.load(this.#counters, 0) * UNIT;
  }

  get usedBytes(): number {
    return Atomics.load(this.#counters, 1) * UNIT;
  }

  /** Takes `bytes` from the budget; false, taking nothing, when they do not fit. */
  reserve(bytes: number): boolean {
    const units = Math.ceil(bytes / UNIT);
    const used = Atomics.add(this.#counters, 1, units) + units;
    if (used <= Atomics.load(this.#counters, 0)) return true;
    Atomics.sub(this.#counters, 1, units);
    return false;
  }

  release(bytes: number): void {
    Atomics.sub(this.#counters, 1, Math.ceil(bytes / UNIT));
  }
}
