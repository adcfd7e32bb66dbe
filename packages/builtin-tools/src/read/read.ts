import { defineTool, isToolError, ToolError } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { escapeName } from '../shared/escape-name.ts';
import { decodeText, formatBytes, sha256 } from '../shared/text.ts';
import { ReadOutput } from '../shared/output-schemas.ts';
import { streamedRead } from './file-chunks.ts';
import { readLineWindow, type LineWindow } from './line-window.ts';

export const ReadInput = Type.Object({
  path: Type.String({ description: 'File to read: relative to the working directory, or absolute inside an allowed root.' }),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Zero-based line to start from; default 0.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, description: 'Number of lines, 1–2000; default: all after offset, within 1 MiB.' })),
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
    try {
      bytes = await session.filesystem.readFile(path, { maxBytes: maxReadFileBytes, signal: call.signal });
    } catch (error) {
      if (!isToolError(error) || error.kind !== 'too_large') throw error;
    }
    if (bytes !== undefined) {
      // A file within the limit is checked whole, and what the model saw is remembered for edit.
      const seenText = decodeText(bytes, shownPath).text;
      session.readLedger.remember(session.paths.canonicalKey(path), sha256(bytes), seenText);
      totalLines = countLines(bytes);
      window = await readLineWindow([bytes], request);
    } else {
      // A larger file is read as a stream, only as far as the lines asked for: the cap is on what is returned.
      const readChunks = streamedRead(session.filesystem);
      if (readChunks === undefined) {
        throw new ToolError(
          'too_large',
          `${shownPath} is larger than ${formatBytes(maxReadFileBytes)}, and this file system cannot read part of a file; look at part of it with bash instead (grep -n PATTERN FILE, or sed -n 'START,ENDp' FILE)`,
        );
      }
      window = await readLineWindow(readChunks(path, { chunkBytes: CHUNK_BYTES, signal: call.signal }), request);
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
    };
    const numbered = window.lines.map((line, index) => {
      const body = line.content.replace(/\r?\n$/, '');
      const note = line.cutChars > 0 ? ` … [line cut: ${line.cutChars} more characters]` : '';
      return `${String(offset + index + 1).padStart(6)}\t${body}${note}`;
    });
    const cutLines = window.lines.filter((line) => line.cutChars > 0).length;
    const notes: string[] = [];
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
