import type { FileIdentity } from './search-cache.ts';

/** The files read once, as bits of a hash of their identity: 2^23 bits, 1 MiB. */
const SEEN_BITS = 1 << 23;
const SEEN_BYTES = SEEN_BITS / 8;
/** A slot: its sequence (odd while written), a checksum of its summary, the first NUL, and where its summary is in the arena. */
const SLOT_INTS = 5;
/** And its identity: ino, dev, size, mtime, ctime. */
const SLOT_FLOATS = 5;
const SLOT_BYTES = SLOT_INTS * 4 + SLOT_FLOATS * 8;
/** After the ring goes round, no summary is written for this long: a budget too small for the tree builds one lap of summaries a minute, not one per search. */
const PAUSE_SECONDS = 60;
/** Seconds are counted from here, so that they fit 32 bits for long. */
const EPOCH_SECONDS = 1_700_000_000;
/** One slot for every this many bytes of the budget, at most 2^18. */
const BYTES_PER_SLOT = 1024;
/** Slots looked at for one inode before the first of them is taken over. */
const PROBES = 8;
/**
 * header: [the second the ring last went round, arena words allocated in this
 * lap, arena words, slots, laps of the arena, bytes of directory listings
 * reserved, bytes the listings may reserve].
 */
const HEADER_INTS = 7;
/** The walkers' directory listings may take this part of the budget (listing-cache.ts), at most LISTINGS_MAX. */
const LISTINGS_SHARE = 8;
const LISTINGS_MAX = 32 * 1024 * 1024;

/** What the budget's threads share: every buffer is shared memory. */
export interface SharedSearchMemory {
  readonly header: SharedArrayBuffer;
  readonly seen: SharedArrayBuffer;
  readonly slots: SharedArrayBuffer;
  readonly identities: SharedArrayBuffer;
  readonly arena: SharedArrayBuffer;
}

function mixIn(hash: number, part: number): number {
  return Math.imul(hash ^ (part | 0), 0x9e3779b1) ^ (hash >>> 15);
}

/** Called for every file a search reads: no array, no object. */
function hashOf(identity: FileIdentity): number {
  let hash = mixIn(0x811c9dc5, identity.ino);
  hash = mixIn(hash, identity.ino / 2 ** 32);
  hash = mixIn(hash, identity.dev);
  hash = mixIn(hash, identity.size);
  hash = mixIn(hash, identity.ctimeMs * 1000);
  hash = mixIn(hash, identity.mtimeMs * 1000);
  return hash >>> 0;
}

function nextPowerOfTwo(value: number): number {
  let power = 1;
  while (power < value) power *= 2;
  return power;
}

function checksumOf(words: Int32Array): number {
  let hash = 0x811c9dc5 ^ words.length;
  for (let index = 0; index < words.length; index += 1) hash = Math.imul(hash ^ (words[index] as number), 0x01000193) ^ (hash >>> 13);
  return hash | 0;
}

/**
 * What every search walker of a server keeps, in shared memory
 * (docs/decisions/0036), so that every worker thread, the calling thread and
 * every session's file system draw from one budget and see one summary per
 * file: the set of files read once, a table of file identities by inode,
 * and a ring of their summaries. A slot is written under a sequence number
 * (a seqlock) and names its summary's checksum: a reader that sees the
 * sequence odd or changed, or a summary whose checksum differs (the ring
 * went round and wrote over it), takes the entry as absent and reads the
 * file. So the oldest summaries are the first to go, and a file whose
 * summary went is read as without a cache and summarized again.
 */
export class CacheBudget {
  readonly maxBytes: number;
  readonly #memory: SharedSearchMemory | undefined;
  readonly #header: Int32Array;
  readonly #seen: Int32Array;
  readonly #slots: Int32Array;
  readonly #identities: Float64Array;
  readonly #arena: Int32Array;

  /** A new budget of `maxBytes` (nothing kept below 4 MiB), or one shared with another thread. */
  constructor(from: { maxBytes: number } | { shared: SharedSearchMemory }) {
    let memory: SharedSearchMemory | undefined;
    if ('shared' in from) memory = from.shared;
    else if (from.maxBytes >= 4 * SEEN_BYTES) {
      const slots = Math.min(1 << 18, nextPowerOfTwo(Math.floor(from.maxBytes / BYTES_PER_SLOT)) / 2);
      const listings = Math.min(LISTINGS_MAX, Math.floor(from.maxBytes / LISTINGS_SHARE));
      const arenaWords = Math.floor((from.maxBytes - SEEN_BYTES - slots * SLOT_BYTES - listings) / 4);
      memory = {
        header: new SharedArrayBuffer(HEADER_INTS * 4),
        seen: new SharedArrayBuffer(SEEN_BYTES),
        slots: new SharedArrayBuffer(slots * SLOT_INTS * 4),
        identities: new SharedArrayBuffer(slots * SLOT_FLOATS * 8),
        arena: new SharedArrayBuffer(arenaWords * 4),
      };
      const header = new Int32Array(memory.header);
      header[2] = arenaWords;
      header[3] = slots;
      header[6] = listings;
    }
    this.#memory = memory;
    this.#header = new Int32Array(memory?.header ?? new ArrayBuffer(HEADER_INTS * 4));
    this.#seen = new Int32Array(memory?.seen ?? new ArrayBuffer(4));
    this.#slots = new Int32Array(memory?.slots ?? new ArrayBuffer(0));
    this.#identities = new Float64Array(memory?.identities ?? new ArrayBuffer(0));
    this.#arena = new Int32Array(memory?.arena ?? new ArrayBuffer(0));
    this.maxBytes = memory === undefined ? 0 : SEEN_BYTES + this.#slots.byteLength + this.#identities.byteLength + this.#arena.byteLength + (this.#header[6] as number);
  }

  /**
   * Takes up to `bytes` of the part of the budget kept for directory
   * listings, for one walker thread; what it grants (0 when the part is
   * taken: that walker then lists every directory every call). The thread
   * that started the walker gives it back with releaseListings when the
   * walker stops.
   */
  reserveListings(bytes: number): number {
    if (this.#memory === undefined) return 0;
    for (;;) {
      const reserved = Atomics.load(this.#header, 5);
      const granted = Math.max(0, Math.min(bytes, (this.#header[6] as number) - reserved));
      if (granted === 0) return 0;
      if (Atomics.compareExchange(this.#header, 5, reserved, reserved + granted) === reserved) return granted;
    }
  }

  releaseListings(bytes: number): void {
    if (this.#memory !== undefined && bytes > 0) Atomics.sub(this.#header, 5, bytes);
  }

  /** Bytes of the listings' part reserved by walkers now. */
  get listingBytesReserved(): number {
    return Atomics.load(this.#header, 5);
  }

  /** What another thread passes to the constructor to share this budget; undefined when it keeps nothing. */
  get shared(): SharedSearchMemory | undefined {
    return this.#memory;
  }

  /** Summary bytes written to the ring and not yet written over. */
  get usedBytes(): number {
    return (Atomics.load(this.#header, 4) > 0 ? (this.#header[2] as number) : Atomics.load(this.#header, 1)) * 4;
  }

  /** Times the ring went round: more than 0 means summaries were written over, and their files read again. */
  get laps(): number {
    return Atomics.load(this.#header, 4);
  }

  /**
   * Whether a summary may be written now: not within a minute of the ring
   * going round, so that a budget the tree's summaries do not fit costs a
   * lap of summarizing a minute, and its searches are otherwise the scan.
   */
  admitting(nowMs: number): boolean {
    if (this.#memory === undefined) return false;
    return Atomics.load(this.#header, 4) === 0 || Math.floor(nowMs / 1000) - EPOCH_SECONDS - Atomics.load(this.#header, 0) >= PAUSE_SECONDS;
  }

  /** Marks a file as read; whether it was read before, by any walker sharing the budget (two bits of its identity's hash, so that few files are taken for read before when they were not). */
  readBefore(identity: FileIdentity): boolean {
    if (this.#memory === undefined) return false;
    const hash = hashOf(identity);
    const first = hash % SEEN_BITS;
    const second = (Math.imul(hash, 0x85ebca6b) >>> 0) % SEEN_BITS;
    const firstMask = 1 << (first & 31);
    const secondMask = 1 << (second & 31);
    const before = (Atomics.or(this.#seen, first >>> 5, firstMask) & firstMask) !== 0;
    return (Atomics.or(this.#seen, second >>> 5, secondMask) & secondMask) !== 0 && before;
  }

  #slotOf(identity: FileIdentity, probe: number): number {
    const slots = this.#header[3] as number;
    return (Math.imul(identity.ino | 0, 0x9e3779b1) + Math.imul((identity.ino / 2 ** 32) | 0, 0x85ebca6b) + probe) & (slots - 1);
  }

  #holds(slot: number, identity: FileIdentity): boolean {
    const at = slot * SLOT_FLOATS;
    const ids = this.#identities;
    return ids[at] === identity.ino && ids[at + 1] === identity.dev && ids[at + 2] === identity.size && ids[at + 3] === identity.mtimeMs && ids[at + 4] === identity.ctimeMs;
  }

  /** The summary kept for exactly this identity, copied out and checked, with the offset of the file's first NUL; undefined when none is. */
  summaryOf(identity: FileIdentity): { readonly summary: Int32Array; readonly nul: number } | undefined {
    if (this.#memory === undefined) return undefined;
    for (let probe = 0; probe < PROBES; probe += 1) {
      const slot = this.#slotOf(identity, probe);
      const base = slot * SLOT_INTS;
      const sequence = Atomics.load(this.#slots, base);
      if (sequence === 0 || sequence % 2 === 1 || !this.#holds(slot, identity)) continue;
      const checksum = Atomics.load(this.#slots, base + 1);
      const nul = Atomics.load(this.#slots, base + 2);
      const offset = Atomics.load(this.#slots, base + 3);
      const words = Atomics.load(this.#slots, base + 4);
      const summary = this.#arena.slice(offset, offset + words);
      // The seqlock and the checksum: an entry rewritten while it was read, or a summary the ring wrote over, is no answer.
      if (Atomics.load(this.#slots, base) !== sequence || checksumOf(summary) !== checksum) return undefined;
      return { summary, nul };
    }
    return undefined;
  }

  /** Keeps a summary for this identity; false when it was not kept (another thread was writing its slot). */
  keep(identity: FileIdentity, summary: Int32Array, nul: number, nowMs: number = Date.now()): boolean {
    if (this.#memory === undefined || summary.length > (this.#header[2] as number)) return false;
    const offset = this.#allocate(summary.length, nowMs);
    this.#arena.set(summary, offset);
    let target = this.#slotOf(identity, 0);
    for (let probe = 0; probe < PROBES; probe += 1) {
      const slot = this.#slotOf(identity, probe);
      if (Atomics.load(this.#slots, slot * SLOT_INTS) === 0 || this.#identities[slot * SLOT_FLOATS] === identity.ino) {
        target = slot;
        break;
      }
    }
    const base = target * SLOT_INTS;
    const sequence = Atomics.load(this.#slots, base);
    if (sequence % 2 === 1 || Atomics.compareExchange(this.#slots, base, sequence, sequence + 1) !== sequence) return false;
    this.#identities.set([identity.ino, identity.dev, identity.size, identity.mtimeMs, identity.ctimeMs], target * SLOT_FLOATS);
    Atomics.store(this.#slots, base + 1, checksumOf(summary));
    Atomics.store(this.#slots, base + 2, nul);
    Atomics.store(this.#slots, base + 3, offset);
    Atomics.store(this.#slots, base + 4, summary.length);
    Atomics.store(this.#slots, base, sequence + 2);
    return true;
  }

  /** Words of the ring for a summary: after the last allocation, or from the start again when they do not fit before its end. */
  #allocate(words: number, nowMs: number): number {
    const capacity = this.#header[2] as number;
    for (;;) {
      const current = Atomics.load(this.#header, 1);
      const wraps = current + words > capacity;
      const start = wraps ? 0 : current;
      if (Atomics.compareExchange(this.#header, 1, current, start + words) === current) {
        if (wraps) {
          Atomics.add(this.#header, 4, 1);
          Atomics.store(this.#header, 0, Math.floor(nowMs / 1000) - EPOCH_SECONDS);
        }
        return start;
      }
    }
  }
}
