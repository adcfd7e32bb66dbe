import { defineTool, ToolError } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { decodeText, formatBytes, sha256, utf8Length } from '../shared/text.ts';
import { ReadOutput } from '../shared/output-schemas.ts';

export const ReadInput = Type.Object({
  path: Type.String({ description: 'File to read: relative to the working directory, or absolute inside an allowed root.' }),
  offset: Type.Optional(Type.Integer({ minimum: 0, description: 'Zero-based line to start from; default 0.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, description: 'Number of lines, 1–2000; default: all after offset, within 1 MiB.' })),
});

export interface ReadData {
  readonly path: string;
  readonly content: string;
  readonly offset: number;
  readonly lineCount: number;
  readonly totalLines: number;
  readonly truncated: boolean;
  readonly nextOffset?: number;
}

/** Splits keeping each line's own ending, so content is the file's bytes exactly. */
function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
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
    if (path.kind === 'directory') {
      throw new ToolError('is_directory', `${path.displayPath} is a directory; use list to see what it holds`);
    }
    const bytes = await session.filesystem.readFile(path, { maxBytes: session.limits.maxReadFileBytes, signal: call.signal });
    const { text } = decodeText(bytes, path.displayPath);
    session.readLedger.remember(path.displayPath, sha256(bytes));

    const lines = splitLines(text);
    if (offset > lines.length) {
      throw new ToolError('invalid_input', `offset ${offset} is past the end of ${path.displayPath}, which has ${lines.length} lines; use an offset below ${lines.length}`);
    }
    const wanted = Math.min(lines.length, input.limit === undefined ? lines.length : offset + input.limit);
    const { maxContentBytes, maxLineChars } = session.limits;
    const shown: string[] = [];
    const numbered: string[] = [];
    let bytesUsed = 0;
    let cutLines = 0;
    let capped = false;
    for (let index = offset; index < wanted; index += 1) {
      let line = lines[index] ?? '';
      const ending = line.endsWith('\r\n') ? '\r\n' : line.endsWith('\n') ? '\n' : '';
      const body = line.slice(0, line.length - ending.length);
      let note = '';
      if (body.length > maxLineChars) {
        cutLines += 1;
        note = ` … [line cut: ${body.length - maxLineChars} more characters]`;
        line = body.slice(0, maxLineChars) + ending;
      }
      const size = utf8Length(line);
      // Whole lines only: the next call starts exactly at nextOffset.
      if (bytesUsed + size > maxContentBytes && shown.length > 0) {
        capped = true;
        break;
      }
      bytesUsed += size;
      shown.push(line);
      numbered.push(`${String(index + 1).padStart(6)}\t${line.slice(0, line.length - ending.length)}${note}`);
    }
    const lineCount = shown.length;
    const truncated = offset + lineCount < lines.length;
    const nextOffset = truncated ? offset + lineCount : undefined;
    const data: ReadData = {
      path: path.displayPath,
      content: shown.join(''),
      offset,
      lineCount,
      totalLines: lines.length,
      truncated,
      ...(nextOffset === undefined ? {} : { nextOffset }),
    };
    const notes: string[] = [];
    if (lines.length === 0) notes.push(`[${path.displayPath} is empty]`);
    if (cutLines > 0) notes.push(`[${cutLines} line(s) longer than ${maxLineChars} characters were cut]`);
    if (truncated) {
      const why = capped ? ` (the ${formatBytes(maxContentBytes)} output cap was reached)` : '';
      notes.push(`[showing lines ${offset + 1}-${offset + lineCount} of ${lines.length}${why}; continue with offset ${nextOffset}]`);
    }
    return { data, output: [...numbered, ...notes].join('\n') };
  },
});
