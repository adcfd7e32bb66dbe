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
  /** The server's shared summaries and their memory; past it the oldest summaries go, and their files are read as without a cache. */
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

export type CachedVerdict = 'absent' | 'binary' | 'unknown';

/**
 * What a walker asks of the server's shared summaries (search-cache-budget.ts):
 * every answer is for the identity the caller just read from the file
 * system; an entry says only "these bytes cannot match" or "these bytes are
 * binary", and every file that may match is read and searched on its
 * current bytes.
 */
export class SearchCache {
  readonly #budget: CacheBudget;
  readonly #racyMs: number;
  readonly #now: () => number;
  #search: object | undefined;
  #lookups = 0;
  #found = 0;

  constructor(options: SearchCacheOptions) {
    this.#budget = options.budget;
    this.#racyMs = options.racyMs ?? 2000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Whether a walk of this search should ask for files' identities: while
   * summaries are kept, and as long as at least one lookup in ten of this
   * search finds one (a search over files mostly never summarized, or the
   * first of a session, stops paying an lstat per file).
   */
  worthAsking(search: object): boolean {
    if (search !== this.#search) {
      this.#search = search;
      this.#lookups = 0;
      this.#found = 0;
    }
    return this.#budget.usedBytes > 0 && (this.#lookups < 256 || this.#found * 10 >= this.#lookups);
  }

  /** What the summary of a file with this identity tells a search for any of these trigram sets: `absent` and `binary` are sure, `unknown` means read it. */
  verdict(identity: FileIdentity, trigrams: readonly (readonly number[])[], sniffBytes: number): CachedVerdict {
    const kept = this.#budget.summaryOf(identity);
    this.#lookups += 1;
    if (kept === undefined) return 'unknown';
    this.#found += 1;
    if (sniffBytes > 0 && kept.nul !== -1 && kept.nul < sniffBytes) return 'binary';
    return trigrams.some((set) => mayHold(kept.summary, set)) ? 'unknown' : 'absent';
  }

  /**
   * A file read whole, with the identity fstat gave for what was read and
   * the moment the read began: summarized when its stamps are older than the
   * racy margin and it was read before, by any walker of the server.
   */
  record(identity: FileIdentity, bytes: Uint8Array, readAt: number): void {
    if (identity.ctimeMs >= readAt - this.#racyMs || identity.mtimeMs >= readAt - this.#racyMs) return;
    if (!this.#budget.readBefore(identity) || !this.#budget.admitting(readAt)) return;
    if (this.#budget.summaryOf(identity) !== undefined) return;
    this.#budget.keep(identity, summarize(bytes), bytes.indexOf(0), readAt);
  }

  /** Reads began before this moment may be kept: a caller takes it just before opening a file. */
  now(): number {
    return this.#now();
  }
}
