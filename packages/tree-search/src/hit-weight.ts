import type { SearchLine, TreeSearchHit } from './search-types.ts';

/** Bytes a result line takes beyond its text: separators, the line number, a newline. */
const LINE_OVERHEAD = 12;

/**
 * About what a hit takes in the output: its path, and for a line its text
 * and context, each line already cut as the output cuts it. The search
 * keeps hits by this weight as well as by count, so the text of a million
 * matches is never held for an output that shows a megabyte.
 */
export function hitWeight(hit: TreeSearchHit): number {
  const match = hit.match;
  if (match === undefined) return hit.path.length + LINE_OVERHEAD;
  const line = (entry: SearchLine) => entry.text.length + LINE_OVERHEAD;
  const around = [...(match.before ?? []), ...(match.after ?? []), ...(match.lines ?? [])].reduce((sum, entry) => sum + line(entry), 0);
  return hit.path.length + line(match) + around;
}
