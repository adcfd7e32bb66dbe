import { describe, expect, it } from 'vitest';
import { ListingCache } from '../src/listing-cache.ts';
import { CacheBudget } from '../src/search-cache-budget.ts';

const NOW = 1_000_000;
const stamp = (ino: number, mtimeMs = NOW - 10_000, ctimeMs = mtimeMs) => ({ dev: 1, ino, mtimeMs, ctimeMs });
const entries = (...names: string[]) => names.map((name) => ({ name, kind: 'file' as const }));
/** A directory listed twice with the same stamps: the second listing is kept. */
const listTwice = (cache: ListingCache, at: ReturnType<typeof stamp>, listing: ReturnType<typeof entries>) => {
  cache.put(at, listing, NOW);
  cache.put(at, listing, NOW);
};

describe('directory listings kept between calls (docs/decisions/0036)', () => {
  it('are kept the second time a directory is listed with the same stamps, not the first', () => {
    const cache = new ListingCache({ maxBytes: 1 << 20, now: () => NOW });
    cache.put(stamp(7), entries('a'), NOW);
    expect(cache.get(stamp(7))).toBeUndefined();
    // Listed again after a change: marked anew, not kept.
    cache.put(stamp(7, NOW - 5_000), entries('a', 'b'), NOW);
    expect(cache.get(stamp(7, NOW - 5_000))).toBeUndefined();
    cache.put(stamp(7, NOW - 5_000), entries('a', 'b'), NOW);
    expect(cache.get(stamp(7, NOW - 5_000))).toEqual(entries('a', 'b'));
    expect(cache.bytes).toBeGreaterThan(0);
  });

  it('are handed out again only for the same directory with the same mtime and ctime', () => {
    const cache = new ListingCache({ maxBytes: 1 << 20, now: () => NOW });
    listTwice(cache, stamp(7), entries('a', 'b'));
    expect(cache.get(stamp(7))).toEqual(entries('a', 'b'));
    expect(cache.get({ ...stamp(7), dev: 2 })).toBeUndefined();
    expect(cache.get(stamp(8))).toBeUndefined();
    // An entry created or removed moves both stamps; either alone is enough to list again, and the old listing goes.
    expect(cache.get(stamp(7, NOW - 5_000, NOW - 10_000))).toBeUndefined();
    expect(cache.get(stamp(7))).toBeUndefined();
    listTwice(cache, stamp(7), entries('a'));
    expect(cache.get(stamp(7, NOW - 10_000, NOW - 5_000))).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('never keep a directory changed within the racy margin of its listing', () => {
    const cache = new ListingCache({ maxBytes: 1 << 20, racyMs: 2000, now: () => NOW });
    const kept = (at: ReturnType<typeof stamp>) => {
      listTwice(cache, at, entries('a'));
      return cache.get(at) !== undefined;
    };
    expect(kept(stamp(1, NOW - 1999))).toBe(false);
    expect(kept(stamp(2, NOW - 10_000, NOW - 1500))).toBe(false);
    expect(kept(stamp(3, NOW - 2001))).toBe(true);
  });

  it('stay within their bytes, the oldest going first', () => {
    const names = Array.from({ length: 10 }, (_, index) => `file-${index}`);
    const one = new ListingCache({ maxBytes: 1 << 20, now: () => NOW });
    listTwice(one, stamp(1), entries(...names));
    const size = one.bytes;
    // Room for two listings once the marks' share (a sixteenth) is taken out.
    const cache = new ListingCache({ maxBytes: Math.ceil((size * 2 * 16) / 15) + 64, now: () => NOW });
    for (const ino of [1, 2, 3]) listTwice(cache, stamp(ino), entries(...names));
    expect(cache.bytes).toBeLessThanOrEqual(size * 2);
    expect([1, 2, 3].map((ino) => cache.get(stamp(ino)) !== undefined)).toEqual([false, true, true]);
    // A listing larger than the whole allowance is not kept, and takes nothing from the others.
    listTwice(cache, stamp(4), entries(...names, ...names, ...names));
    expect([2, 3, 4].map((ino) => cache.get(stamp(ino)) !== undefined)).toEqual([true, true, false]);
  });
});

describe("the budget's part for listings", () => {
  it('is an eighth of the budget, at most 32 MiB, granted to walkers until it is taken and given back when they stop', () => {
    const budget = new CacheBudget({ maxBytes: 64 << 20 });
    expect(budget.maxBytes).toBeLessThanOrEqual(64 << 20);
    expect(budget.reserveListings(6 << 20)).toBe(6 << 20);
    // Shared with another thread: the same part.
    const other = new CacheBudget({ shared: budget.shared as NonNullable<typeof budget.shared> });
    expect(other.reserveListings(6 << 20)).toBe(2 << 20);
    expect(budget.reserveListings(1)).toBe(0);
    other.releaseListings(2 << 20);
    expect(budget.listingBytesReserved).toBe(6 << 20);
    expect(new CacheBudget({ maxBytes: 1 << 30 }).reserveListings(1 << 30)).toBe(32 << 20);
    expect(new CacheBudget({ maxBytes: 0 }).reserveListings(1 << 20)).toBe(0);
  });
});
