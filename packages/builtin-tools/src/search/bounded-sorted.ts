/**
 * The smallest `capacity` items seen so far, kept sorted: what a search keeps
 * of everything it walks, so memory stays bounded however much matches and
 * the kept set does not depend on the order in which items arrive.
 */
export class BoundedSortedList<Item> {
  readonly #items: Item[] = [];
  readonly #capacity: number;
  readonly #compare: (left: Item, right: Item) => number;
  #rejected = 0;

  constructor(options: { capacity: number; compare: (left: Item, right: Item) => number }) {
    if (!Number.isSafeInteger(options.capacity) || options.capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${options.capacity}`);
    this.#capacity = options.capacity;
    this.#compare = options.compare;
  }

  get full(): boolean {
    return this.#items.length >= this.#capacity;
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
    if (items.length > this.#capacity) {
      items.pop();
      this.#rejected += 1;
    }
    return true;
  }
}
