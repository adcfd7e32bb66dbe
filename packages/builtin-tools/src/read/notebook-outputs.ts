import type { ImagePart } from '@openwork/tool-contract';
import { imagePart, imageTypeName, sniffImage } from './image.ts';

/** One output of a code cell, as nbformat 4 writes it; only the fields read uses. */
export interface NotebookOutput {
  readonly output_type?: unknown;
  readonly name?: unknown;
  readonly text?: unknown;
  readonly data?: unknown;
  readonly ename?: unknown;
  readonly evalue?: unknown;
  readonly traceback?: unknown;
}

/** The images one read may still attach: a byte budget shared by every image output it shows. */
export interface ImageBudget {
  remaining: number;
  readonly images: ImagePart[];
  omitted: number;
}

/** A rendered output: a header line and the text lines under it. */
export interface RenderedOutput {
  readonly header: string;
  readonly lines: readonly string[];
}

/** nbformat stores text as one string or a list of strings, each holding its own line ending. */
export function multilineText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value.join('');
  return undefined;
}

// Terminal control sequences (CSI colours, OSC titles and links, single escapes) in tracebacks and streams mean nothing to a model.
// eslint-disable-next-line no-control-regex -- matching the escape character is the point
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/gu;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** A progress bar redraws its line with `\r`: keep what the terminal would show, the text after the last one. */
function lastRedraw(line: string): string {
  const at = line.lastIndexOf('\r');
  return at === -1 ? line : line.slice(at + 1);
}

function linesOf(text: string): string[] {
  const lines = text.replace(/\r\n/gu, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => lastRedraw(stripAnsi(line)));
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** One base64 image of a mime bundle: attached within the budget, or named with why it was not. */
function imageLine(mime: string, encoded: string, budget: ImageBudget): string {
  // Notebooks wrap base64 in lines; Buffer's decoder skips the breaks.
  const bytes = Buffer.from(encoded, 'base64');
  const sniffed = sniffImage(bytes);
  if (sniffed.kind !== 'image') return `${mime}: not attached, its data is not a readable image`;
  const { mediaType, width, height } = sniffed.header;
  const described = `${imageTypeName(mediaType)} image, ${width}x${height} pixels, ${bytes.length} bytes`;
  if (bytes.length > budget.remaining) {
    budget.omitted += 1;
    return `${described}: not attached, above what is left of the image limit of one read`;
  }
  budget.remaining -= bytes.length;
  budget.images.push(imagePart(bytes, mediaType));
  return `${described}: attached as image ${budget.images.length}`;
}

/** A mime bundle (execute_result, display_data): its text/plain and its images; other types are named, never shown. */
function renderBundle(kind: string, data: unknown, budget: ImageBudget): RenderedOutput {
  const bundle = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const notes: string[] = [];
  for (const mime of IMAGE_TYPES) {
    const encoded = multilineText(bundle[mime]);
    if (encoded !== undefined) notes.push(imageLine(mime, encoded, budget));
  }
  const plain = multilineText(bundle['text/plain']);
  const shown = new Set<string>(['text/plain', ...IMAGE_TYPES]);
  const hidden = Object.keys(bundle).filter((mime) => !shown.has(mime));
  if (plain === undefined && hidden.length > 0) notes.push(`${hidden.join(', ')} not shown`);
  const header = notes.length > 0 ? `${kind}; ${notes.join('; ')}` : kind;
  return { header, lines: plain === undefined ? [] : linesOf(plain) };
}

/** One output as text: streams and text/plain as they are, errors with their traceback, images as parts. */
export function renderOutput(output: NotebookOutput, budget: ImageBudget): RenderedOutput {
  const type = typeof output.output_type === 'string' ? output.output_type : 'unknown';
  switch (type) {
    case 'stream': {
      const name = typeof output.name === 'string' ? output.name : 'stream';
      return { header: `stream ${name}`, lines: linesOf(multilineText(output.text) ?? '') };
    }
    case 'execute_result':
    case 'display_data':
    case 'update_display_data':
      return renderBundle(type, output.data, budget);
    case 'error': {
      const name = typeof output.ename === 'string' ? output.ename : 'error';
      // The header is one line; the traceback below holds the whole message.
      const value = typeof output.evalue === 'string' ? (stripAnsi(output.evalue).split('\n')[0] ?? '') : '';
      const traceback = Array.isArray(output.traceback) ? output.traceback.filter((line): line is string => typeof line === 'string') : [];
      return { header: `error ${name}${value === '' ? '' : `: ${value}`}`, lines: linesOf(traceback.join('\n')) };
    }
    default:
      return { header: `${type}, not shown`, lines: [] };
  }
}
