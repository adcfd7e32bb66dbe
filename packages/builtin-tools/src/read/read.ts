import { defineTool, isToolError, ToolError, type ImageMediaType, type TextEncoding } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { escapeName } from '../common/escape-name.ts';
import { decodeText, formatBytes, sha256 } from '../common/text.ts';
import { ReadOutput } from '../common/output-schemas.ts';
import { readFileFormat, streamedTextOnly, textFields, type TextFormat } from './formats.ts';
import { readLineWindow, type LineWindow } from './line-window.ts';

export const ReadInput = Type.Object({
  path: Type.String(),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Zero-based line (notebook: cell) to start at; default 0.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, description: 'Lines (notebook: cells); default all after offset, within 1 MiB.' })),
});

export interface ReadData {
  readonly path: string;
  readonly content: string;
  readonly offset: number;
  readonly lineCount: number;
  /** Absent when the file is above the whole-file limit and the read stopped before its end. */
  readonly totalLines?: number;
  readonly truncated: boolean;
  readonly nextOffset?: number;
  /**
   * Absent for lines of text (as every read before); `image` for an image,
   * attached to the result as an image part (`content` empty); `notebook`
   * for a notebook rendered by cells, where offset, lineCount, totalLines
   * and nextOffset count cells.
   */
  readonly kind?: 'image' | 'notebook';
  /** Text in UTF-16 (by its byte-order mark); absent for UTF-8. */
  readonly encoding?: Exclude<TextEncoding, 'utf-8'>;
  readonly image?: { readonly mediaType: ImageMediaType; readonly bytes: number; readonly width: number; readonly height: number };
  /** `images`: image outputs attached; `omittedImages`: those left out by the image limit. */
  readonly notebook?: { readonly cells: number; readonly language?: string; readonly images: number; readonly omittedImages: number };
}

/** Bytes per chunk of a streamed read. */
const CHUNK_BYTES = 256 * 1024;

const NEWLINE = 0x0a;

/** Lines in a decoded file's bytes (after the BOM): a last line without a newline counts. */
function countLines(bytes: Uint8Array): number {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE, start); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count += 1;
  return bytes.length > start && bytes[bytes.length - 1] !== NEWLINE ? count + 1 : count;
}

export const readTool = defineTool({
  id: 'filesystem/read',
  name: 'read',
  description: descriptions.read,
  risk: 'read',
  input: ReadInput,
  output: ReadOutput,
  effect: (input) => ({ kind: 'read', paths: [input.path] }),
  execute: async (session: BuiltinSession, call, input) => {
    const offset = input.offset ?? 0;
    const path = await session.paths.resolvePath(input.path, 'read', 'must_exist', { signal: call.signal });
    const shownPath = escapeName(path.displayPath);
    if (path.kind === 'directory') {
      throw new ToolError('is_directory', `${shownPath} is a directory; use list to see what it holds`);
    }
    const { maxContentBytes, maxLineChars, maxReadFileBytes } = session.limits;
    const request = { offset, limit: input.limit, maxContentBytes, maxLineChars, displayPath: shownPath };
    let window: LineWindow;
    let totalLines: number | undefined;
    let bytes: Uint8Array | undefined;
    let format: TextFormat | undefined;
    const formatRequest = { session, path, shownPath, offset, limit: input.limit };
    try {
      bytes = await session.filesystem.readFile(path, { maxBytes: maxReadFileBytes, signal: call.signal });
    } catch (error) {
      if (!isToolError(error) || error.kind !== 'too_large') throw error;
    }
    if (bytes !== undefined) {
      // A PDF, an image or a notebook is not read as lines; UTF-16 text is read as its UTF-8.
      const found = readFileFormat(formatRequest, bytes);
      if (found.kind === 'outcome') return found.outcome;
      format = found;
      // A file within the limit is checked whole, and what the model saw is remembered for edit.
      const seenText = decodeText(bytes, shownPath).text;
      session.readLedger.remember(session.paths.canonicalKey(path), sha256(bytes), seenText);
      totalLines = countLines(format.utf8);
      window = await readLineWindow([format.utf8], request);
    } else {
      // A larger file is read as a stream, only as far as the lines asked for: the cap is on what is returned.
      window = await readLineWindow(streamedTextOnly(session.filesystem.readFileChunks(path, { chunkBytes: CHUNK_BYTES, signal: call.signal }), formatRequest), request);
      totalLines = window.totalLines;
    }

    const lineCount = window.lines.length;
    const truncated = window.more;
    const nextOffset = truncated ? offset + lineCount : undefined;
    const data: ReadData = {
      path: path.displayPath,
      content: window.lines.map((line) => line.content).join(''),
      offset,
      lineCount,
      ...(totalLines === undefined ? {} : { totalLines }),
      truncated,
      ...(nextOffset === undefined ? {} : { nextOffset }),
      ...textFields(format),
    };
    const numbered = window.lines.map((line, index) => {
      const body = line.content.replace(/\r?\n$/, '');
      const note = line.cutChars > 0 ? ` … [line cut: ${line.cutChars} more characters]` : '';
      return `${String(offset + index + 1).padStart(6)}\t${body}${note}`;
    });
    const cutLines = window.lines.filter((line) => line.cutChars > 0).length;
    const notes: string[] = [...(format?.notes ?? [])];
    if (totalLines === 0) notes.push(`[${shownPath} is empty]`);
    if (cutLines > 0) notes.push(`[${cutLines} line(s) longer than ${maxLineChars} characters were cut]`);
    if (truncated) {
      const why = window.capped ? ` (the ${formatBytes(maxContentBytes)} output cap was reached)` : '';
      const of = totalLines === undefined ? ` of a file above ${formatBytes(maxReadFileBytes)}, whose lines are counted only as far as read` : ` of ${totalLines}`;
      notes.push(`[showing lines ${offset + 1}-${offset + lineCount}${of}${why}; continue with offset ${nextOffset}]`);
    }
    return { data, output: [...numbered, ...notes].join('\n') };
  },
});
