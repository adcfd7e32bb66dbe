import type { GrepLine } from './grep.ts';

/** The length of a kept line before it was cut to maxLineChars, for the output's note. */
const fullLengths = new WeakMap<object, number>();

/**
 * A line as a search keeps it: cut to `maxLineChars` and copied, so that it
 * no longer holds on to the decoded text of its whole file (a slice would).
 */
export function keptLine<T extends GrepLine>(make: (text: string) => T, text: string, maxLineChars: number): T {
  const shown = text.length > maxLineChars ? text.slice(0, maxLineChars) : text;
  const entry = make(Buffer.from(shown, 'utf16le').toString('utf16le'));
  if (text.length > maxLineChars) fullLengths.set(entry, text.length);
  return entry;
}

export function fullLength(entry: GrepLine): number {
  return fullLengths.get(entry) ?? entry.text.length;
}
