/** The budget counts in units of this many bytes, so that one 32-bit counter holds up to 128 GiB. */
const UNIT = 64;
/** The files read once, as bits of a hash of their identity: 2^23 bits, 1 MiB, taken from the budget. */
const SEEN_BITS = 1 << 23;
const SEEN_BYTES = SEEN_BITS / 8;

/**
 * The memory every search cache of a server shares (docs/decisions/0036):
 * a counter in shared memory, so that the walkers of every worker thread,
 * and of every session's file system, draw from one budget. A reservation
 * that would pass it fails, and the cache that asked gives up its own
 * oldest entries or keeps nothing. With it, the set of files read once by
 * any walker (by identity): a file is summarized when it is read again, by
 * whichever walker reads it, so a one-off search summarizes nothing.
 */
export class CacheBudget {
  /** [limit, used], in UNIT bytes, then the seen bits. */
  readonly #counters: Int32Array;

  /** A new budget of `maxBytes`, or one shared with another thread through its `shared` buffer. */
  constructor(from: { maxBytes: number } | { shared: SharedArrayBuffer }) {
    if ('shared' in from) {
      this.#counters = new Int32Array(from.shared);
      return;
    }
    const limit = Math.min(2 ** 31 - 1, Math.max(0, Math.floor(from.maxBytes / UNIT)));
    // A budget too small for the seen bits keeps nothing at all.
    const seen = limit * UNIT > SEEN_BYTES;
    this.#counters = new Int32Array(new SharedArrayBuffer(8 + (seen ? SEEN_BYTES : 0)));
    this.#counters[0] = seen ? limit : 0;
    this.#counters[1] = seen ? SEEN_BYTES / UNIT : 0;
  }

  /** What another thread passes to the constructor to share this budget. */
  get shared(): SharedArrayBuffer {
    return this.#counters.buffer as SharedArrayBuffer;
  }

  /** Marks a file (a hash of its identity) as read; whether it was read before, by any walker sharing the budget. */
  readBefore(hash: number): boolean {
    const bit = (hash >>> 0) % SEEN_BITS;
    const mask = 1 << (bit & 31);
    return (Atomics.or(this.#counters, 2 + (bit >>> 5), mask) & mask) !== 0;
  }

  get maxBytes(): number {
    return Atomics.load(this.#counters, 0) * UNIT;
  }

  /** Bytes the caches' entries hold now, besides the 1 MiB of the set of files read once. */
  get usedBytes(): number {
    return Math.max(0, Atomics.load(this.#counters, 1) * UNIT - (this.#counters.length > 2 ? SEEN_BYTES : 0));
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
