import type { CheckedPath } from '@openwork/path-guard';
import { BoundedSortedList } from './bounded-sorted.ts';
import { compareUtf8 } from './compare.ts';
import { appendAll } from './append-all.ts';
import { PRECEDENCE } from './ignore-rules.ts';
import type { IgnoreSource, TreeSearchHit, TreeSearchIgnored, TreeSearchSkipped } from './search-types.ts';
import type { WireMark, WireTask } from './search-wire.ts';

export interface WeightedHit {
  readonly hit: TreeSearchHit;
  readonly weight: number;
}

/** A symlink's place in its task's run: its results, once the path guard resolved it and a walker searched its target. */
export interface Placeholder {
  readonly key: string;
  /** The task whose run holds it: its results count there. */
  readonly owner: TaskRecord;
  hits: WeightedHit[];
  marks: WireMark[];
  settled: boolean;
}

export type RunItem = WeightedHit | Placeholder;

/** One task of a search as the coordinator tracks it. */
export interface TaskRecord {
  readonly task: WireTask;
  /** The directory's CheckedPath, from which the path guard issues those of the parts given away. */
  readonly checked: CheckedPath;
  /** The first key the task can produce: a pending task past the bound is dropped unrun. */
  readonly startKey: string;
  state: 'pending' | 'running' | 'done' | 'dropped';
  readonly run: RunItem[];
  readonly marks: WireMark[];
  held: number;
  weight: number;
  splitAsked: boolean;
}

function isPlaceholder(item: RunItem): item is Placeholder {
  return 'settled' in item;
}

function compareHits(left: WeightedHit, right: WeightedHit): number {
  return compareUtf8(left.hit.path, right.hit.path) || (left.hit.match?.line ?? 0) - (right.hit.match?.line ?? 0);
}

/**
 * The tasks of one search in key order. A part given away is the tail of its
 * task's range, so it goes right after that task: the runs are disjoint
 * ranges, and the list read in order is the result in order, however the
 * work was split and whenever each part finished.
 */
export class TaskList {
  readonly #records: TaskRecord[] = [];
  readonly #capacity: number;
  readonly #maxWeight: number;
  /** The hits before this index are not weighed. */
  readonly #offset: number;

  constructor(limits: { capacity: number; maxWeight: number; offset?: number }) {
    this.#capacity = limits.capacity;
    this.#maxWeight = limits.maxWeight;
    this.#offset = limits.offset ?? 0;
  }

  get records(): readonly TaskRecord[] {
    return this.#records;
  }

  add(record: TaskRecord, after?: TaskRecord): void {
    if (after === undefined) {
      this.#records.push(record);
      return;
    }
    this.#records.splice(this.#records.indexOf(after) + 1, 0, record);
  }

  /** Drops what a record holds past the bound: marks there are never counted. */
  prune(bound: string): void {
    for (const record of this.#records) {
      if (record.marks.length < 4096) continue;
      const kept = record.marks.filter((mark) => compareUtf8(mark.key, bound) < 0);
      record.marks.length = 0;
      appendAll(record.marks, kept);
    }
  }

  /** Hits held, at most the capacity counted. */
  get held(): number {
    let held = 0;
    for (const record of this.#records) held += record.held;
    return Math.min(held, this.#capacity);
  }

  /**
   * The key past which nothing can be kept: the path of the hit at which the
   * hits held so far, in order, reach the capacity or the byte bound;
   * undefined while they do not. Later hits can only make it smaller.
   */
  bound(): string | undefined {
    let count = 0;
    let weight = 0;
    const offset = this.#offset;
    for (const record of this.#records) {
      // A record wholly before the offset weighs nothing; one wholly after it, all it holds.
      const unweighed = count + record.held <= offset;
      if (count + record.held < this.#capacity && (unweighed || (count >= offset && weight + record.weight < this.#maxWeight))) {
        count += record.held;
        if (!unweighed) weight += record.weight;
        continue;
      }
      for (const item of record.run) {
        for (const hit of isPlaceholder(item) ? item.hits : [item]) {
          count += 1;
          if (count > offset) weight += hit.weight;
          if (count >= this.#capacity || weight >= this.#maxWeight) return hit.hit.path;
        }
      }
    }
    return undefined;
  }

  /** The hits kept, in order, and what was left out before the first hit not returned. */
  result(maxResults: number): { hits: TreeSearchHit[]; truncated: boolean; skipped: TreeSearchSkipped; ignored: TreeSearchIgnored } {
    const kept = new BoundedSortedList<WeightedHit>({ capacity: this.#capacity, compare: compareHits, weight: (item) => item.weight, maxWeight: this.#maxWeight, offset: this.#offset });
    const marks: WireMark[] = [];
    for (const record of this.#records) {
      appendAll(marks, record.marks);
      for (const item of record.run) {
        if (!isPlaceholder(item)) {
          kept.add(item);
          continue;
        }
        for (const hit of item.hits) kept.add(hit);
        appendAll(marks, item.marks);
      }
    }
    const truncated = kept.items.length > maxResults || kept.overWeight;
    // What was left out counts only before the last hit kept: whatever sorts after it may or may not have been visited.
    const cutoff = truncated ? kept.last?.hit.path : undefined;
    const skipped = { binary: 0, tooLarge: 0, unreadable: 0 };
    const ignored = { files: 0, directories: 0, sources: new Set<IgnoreSource>() };
    for (const mark of marks) {
      if (cutoff !== undefined && compareUtf8(mark.key, cutoff) >= 0) continue;
      if (mark.kind === 'ignoredFile' || mark.kind === 'ignoredDirectory') {
        if (mark.kind === 'ignoredFile') ignored.files += 1;
        else ignored.directories += 1;
        if (mark.source !== undefined) ignored.sources.add(mark.source);
      } else {
        skipped[mark.kind] += 1;
      }
    }
    return {
      hits: kept.items.slice(0, maxResults).map((item) => item.hit),
      truncated,
      skipped,
      ignored: { files: ignored.files, directories: ignored.directories, sources: PRECEDENCE.filter((source) => ignored.sources.has(source)) },
    };
  }
}

export function newPlaceholder(key: string, owner: TaskRecord): Placeholder {
  return { key, owner, hits: [], marks: [], settled: false };
}
