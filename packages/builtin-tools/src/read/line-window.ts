import { ToolError } from '@openwork/tool-contract';
import { utf8Length } from '../common/text.ts';

const NEWLINE = 0x0a;

export interface WindowRequest {
  /** Zero-based line to start from. */
  readonly offset: number;
  /** Most lines; undefined: all after offset. */
  readonly limit: number | undefined;
  /** Most bytes of content returned (whole lines only). */
  readonly maxContentBytes: number;
  /** Characters kept of one line; the rest is cut. */
  readonly maxLineChars: number;
  readonly displayPath: string;
}

export interface ShownLine {
  /** The line as the data gives it: cut to maxLineChars, with its own ending. */
  readonly content: string;
  /** Characters cut off, 0 when none. */
  readonly cutChars: number;
}

export interface LineWindow {
  readonly lines: readonly ShownLine[];
  /** The content cap stopped the window before `limit` lines. */
  readonly capped: boolean;
  /** Lines remain after the window. */
  readonly more: boolean;
  /** Lines in the file, when the read reached its end. */
  readonly totalLines: number | undefined;
}

/**
 * The lines `offset` to `offset + limit` of a UTF-8 file given as chunks of
 * bytes (all of it at once, or streamed), read only as far as the window needs: lines before it are counted
 * by their newlines and never decoded, a long line is kept only up to the
 * cut, and reading stops at the first byte past the window (enough to know
 * whether more lines follow). Lines end at `\n` and keep their ending
 * (`\r\n` included), so the content is the file's own bytes; a leading
 * byte-order mark is not content. A NUL byte in the lines up to the end of
 * the window is `binary`, bytes that are not UTF-8 in the lines shown
 * `invalid_utf8`.
 */
export async function readLineWindow(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, request: WindowRequest): Promise<LineWindow> {
  const { offset, limit, maxContentBytes, maxLineChars, displayPath } = request;
  const end = limit === undefined ? Number.POSITIVE_INFINITY : offset + limit;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const lines: ShownLine[] = [];
  let lineIndex = 0;
  /** Bytes of the current line seen so far (for the line count at the end of the file). */
  let lineStarted = false;
  let kept = '';
  let units = 0;
  let tail = '';
  let bytesUsed = 0;
  let capped = false;
  let firstBytes = true;

  const decode = (bytes: Uint8Array, stream: boolean): string => {
    try {
      return decoder.decode(bytes, { stream });
    } catch {
      throw new ToolError('invalid_utf8', `${displayPath} is not valid UTF-8 text (line ${lineIndex + 1}); it cannot be shown as text`);
    }
  };
  /** Takes the decoded piece of the current line, keeping only what the cut can show. */
  const take = (text: string) => {
    const room = maxLineChars + 2 - kept.length;
    if (room > 0) kept += text.slice(0, room);
    units += text.length;
    tail = (tail + text).slice(-2);
  };
  /** Ends the current line; false when the content cap leaves no room for it. */
  const finishLine = (): boolean => {
    const ending = tail.endsWith('\r\n') ? '\r\n' : tail.endsWith('\n') ? '\n' : '';
    const bodyLength = units - ending.length;
    const cutChars = Math.max(0, bodyLength - maxLineChars);
    const content = cutChars > 0 ? kept.slice(0, maxLineChars) + ending : kept;
    const size = utf8Length(content);
    // Whole lines only: the next call starts exactly at nextOffset.
    if (bytesUsed + size > maxContentBytes && lines.length > 0) {
      capped = true;
      return false;
    }
    bytesUsed += size;
    lines.push({ content, cutChars });
    kept = '';
    units = 0;
    tail = '';
    return true;
  };

  const iterator = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) break;
      let chunk = next.value;
      if (firstBytes && chunk.length > 0) {
        firstBytes = false;
        if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
      }
      let position = 0;
      let nul = chunk.indexOf(0);
      while (position < chunk.length) {
        if (lineIndex >= end) return { lines, capped, more: true, totalLines: undefined };
        const newline = chunk.indexOf(NEWLINE, position);
        const pieceEnd = newline === -1 ? chunk.length : newline + 1;
        // Binary when a line read so far holds a NUL: what lies past the window does not decide.
        if (nul !== -1 && nul < position) nul = chunk.indexOf(0, position);
        if (nul !== -1 && nul < pieceEnd) {
          throw new ToolError('binary', `${displayPath} is a binary file (it contains NUL bytes); it cannot be shown as text`);
        }
        lineStarted = true;
        if (lineIndex >= offset) take(decode(chunk.subarray(position, pieceEnd), true));
        position = pieceEnd;
        if (newline === -1) break;
        if (lineIndex >= offset && !finishLine()) return { lines, capped, more: true, totalLines: undefined };
        lineIndex += 1;
        lineStarted = false;
      }
    }
  } finally {
    await iterator.return?.();
  }
  // The end of the file: a last line without a newline is a line too.
  if (lineStarted) {
    if (lineIndex >= offset && lineIndex < end) {
      take(decode(new Uint8Array(), false));
      if (!finishLine()) return { lines, capped, more: true, totalLines: lineIndex + 1 };
    }
    lineIndex += 1;
  } else if (lineIndex >= offset) {
    decode(new Uint8Array(), false);
  }
  const totalLines = lineIndex;
  if (offset > totalLines) {
    throw new ToolError('invalid_input', `offset ${offset} is past the end of ${displayPath}, which has ${totalLines} lines; use an offset below ${totalLines}`);
  }
  return { lines, capped, more: offset + lines.length < totalLines, totalLines };
}
