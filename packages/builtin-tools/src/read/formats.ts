import type { CheckedPath } from '@openwork/path-guard';
import { ToolError, type ToolOutcome } from '@openwork/tool-contract';
import type { BuiltinSession } from '../session.ts';
import { escapeName } from '../common/escape-name.ts';
import { decodeText, encodeUtf8, encodingLabel, formatBytes, utf16ByteOrder } from '../common/text.ts';
import { imagePart, imageSignature, imageTypeName, maxImageBytes, sniffImage } from './image.ts';
import { isNotebookPath, readNotebook } from './notebook.ts';
import type { ReadData } from './read.ts';

/** One read call, as the format readers need it. */
export interface FormatRequest {
  readonly session: BuiltinSession;
  readonly path: CheckedPath;
  /** The path as the model text shows it (escaped). */
  readonly shownPath: string;
  readonly offset: number;
  readonly limit: number | undefined;
}

/** A file read as lines: its text as UTF-8 bytes for the line window, with what data and the output add. */
export interface TextFormat {
  readonly kind: 'text';
  readonly utf8: Uint8Array;
  readonly data: Pick<ReadData, 'encoding'>;
  readonly notes: readonly string[];
}

/** What read does with a whole file: a result of its own (an image, a notebook), or lines of text. */
export type FileFormat = { readonly kind: 'outcome'; readonly outcome: ToolOutcome<ReadData> } | TextFormat;

/** The data fields a text read adds (none for UTF-8); `format` is undefined where the file was streamed (UTF-8 only). */
export function textFields(format: TextFormat | undefined): Pick<ReadData, 'encoding'> {
  return format?.data ?? {};
}

const PDF = encodeUtf8('%PDF-');

function isPdf(bytes: Uint8Array): boolean {
  return PDF.every((byte, index) => bytes[index] === byte);
}

/** A path as one shell word, for a command the model may run; FILE when it cannot be shown safely. */
function shellWord(path: string): string {
  if (escapeName(path) !== path) return 'FILE';
  return /^[\w@%+=:,./-]+$/u.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

function pdfError(request: FormatRequest): ToolError {
  return new ToolError(
    'binary',
    `${request.shownPath} is a PDF document, which read does not decode. Use a PDF tool if you have one; otherwise extract its text through bash where poppler-utils is installed: pdftotext -layout ${shellWord(request.path.displayPath)} - | head -n 200`,
  );
}

/** An image file: checked, within the image limit, and attached as an image part; its text says what it is, never its bytes. */
function readImage(request: FormatRequest, bytes: Uint8Array): ToolOutcome<ReadData> | undefined {
  const sniffed = sniffImage(bytes);
  if (sniffed.kind === 'none') return undefined;
  const { shownPath } = request;
  if (sniffed.kind === 'damaged') {
    throw new ToolError(
      'binary',
      `${shownPath} starts like a ${imageTypeName(sniffed.mediaType)} image, but its header is damaged or cut short, so it was not attached; it cannot be shown as text either`,
    );
  }
  const { mediaType, width, height } = sniffed.header;
  const described = `${imageTypeName(mediaType)} image, ${width}x${height} pixels, ${bytes.length} bytes`;
  const limit = maxImageBytes(request.session.limits);
  if (bytes.length > limit) {
    throw new ToolError(
      'too_large',
      `${shownPath} is a ${described}, above the ${formatBytes(limit)} limit for an image; make a smaller copy in the workspace and read that (through bash where ImageMagick is installed: convert IN -resize 50% OUT)`,
    );
  }
  const data: ReadData = {
    path: request.path.displayPath,
    content: '',
    offset: 0,
    lineCount: 0,
    truncated: false,
    kind: 'image',
    image: { mediaType, bytes: bytes.length, width, height },
  };
  return { data, output: `${shownPath}: ${described}. The image is attached to this result.`, images: [imagePart(bytes, mediaType)] };
}

/** UTF-16 text (by its byte-order mark) becomes UTF-8 for the line window, and the output says what it was. */
function textFormat(request: FormatRequest, bytes: Uint8Array, notes: readonly string[]): TextFormat {
  const encoding = utf16ByteOrder(bytes);
  if (encoding === undefined) return { kind: 'text', utf8: bytes, data: {}, notes };
  const decoded = decodeText(bytes, request.shownPath);
  return {
    kind: 'text',
    utf8: encodeUtf8(decoded.text),
    data: { encoding },
    notes: [...notes, `[${request.shownPath} is ${encodingLabel(encoding)} text with a byte-order mark; edit keeps that encoding]`],
  };
}

/**
 * How read takes a file it has whole, by its content (the name only for a
 * notebook): a PDF is refused, an image is attached, a notebook is rendered
 * by cells, and anything else is text, UTF-16 included.
 */
export function readFileFormat(request: FormatRequest, bytes: Uint8Array): FileFormat {
  if (isPdf(bytes)) throw pdfError(request);
  const image = readImage(request, bytes);
  if (image !== undefined) return { kind: 'outcome', outcome: image };
  if (isNotebookPath(request.path.displayPath)) {
    const notebook = readNotebook(request, bytes);
    if (notebook.kind === 'outcome') return notebook;
    return textFormat(request, bytes, [`[${request.shownPath} is not a notebook read can render (${notebook.reason}); it is shown as plain text, and offset and limit count lines]`]);
  }
  return textFormat(request, bytes, []);
}

/**
 * The chunks of a file above the whole-file limit, refused at the first
 * chunk when it is a format that is only read whole: a PDF, an image (too
 * large to attach), a notebook or UTF-16 text. Anything else passes as it
 * is, for the line window to check as UTF-8.
 */
export async function* streamedTextOnly(chunks: AsyncIterable<Uint8Array>, request: FormatRequest): AsyncGenerator<Uint8Array> {
  const { shownPath } = request;
  const limit = formatBytes(request.session.limits.maxReadFileBytes);
  if (isNotebookPath(request.path.displayPath)) {
    throw new ToolError(
      'too_large',
      `${shownPath} is a notebook larger than ${limit}, too large to render; look at part of its JSON through bash instead (for example jq '.cells[0]' ${shellWord(request.path.displayPath)} where jq is installed)`,
    );
  }
  let first = true;
  for await (const chunk of chunks) {
    if (first && chunk.length > 0) {
      first = false;
      if (isPdf(chunk)) throw pdfError(request);
      const image = imageSignature(chunk);
      if (image !== undefined) {
        throw new ToolError('too_large', `${shownPath} is a ${imageTypeName(image)} image larger than ${limit}, too large to attach; make a smaller copy in the workspace and read that`);
      }
      const encoding = utf16ByteOrder(chunk);
      if (encoding !== undefined) {
        throw new ToolError('too_large', `${shownPath} is ${encodingLabel(encoding)} text larger than ${limit}, which read decodes only whole; look at part of it through bash instead (iconv -f UTF-16 -t UTF-8 FILE | sed -n '1,200p')`);
      }
    }
    yield chunk;
  }
}
