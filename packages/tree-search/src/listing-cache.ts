import type { SearchEntry } from './search-directory.ts';

/** What identifies a directory's listing between two calls: its inode, and the stamps every change of its entries moves. */
export interface DirectoryStamp {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

interface Kept {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly entries: readonly SearchEntry[];
  readonly bytes: number;
}

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
 * again (the same tick of the clock could hide a change). At most
 * `maxBytes`, the oldest listings going first.
 */
export class ListingCache {
  readonly #kept = new Map<string, Kept>();
  readonly #maxBytes: number;
  readonly #racyMs: number;
  readonly #now: () => number;
  #bytes = 0;

  constructor(options: { maxBytes: number; racyMs?: number; now?: () => number }) {
    this.#maxBytes = options.maxBytes;
    this.#racyMs = options.racyMs ?? 2000;
    this.#now = options.now ?? Date.now;
  }

  /** Memory the kept listings are taken to cost. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The listing kept for exactly this directory and stamps, as a new array the caller may sort; undefined when none is. */
  get(stamp: DirectoryStamp): SearchEntry[] | undefined {
    const key = `${stamp.dev}:${stamp.ino}`;
    const kept = this.#kept.get(key);
    if (kept === undefined) return undefined;
    if (kept.mtimeMs !== stamp.mtimeMs || kept.ctimeMs !== stamp.ctimeMs) {
      this.#drop(key, kept);
      return undefined;
    }
    return [...kept.entries];
  }

  /** Listings begun before this moment may be kept: a caller takes it just before it lists. */
  now(): number {
    return this.#now();
  }

  /** Keeps a listing read whole, for the stamps fstat gave the directory before it was listed, unless they are too recent. */
  put(stamp: DirectoryStamp, entries: readonly SearchEntry[], listedAt: number): void {
    if (stamp.mtimeMs >= listedAt - this.#racyMs || stamp.ctimeMs >= listedAt - this.#racyMs) return;
    const bytes = bytesOf(entries);
    if (bytes > this.#maxBytes) return;
    const key = `${stamp.dev}:${stamp.ino}`;
    const old = this.#kept.get(key);
    if (old !== undefined) this.#drop(key, old);
    for (const [oldest, kept] of this.#kept) {
      if (this.#bytes + bytes <= this.#maxBytes) break;
      this.#drop(oldest, kept);
    }
    this.#kept.set(key, { mtimeMs: stamp.mtimeMs, ctimeMs: stamp.ctimeMs, entries: [...entries], bytes });
    this.#bytes += bytes;
  }

  #drop(key: string, kept: Kept): void {
    this.#kept.delete(key);
    this.#bytes -= kept.bytes;
  }
}
