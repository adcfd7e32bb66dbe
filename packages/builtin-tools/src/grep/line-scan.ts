import type { SearchPattern } from '../search/regex.ts';

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * How many lines of a file match, found from the bytes: only the lines that
 * hold the pattern's required literal are decoded and tested, and when the
 * pattern is that literal, not even those. Lines as grep reads them: split
 * at `\n`, a trailing `\r` and a leading BOM are not part of the text.
 */
export function countMatchingLines(buffer: Buffer, literal: Buffer, pattern: SearchPattern, options: { plain: boolean; firstOnly: boolean }): number {
  const textStart = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  let count = 0;
  let from = textStart;
  while (from < buffer.length) {
    const at = buffer.indexOf(literal, from);
    if (at === -1) break;
    const start = at === 0 ? textStart : Math.max(textStart, buffer.lastIndexOf(NEWLINE, at - 1) + 1);
    const newline = buffer.indexOf(NEWLINE, at + literal.length);
    const end = newline === -1 ? buffer.length : newline;
    let matched = options.plain;
    if (!matched) {
      const textEnd = end > start && buffer[end - 1] === RETURN ? end - 1 : end;
      matched = pattern.test(buffer.toString('utf8', start, textEnd));
    }
    if (matched) {
      count += 1;
      if (options.firstOnly) return count;
    }
    from = end + 1;
  }
  return count;
}
