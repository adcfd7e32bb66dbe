/**
 * The smallest `capacity` items seen so far, kept sorted: what a search keeps
 * of everything it walks, so memory stays bounded however much matches and
 * the kept set does not depend on the order in which items arrive.
 */
export class BoundedSortedList<Item> {
  readonly #items: Item[] = [];
  readonly #capacity: number;
  readonly #compare: (left: Item, right: Item) => number;
  readonly #weight: ((item: Item) => number) | undefined;
  readonly #maxWeight: number;
  /** The items before this index are not weighed: `#total` is the weight of the rest. */
  readonly #offset: number;
  #total = 0;
  #rejected = 0;

  /**
   * `maxWeight` (with `weight`) also bounds the kept items by size: the
   * smallest items that reach it are kept, one past it, and no more, so a
   * result that will be cut to the output limit anyway never holds more.
   */
  constructor(options: { capacity: number; compare: (left: Item, right: Item) => number; weight?: (item: Item) => number; maxWeight?: number; offset?: number }) {
    if (!Number.isSafeInteger(options.capacity) || options.capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${options.capacity}`);
    this.#capacity = options.capacity;
    this.#compare = options.compare;
    this.#weight = options.weight;
    this.#maxWeight = options.weight === undefined ? Number.POSITIVE_INFINITY : (options.maxWeight ?? Number.POSITIVE_INFINITY);
    this.#offset = options.offset ?? 0;
  }

  get full(): boolean {
    return this.#items.length >= this.#capacity || this.#total >= this.#maxWeight;
  }

  /** Whether items were dropped to stay within maxWeight (the result is cut). */
  get overWeight(): boolean {
    return this.#total >= this.#maxWeight;
  }

  /** The largest kept item; undefined while empty. */
  get last(): Item | undefined {
    return this.#items.at(-1);
  }

  /** Items dropped or refused because the list was full of smaller ones. */
  get rejected(): number {
    return this.#rejected;
  }

  get items(): readonly Item[] {
    return this.#items;
  }

  #weightOf(item: Item | undefined): number {
    return item === undefined ? 0 : (this.#weight?.(item) ?? 0);
  }

  /** Keeps the item when it is among the smallest; false when it was refused. */
  add(item: Item): boolean {
    const items = this.#items;
    const last = items.at(-1);
    if (last !== undefined && this.full && this.#compare(item, last) >= 0) {
      this.#rejected += 1;
      return false;
    }
    // Binary search for the first item greater than this one (stable for equal keys).
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#compare(items[middle] as Item, item) <= 0) low = middle + 1;
      else high = middle;
    }
    items.splice(low, 0, item);
    const offset = this.#offset;
    // Before the offset, the item pushes the one at the offset into the weighed part; from it on, the item is weighed.
    if (low >= offset) this.#total += this.#weightOf(item);
    else if (items.length > offset) this.#total += this.#weightOf(items[offset]);
    // Drop from the end while over the count, or while the weighed items before the last already reach the weight.
    while (items.length > this.#capacity || (items.length > offset + 1 && this.#total - this.#weightOf(items.at(-1)) >= this.#maxWeight)) {
      this.#total -= this.#weightOf(items.pop());
      this.#rejected += 1;
    }
    return low < items.length;
  }
}
