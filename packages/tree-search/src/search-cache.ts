import { mayHold, summarize } from './content-summary.ts';
import type { CacheBudget } from './search-cache-budget.ts';

/** What identifies a file's bytes between two calls (docs/decisions/0036): ctime cannot be set back from user space. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

export interface SearchCacheOptions {
  /** The memory this walker draws from, shared with the server's other walkers; past it the oldest entries go, and files that do not fit are read as without a cache. */
  readonly budget: CacheBudget;
  /**
   * A file whose ctime is this close to the moment its read began is never
   * kept (git's racily clean entries): a change in the same tick of the
   * file system's clock would leave every stamp as it was. Default 2000.
   */
  readonly racyMs?: number;
  /** The clock the file system stamps files with; default Date.now. */
  readonly now?: () => number;
}

interface Entry {
  readonly identity: FileIdentity;
  readonly summary: Int32Array;
  /** The first NUL in the searched bytes, -1 for none: binary or not, for any sniff length. */
  readonly nul: number;
}

/** Bytes an entry costs besides its summary: the objects and the map slot. */
const ENTRY_BYTES = 160;

export interface SearchCacheStats {
  readonly entries: number;
  readonly bytes: number;
  /** Entries dropped, or never kept, to stay within the budget since the cache began: more than 0 means some searches scan what does not fit. */
  readonly evicted: number;
}

export type CachedVerdict = 'absent' | 'binary' | 'unknown';

function same(left: FileIdentity, right: FileIdentity): boolean {
  return left.ino === right.ino && left.dev === right.dev && left.size === right.size && left.mtimeMs === right.mtimeMs && left.ctimeMs === right.ctimeMs;
}

/** A hash of an identity, for the budget's set of files read once. */
function hashOf(identity: FileIdentity): number {
  const parts = [identity.ino, identity.ino / 2 ** 32, identity.dev, identity.size, identity.ctimeMs * 1000, identity.mtimeMs * 1000];
  let hash = 0x811c9dc5;
  for (const part of parts) hash = Math.imul(hash ^ (part | 0), 0x9e3779b1) ^ (hash >>> 15);
  return hash;
}

/**
 * What one walker keeps between calls: per file (by inode), its identity
 * and content summary. Every answer is checked against the identity the
 * caller just read from the file system; an entry says only "these bytes
 * cannot match" or "these bytes are binary", and every file that may match
 * is read and searched on its current bytes.
 */
export class SearchCache {
  readonly #budget: CacheBudget;
  readonly #racyMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<number, Entry>();
  #bytes = 0;
  #evicted = 0;

  constructor(options: SearchCacheOptions) {
    this.#budget = options.budget;
    this.#racyMs = options.racyMs ?? 2000;
    this.#now = options.now ?? Date.now;
  }

  /** Whether any summary is kept: a walk asks for identities only then. */
  get summarizing(): boolean {
    return this.#entries.size > 0;
  }

  get stats(): SearchCacheStats {
    return { entries: this.#entries.size, bytes: this.#bytes, evicted: this.#evicted };
  }

  /** What the entry of a file with this identity tells a search for any of these trigram sets: `absent` and `binary` are sure, `unknown` means read it. */
  verdict(identity: FileIdentity, trigrams: readonly (readonly number[])[], sniffBytes: number): CachedVerdict {
    const entry = this.#entries.get(identity.ino);
    if (entry === undefined || !same(entry.identity, identity)) return 'unknown';
    if (sniffBytes > 0 && entry.nul !== -1 && entry.nul < sniffBytes) return 'binary';
    const summary = entry.summary;
    return trigrams.some((set) => mayHold(summary, set)) ? 'unknown' : 'absent';
  }

  /**
   * A file read whole, with the identity fstat gave for what was read and
   * the moment the read began: kept when its stamps are older than the
   * racy margin, summarized when it was read before with the same identity.
   */
  record(identity: FileIdentity, bytes: Uint8Array, readAt: number): void {
    const entry = this.#entries.get(identity.ino);
    if (identity.ctimeMs >= readAt - this.#racyMs || identity.mtimeMs >= readAt - this.#racyMs) {
      if (entry !== undefined) this.#drop(identity.ino, entry);
      return;
    }
    if (entry !== undefined && same(entry.identity, identity)) return;
    if (entry !== undefined) this.#drop(identity.ino, entry);
    if (!this.#budget.readBefore(hashOf(identity))) return;
    const summary = summarize(bytes);
    if (!this.#reserve(ENTRY_BYTES + summary.byteLength)) return;
    this.#entries.set(identity.ino, { identity, summary, nul: bytes.indexOf(0) });
  }

  /** Reads began before this moment may be kept: a caller takes it just before opening a file. */
  now(): number {
    return this.#now();
  }

  #drop(ino: number, entry: Entry): void {
    this.#entries.delete(ino);
    const bytes = ENTRY_BYTES + entry.summary.byteLength;
    this.#bytes -= bytes;
    this.#budget.release(bytes);
  }

  /** Takes bytes from the shared budget, giving up this walker's oldest entries (a Map iterates in insertion order) until they fit; false when they never do. */
  #reserve(bytes: number): boolean {
    while (!this.#budget.reserve(bytes)) {
      const oldest = this.#entries.entries().next();
      this.#evicted += 1;
      if (oldest.done === true) return false;
      this.#drop(oldest.value[0], oldest.value[1]);
    }
    this.#bytes += bytes;
    return true;
  }
}
