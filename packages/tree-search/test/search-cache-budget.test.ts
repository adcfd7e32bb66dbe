import { describe, expect, it } from 'vitest';
import { summarize } from '../src/content-summary.ts';
import { CacheBudget } from '../src/search-cache-budget.ts';
import type { FileIdentity } from '../src/search-cache.ts';

const identity = (ino: number, ctimeMs = 1000): FileIdentity => ({ dev: 1, ino, size: 100, mtimeMs: 500, ctimeMs });

describe('the shared summaries of a server (docs/decisions/0036)', () => {
  it('answer only for the identity kept, to every thread sharing them', () => {
    const budget = new CacheBudget({ maxBytes: 8 << 20 });
    const other = new CacheBudget({ shared: budget.shared as NonNullable<typeof budget.shared> });
    const summary = summarize(Buffer.from('hello world'));
    expect(budget.readBefore(identity(7))).toBe(false);
    expect(other.readBefore(identity(7))).toBe(true);
    expect(budget.keep(identity(7), summary, -1)).toBe(true);
    expect(other.summaryOf(identity(7))?.summary).toEqual(summary);
    // The same inode changed: a new ctime is another file.
    expect(other.summaryOf(identity(7, 2000))).toBeUndefined();
    expect(other.summaryOf(identity(8))).toBeUndefined();
  });

  it('never hand out a summary the ring wrote over: the oldest go, each answer is what was kept for that file', () => {
    const budget = new CacheBudget({ maxBytes: 4 << 20 });
    const kept = new Map<number, Int32Array>();
    const now = Date.now();
    expect(budget.admitting(now)).toBe(true);
    for (let ino = 1; budget.laps < 1; ino += 1) {
      const summary = new Int32Array(256 + ((ino * 7919) % 512)).map((_, index) => Math.imul(ino, 0x9e3779b1) ^ index);
      if (budget.keep(identity(ino), summary, -1, now)) kept.set(ino, summary);
    }
    // Gone round: a minute without summaries, so that a tree too large for the budget costs a lap a minute, not one per search.
    expect(budget.admitting(now + 1000)).toBe(false);
    expect(budget.admitting(now + 61_000)).toBe(true);
    let answered = 0;
    for (const [ino, summary] of kept) {
      const found = budget.summaryOf(identity(ino));
      if (found === undefined) continue;
      answered += 1;
      if (found.summary.length !== summary.length || found.summary.some((word, index) => word !== summary[index])) throw new Error(`inode ${ino}: another summary`);
    }
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(kept.size);
    expect(budget.usedBytes).toBeLessThanOrEqual(budget.maxBytes);
  });

  it('keep nothing under 4 MiB', () => {
    const budget = new CacheBudget({ maxBytes: 1 << 20 });
    expect(budget.shared).toBeUndefined();
    expect(budget.keep(identity(1), summarize(Buffer.from('abc')), -1)).toBe(false);
    expect(budget.readBefore(identity(1))).toBe(false);
  });
});
