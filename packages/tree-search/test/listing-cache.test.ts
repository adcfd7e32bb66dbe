import { describe, expect, it } from 'vitest';
import { ListingCache } from '../src/listing-cache.ts';
import { CacheBudget } from '../src/search-cache-budget.ts';

const NOW = 1_000_000;
const stamp = (ino: number, mtimeMs = NOW - 10_000, ctimeMs = mtimeMs) => ({ dev: 1, ino, mtimeMs, ctimeMs });
const entries = (...names: string[]) => names.map((name) => ({ name, kind: 'file' as const }));

describe('directory listings kept between calls (docs/decisions/0036)', () => {
  it('are handed out again only for the same directory with the same mtime and ctime, as a copy', () => {
    const cache = new ListingCache({ maxBytes: 1 << 20, now: () => NOW });
    cache.put(stamp(7), entries('a', 'b'), NOW);
    const first = cache.get(stamp(7));
    expect(first).toEqual(entries('a', 'b'));
    first?.pop();
    expect(cache.get(stamp(7))).toEqual(entries('a', 'b'));
    expect(cache.get({ ...stamp(7), dev: 2 })).toBeUndefined();
    expect(cache.get(stamp(8))).toBeUndefined();
    // An entry created or removed moves both stamps; either alone is enough to list again, and the old listing goes.
    expect(cache.get(stamp(7, NOW - 5_000, NOW - 10_000))).toBeUndefined();
    expect(cache.get(stamp(7))).toBeUndefined();
    cache.put(stamp(7), entries('a'), NOW);
    expect(cache.get(stamp(7, NOW - 10_000, NOW - 5_000))).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('never keep a directory changed within the racy margin of its listing', () => {
    const cache = new ListingCache({ maxBytes: 1 << 20, racyMs: 2000, now: () => NOW });
    const kept = (at: ReturnType<typeof stamp>) => {
      cache.put(at, entries('a'), NOW);
      return cache.get(at) !== undefined;
    };
    expect(kept(stamp(1, NOW - 1999))).toBe(false);
    expect(kept(stamp(2, NOW - 10_000, NOW - 1500))).toBe(false);
    expect(kept(stamp(3, NOW - 2001))).toBe(true);
  });

  it('stay within their bytes, the oldest going first', () => {
    const names = Array.from({ length: 10 }, (_, index) => `file-${index}`);
    const one = new ListingCache({ maxBytes: 1 << 20, now: () => NOW });
    one.put(stamp(1), entries(...names), NOW);
    const size = one.bytes;
    const cache = new ListingCache({ maxBytes: size * 2, now: () => NOW });
    for (const ino of [1, 2, 3]) cache.put(stamp(ino), entries(...names), NOW);
    expect(cache.bytes).toBeLessThanOrEqual(size * 2);
    expect([1, 2, 3].map((ino) => cache.get(stamp(ino)) !== undefined)).toEqual([false, true, true]);
    // A listing larger than the whole allowance is not kept, and takes nothing from the others.
    cache.put(stamp(4), entries(...names, ...names, ...names), NOW);
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
