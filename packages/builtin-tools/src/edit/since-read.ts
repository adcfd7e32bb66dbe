import { diffLines } from 'diff';
import { occurrences } from './matching.ts';

/** Lines on each side of a replacement that must read as the model saw them. */
const CONTEXT_LINES = 3;
/** Changed ranges named in the note, at most. */
const MAX_RANGES = 8;

interface Replacement {
  readonly oldText: string;
  readonly replaceAll?: boolean;
}

function lineIndexAt(text: string, offset: number): number {
  let line = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** The match of `needle` in `text` with CONTEXT_LINES whole lines around it, or undefined when it is not there exactly once. */
function surroundings(text: string, needle: string): string | undefined {
  const found = occurrences(text, needle);
  if (found.length !== 1) return undefined;
  const offset = found[0] ?? 0;
  const lines = text.split('\n');
  const first = Math.max(0, lineIndexAt(text, offset) - CONTEXT_LINES);
  const last = Math.min(lines.length - 1, lineIndexAt(text, offset + needle.length) + CONTEXT_LINES);
  return lines.slice(first, last + 1).join('\n');
}

/**
 * Whether an edit may go ahead on a file that changed since the model read
 * it (docs/decisions/0013): every replacement is a single exact match, in
 * what the model saw and in the file now, with the same lines around it.
 * Then the change was elsewhere, and the model's edit means what it meant.
 */
export function changedElsewhere(seen: string, current: string, replacements: readonly Replacement[]): boolean {
  return replacements.every((replacement) => {
    if (replacement.replaceAll === true) return false;
    const before = surroundings(seen, replacement.oldText);
    return before !== undefined && before === surroundings(current, replacement.oldText);
  });
}

/** The lines of `current` that differ from `seen`, as `3–5, 40`; a removal is named by the line after it. */
export function changedLineRanges(seen: string, current: string): string {
  const ranges: string[] = [];
  let line = 1;
  const parts = diffLines(seen, current);
  parts.forEach((part, index) => {
    const count = part.count ?? 0;
    if (part.added === true) ranges.push(count > 1 ? `${line}–${line + count - 1}` : `${line}`);
    // A removal followed by an addition is a change, named by the added lines.
    else if (part.removed === true && parts[index + 1]?.added !== true) ranges.push(`${line} (lines removed before it)`);
    if (part.removed !== true) line += count;
  });
  const shown = ranges.slice(0, MAX_RANGES).join(', ');
  return ranges.length > MAX_RANGES ? `${shown} and ${ranges.length - MAX_RANGES} more` : shown;
}
