import type { SearchEntry } from './search-directory.ts';

/** What identifies a directory's listing between two calls: its inode, and the stamps every change of its entries moves. */
export interface DirectoryStamp {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

interface Kept {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly entries: readonly SearchEntry[];
  readonly bytes: number;
}

/** What a mark of a directory listed once is taken to cost; marks take a sixteenth of a cache's bytes at most. */
const MARK_BYTES = 48;
const MARKS_SHARE = 16;

/** What a listing is taken to cost in memory: a JavaScript string and entry object per name, and the array. */
function bytesOf(entries: readonly SearchEntry[]): number {
  let bytes = 96;
  for (const entry of entries) bytes += 64 + 2 * entry.name.length;
  return bytes;
}

/**
 * One walker thread's directory listings, kept between calls
 * (docs/decisions/0036): a listing is handed out again only for a
 * directory of the same device and inode whose mtime and ctime are the ones
 * it had when it was listed. Creating, removing or renaming an entry moves
 * both; a directory replaced under the same name is another inode, or a
 * reused one with a new ctime. A directory changed within `racyMs` of the
 * moment its listing began is listed again every time, as files are read
 * again (the same tick of the clock could hide a change). A listing is
 * kept the second time its directory is listed with the same stamps, as a
 * file's summary is made on its second read: a session's first search keeps
 * nothing it would pay for in collections, and a directory listed once is
 * never kept. At most `maxBytes`, the oldest listings going first.
 */
export class ListingCache {
  /** By device, then inode: number keys, no string made per directory. */
  readonly #kept = new Map<number, Map<number, Kept>>();
  /** In the order they were kept, for taking the oldest out first. */
  readonly #order = new Set<Kept>();
  /** Directories listed once with the stamps they had, by device and inode: the next listing with the same stamps is kept. */
  #listedOnce = new Map<number, Map<number, number>>();
  #listedOnceCount = 0;
  readonly #maxBytes: number;
  readonly #racyMs: number;
  readonly #now: () => number;
  #bytes = 0;

  readonly #maxMarks: number;

  constructor(options: { maxBytes: number; racyMs?: number; now?: () => number }) {
    this.#maxMarks = Math.floor(options.maxBytes / MARKS_SHARE / MARK_BYTES);
    this.#maxBytes = options.maxBytes - this.#maxMarks * MARK_BYTES;
    this.#racyMs = options.racyMs ?? 2000;
    this.#now = options.now ?? Date.now;
  }

  /** Memory the kept listings are taken to cost. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The listing kept for exactly this directory and stamps (the kept array itself: no caller changes a listing); undefined when none is. */
  get(stamp: DirectoryStamp): readonly SearchEntry[] | undefined {
    const kept = this.#kept.get(stamp.dev)?.get(stamp.ino);
    if (kept === undefined) return undefined;
    if (kept.mtimeMs !== stamp.mtimeMs || kept.ctimeMs !== stamp.ctimeMs) {
      this.#drop(kept);
      return undefined;
    }
    return kept.entries;
  }

  /** Listings begun before this moment may be kept: a caller takes it just before it lists. */
  now(): number {
    return this.#now();
  }

  /** Keeps a listing read whole, for the stamps fstat gave the directory before it was listed, unless they are too recent. */
  put(stamp: DirectoryStamp, entries: readonly SearchEntry[], listedAt: number): void {
    if (stamp.mtimeMs >= listedAt - this.#racyMs || stamp.ctimeMs >= listedAt - this.#racyMs) return;
    if (!this.#listedBefore(stamp)) return;
    const bytes = bytesOf(entries);
    if (bytes > this.#maxBytes) return;
    let onDevice = this.#kept.get(stamp.dev);
    const old = onDevice?.get(stamp.ino);
    if (old !== undefined) this.#drop(old);
    for (const oldest of this.#order) {
      if (this.#bytes + bytes <= this.#maxBytes) break;
      this.#drop(oldest);
    }
    if (onDevice === undefined) {
      onDevice = new Map();
      this.#kept.set(stamp.dev, onDevice);
    }
    const kept: Kept = { dev: stamp.dev, ino: stamp.ino, mtimeMs: stamp.mtimeMs, ctimeMs: stamp.ctimeMs, entries, bytes };
    onDevice.set(stamp.ino, kept);
    this.#order.add(kept);
    this.#bytes += bytes;
  }

  /** Whether the directory was listed before with these stamps; marks it as listed once when it was not. */
  #listedBefore(stamp: DirectoryStamp): boolean {
    const stamps = stamp.mtimeMs + stamp.ctimeMs;
    let onDevice = this.#listedOnce.get(stamp.dev);
    if (onDevice?.get(stamp.ino) === stamps) {
      onDevice.delete(stamp.ino);
      this.#listedOnceCount -= 1;
      return true;
    }
    // Past their share the marks are forgotten all at once: a later listing marks again.
    if (this.#listedOnceCount >= this.#maxMarks) {
      this.#listedOnce = new Map();
      this.#listedOnceCount = 0;
      onDevice = undefined;
    }
    if (onDevice === undefined) {
      onDevice = new Map();
      this.#listedOnce.set(stamp.dev, onDevice);
    }
    if (!onDevice.has(stamp.ino)) this.#listedOnceCount += 1;
    onDevice.set(stamp.ino, stamps);
    return false;
  }

  #drop(kept: Kept): void {
    this.#kept.get(kept.dev)?.delete(kept.ino);
    this.#order.delete(kept);
    this.#bytes -= kept.bytes;
  }
}
