import type { SearchPattern } from './search-pattern.ts';
import { MAX_SPAN_BYTES, type SearchLine, type SearchLineMatch, type TreeSearchHit } from './search-types.ts';
import { utf16Order } from './utf16-text.ts';
import { literalFinder } from './literal-finder.ts';

const NEWLINE = 0x0a;
const RETURN = 0x0d;

export interface MatcherSpec {
  readonly mode: 'files' | 'count' | 'content';
  readonly pattern: SearchPattern;
  /** Lines kept before and after each match in content mode; `before` and `after` override it on their side. */
  readonly context: number;
  readonly before?: number;
  readonly after?: number;
  readonly maxLineChars: number;
}

function contextOf(spec: MatcherSpec): { before: number; after: number } {
  return { before: spec.before ?? spec.context, after: spec.after ?? spec.context };
}

/** Takes a file's hits in order; false once nothing more of it can be kept (the search's bound is reached). */
export type AddHit = (hit: TreeSearchHit) => boolean;

/**
 * grep's work on one file's bytes (already known to be text: the caller
 * sniffed them). Lines as grep reads them: split at `\n`, a trailing `\r`
 * and a leading byte-order mark are not part of the text. Where a literal
 * is known, only the lines that hold it are decoded and tested; where the
 * pattern is that literal, not even those (docs/decisions/0006, 0007).
 */
export function matchFile(bytes: Buffer, path: string, spec: MatcherSpec, add: AddHit): void {
  const { pattern } = spec;
  const literal = pattern.requiredLiteral === undefined ? undefined : Buffer.from(pattern.requiredLiteral, 'utf8');
  if (literal !== undefined && bytes.indexOf(literal) === -1) return;
  if (pattern.anyOf !== undefined && !pattern.anyOf.some((other) => bytes.indexOf(other) !== -1)) return;
  if (pattern.otherLiterals.some((other) => bytes.indexOf(other) === -1)) return;
  if (pattern.folded !== undefined && !pattern.folded.inBytes(bytes)) return;
  if (pattern.multiline) {
    searchMultiline(bytes, path, spec, add);
    return;
  }
  // The lines worth a look: those holding the literal, or one of the alternatives of a pattern that is a choice of literals.
  const byLiteral = literal !== undefined && !literal.includes(NEWLINE) ? literal : pattern.anyOf;
  if (spec.mode !== 'content') {
    const firstOnly = spec.mode === 'files';
    const count =
      byLiteral !== undefined
        ? countMatchingLines(bytes, byLiteral, pattern, { plain: pattern.plain, firstOnly })
        : pattern.folded !== undefined && pattern.plain && firstOnly
          ? 1
          : countDecodedLines(bytes, pattern, firstOnly);
    if (count > 0) add(spec.mode === 'count' ? { path, count } : { path });
    return;
  }
  if (byLiteral !== undefined) scanContent(bytes, byLiteral, path, spec, add);
  else searchDecoded(bytes, path, spec, add);
}

/**
 * For files_with_matches with a plain literal: the first bytes of a large
 * file decide it when they hold the literal (and no NUL where the binary
 * sniff looks), so the rest is never read, as ripgrep's -l stops at a
 * file's first match. Undefined where the whole file is needed.
 */
export function headDecision(spec: MatcherSpec, sniffBytes: number): ((head: Buffer) => boolean) | undefined {
  const { pattern } = spec;
  if (spec.mode !== 'files' || !pattern.plain) return undefined;
  const literal = pattern.requiredLiteral === undefined ? undefined : Buffer.from(pattern.requiredLiteral, 'utf8');
  const folded = pattern.folded;
  const found = literal !== undefined ? (head: Buffer) => head.indexOf(literal) !== -1 : folded !== undefined ? (head: Buffer) => folded.inBytes(head) : undefined;
  if (found === undefined) return undefined;
  // A UTF-16 file is decided on its decoded text, never on its raw bytes.
  return (head) => utf16Order(head) === undefined && !(sniffBytes > 0 && head.subarray(0, sniffBytes).includes(0)) && found(head);
}

function textStartOf(bytes: Buffer): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** Whether the bytes [start, end) hold each of these literals: a line without one of them cannot match. */
function holdsAll(bytes: Buffer, start: number, end: number, literals: readonly Buffer[]): boolean {
  if (literals.length === 0) return true;
  const line = bytes.subarray(start, end);
  return literals.every((literal) => line.indexOf(literal) !== -1);
}

/** The bytes of the line at [start, end) (end at its `\n` or the end of the file), without a trailing `\r`. */
function lineBytes(bytes: Buffer, start: number, end: number): Buffer {
  return bytes.subarray(start, end > start && bytes[end - 1] === RETURN ? end - 1 : end);
}

/** The same line decoded. */
function lineText(bytes: Buffer, start: number, end: number): string {
  return bytes.toString('utf8', start, end > start && bytes[end - 1] === RETURN ? end - 1 : end);
}

/** A line as a search keeps it: cut to maxLineChars, its full length noted when cut. */
export function keptLine(line: number, text: string, maxLineChars: number): SearchLine {
  if (text.length <= maxLineChars) return { line, text };
  return { line, text: text.slice(0, maxLineChars), fullLength: text.length };
}

/**
 * How many lines of a file match, found from the bytes: only the lines that
 * hold the literal are decoded and tested, and when the pattern is that
 * literal, not even those.
 */
export function countMatchingLines(buffer: Buffer, literal: Buffer | readonly Buffer[], pattern: SearchPattern, options: { plain: boolean; firstOnly: boolean }): number {
  const find = literalFinder(buffer, literal);
  const textStart = textStartOf(buffer);
  let count = 0;
  let from = textStart;
  while (from < buffer.length) {
    const at = find(from);
    if (at === -1) break;
    const start = at === 0 ? textStart : Math.max(textStart, buffer.lastIndexOf(NEWLINE, at - 1) + 1);
    // A literal here holds no newline: the line ends at the first one from where it starts.
    const newline = buffer.indexOf(NEWLINE, at);
    const end = newline === -1 ? buffer.length : newline;
    if (options.plain || (holdsAll(buffer, start, end, pattern.otherLiterals) && pattern.testBytes(lineBytes(buffer, start, end)))) {
      count += 1;
      if (options.firstOnly) return count;
    }
    from = end + 1;
  }
  return count;
}

/** The decoded lines of a file, each without its `\n` and trailing `\r`; the BOM is not text. */
function decodedLines(bytes: Buffer): string[] {
  const text = bytes.toString('utf8', textStartOf(bytes));
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function lineMatches(line: string, pattern: SearchPattern): boolean {
  if (pattern.folded !== undefined) {
    if (!pattern.folded.inLine(line)) return false;
    if (pattern.plain) return true;
  }
  return pattern.test(line);
}

function countDecodedLines(bytes: Buffer, pattern: SearchPattern, firstOnly: boolean): number {
  let count = 0;
  for (const line of decodedLines(bytes)) {
    if (!lineMatches(line, pattern)) continue;
    count += 1;
    if (firstOnly) return count;
  }
  return count;
}

/** content mode without a byte literal: the file decoded, every line tested (after the folded prefilter when there is one). */
function searchDecoded(bytes: Buffer, path: string, spec: MatcherSpec, add: AddHit): void {
  const lines = decodedLines(bytes);
  const { maxLineChars } = spec;
  const { before, after } = contextOf(spec);
  const withContext = before > 0 || after > 0;
  const numbered = (index: number) => keptLine(index + 1, lines[index] ?? '', maxLineChars);
  for (let index = 0; index < lines.length; index += 1) {
    if (!lineMatches(lines[index] ?? '', spec.pattern)) continue;
    const match: SearchLineMatch = {
      ...numbered(index),
      ...(withContext ? { before: range(Math.max(0, index - before), index).map(numbered) } : {}),
      ...(withContext ? { after: range(index + 1, Math.min(lines.length, index + 1 + after)).map(numbered) } : {}),
    };
    if (!add({ path, match })) return;
  }
}

function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, offset) => start + offset);
}

/**
 * content mode with a byte literal: the line number is counted from the
 * newlines on the way, and only the lines that hold the literal, with their
 * context, are decoded; the rest of the file never becomes a string.
 */
function scanContent(bytes: Buffer, literal: Buffer | readonly Buffer[], path: string, spec: MatcherSpec, add: AddHit): void {
  const find = literalFinder(bytes, literal);
  const { maxLineChars, pattern } = spec;
  const context = contextOf(spec);
  const textStart = textStartOf(bytes);
  const length = bytes.length;
  // Lines end at a newline; a last line without one counts, an empty remainder after the last newline does not.
  const endOf = (start: number) => {
    const newline = bytes.indexOf(NEWLINE, start);
    return newline === -1 ? length : newline;
  };
  let lineNumber = 1;
  let lineStart = textStart;
  let from = textStart;
  while (from < length) {
    const at = find(from);
    if (at === -1) return;
    for (let end = endOf(lineStart); end < at; end = endOf(lineStart)) {
      lineNumber += 1;
      lineStart = end + 1;
    }
    const lineEnd = endOf(at);
    // Only a matching line is decoded: the engine reads the bytes.
    if (pattern.plain || (holdsAll(bytes, lineStart, lineEnd, pattern.otherLiterals) && pattern.testBytes(lineBytes(bytes, lineStart, lineEnd)))) {
      const text = lineText(bytes, lineStart, lineEnd);
      const before: SearchLine[] = [];
      let start = lineStart;
      for (let back = 1; back <= context.before && start > textStart; back += 1) {
        const previousEnd = start - 1;
        // lastIndexOf takes a negative offset from the end: at the first line, there is nothing before.
        const previousStart = previousEnd === 0 ? textStart : Math.max(textStart, bytes.lastIndexOf(NEWLINE, previousEnd - 1) + 1);
        before.unshift(keptLine(lineNumber - back, lineText(bytes, previousStart, previousEnd), maxLineChars));
        start = previousStart;
      }
      const after: SearchLine[] = [];
      let next = lineEnd + 1;
      for (let ahead = 1; ahead <= context.after && next < length; ahead += 1) {
        const nextEnd = endOf(next);
        after.push(keptLine(lineNumber + ahead, lineText(bytes, next, nextEnd), maxLineChars));
        next = nextEnd + 1;
      }
      const match: SearchLineMatch = { ...keptLine(lineNumber, text, maxLineChars), ...(context.before > 0 || context.after > 0 ? { before, after } : {}) };
      if (!add({ path, match })) return;
    }
    if (lineEnd >= length) return;
    from = lineEnd + 1;
    lineStart = from;
    lineNumber += 1;
  }
}

/**
 * multiline: the pattern runs over the whole decoded text (the BOM is not
 * text), so a match may span lines. A result is the match's first line; a
 * match that starts on a line an earlier result already covers (its first
 * line to its endLine) joins that result, so each line is in one result
 * at most and a count counts results. The lines after the first are kept
 * up to MAX_SPAN_BYTES of the file; `spanBytes` says when more were covered.
 */
function searchMultiline(bytes: Buffer, path: string, spec: MatcherSpec, add: AddHit): void {
  const text = bytes.toString('utf8', textStartOf(bytes));
  if (text === '') return;
  const raw = text.split('\n');
  if (raw.length > 1 && raw.at(-1) === '') raw.pop();
  const starts: number[] = [];
  let offset = 0;
  for (const line of raw) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const lineOf = (index: number): number => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((starts[middle] as number) <= index) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const lineText = (line: number): string => {
    const value = raw[line - 1] ?? '';
    return value.endsWith('\r') ? value.slice(0, -1) : value;
  };
  let count = 0;
  let current: { first: number; last: number } | undefined;
  const flush = (result: { first: number; last: number }): boolean => {
    count += 1;
    if (spec.mode === 'files') {
      add({ path });
      return false;
    }
    if (spec.mode === 'count') return true;
    return add({ path, match: multilineMatch(result.first, result.last, raw.length, lineText, spec) });
  };
  for (const [start, end] of spec.pattern.spans(text)) {
    // A match at the very end of a text that ends in a newline starts on no line.
    if (start === text.length && text.endsWith('\n')) break;
    const first = lineOf(start);
    const last = end > start ? lineOf(end - 1) : first;
    if (current !== undefined && first <= current.last) {
      current.last = Math.max(current.last, last);
      continue;
    }
    if (current !== undefined && !flush(current)) return;
    current = { first, last };
  }
  if (current !== undefined && !flush(current)) return;
  if (spec.mode === 'count' && count > 0) add({ path, count });
}

function multilineMatch(first: number, last: number, lineCount: number, lineText: (line: number) => string, spec: MatcherSpec): SearchLineMatch {
  const { maxLineChars } = spec;
  const { before, after } = contextOf(spec);
  const numbered = (line: number) => keptLine(line, lineText(line), maxLineChars);
  const lines: SearchLine[] = [];
  let covered = Buffer.byteLength(lineText(first), 'utf8') + 1;
  let cut = false;
  for (let line = first + 1; line <= last; line += 1) {
    covered += Buffer.byteLength(lineText(line), 'utf8') + 1;
    if (covered > MAX_SPAN_BYTES) cut = true;
    if (!cut) lines.push(numbered(line));
  }
  const withContext = before > 0 || after > 0;
  return {
    ...numbered(first),
    ...(last > first ? { endLine: last, lines } : {}),
    ...(cut ? { spanBytes: covered } : {}),
    ...(withContext ? { before: range(Math.max(1, first - before), first).map(numbered) } : {}),
    ...(withContext ? { after: range(last + 1, Math.min(lineCount, last + after) + 1).map(numbered) } : {}),
  };
}
