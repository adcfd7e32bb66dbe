/** Start offsets of every non-overlapping occurrence of needle in haystack. */
export function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** 1-based line number of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** Replaces literally: split/join never interprets `$&`, `$1` or `$$`. */
export function replaceLiteral(text: string, oldText: string, newText: string, all: boolean): string {
  if (all) return text.split(oldText).join(newText);
  const at = text.indexOf(oldText);
  return text.slice(0, at) + newText + text.slice(at + oldText.length);
}

function distance(left: string, right: string): number {
  const previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    let diagonal = previous[0] ?? 0;
    previous[0] = row;
    for (let column = 1; column <= right.length; column += 1) {
      const above = previous[column] ?? 0;
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      previous[column] = Math.min(above + 1, (previous[column - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[right.length] ?? 0;
}

const COMPARE_CHARS = 200;

/**
 * The lines of the file closest to the first line of oldText, so the model
 * can see how its text differs (indentation, a renamed word, …).
 */
export function nearestLines(text: string, oldText: string, count = 3): { line: number; text: string }[] {
  const probe = oldText.split('\n').map((line) => line.trim()).find((line) => line !== '')?.slice(0, COMPARE_CHARS);
  if (!probe) return [];
  const scored: { line: number; text: string; score: number }[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    const trimmed = line.trim().slice(0, COMPARE_CHARS);
    if (trimmed === '') return;
    const score = distance(trimmed, probe) / Math.max(trimmed.length, probe.length);
    if (score < 0.5) scored.push({ line: index + 1, text: line, score });
  });
  return scored
    .sort((left, right) => left.score - right.score || left.line - right.line)
    .slice(0, count)
    .map(({ line, text: lineText }) => ({ line, text: lineText }));
}
