/**
 * Appends every item of `items` to `target`. `target.push(...items)` passes
 * each item as an argument, and an array of a few hundred thousand (marks of
 * files an ignore rule left out) overflows the call stack.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
