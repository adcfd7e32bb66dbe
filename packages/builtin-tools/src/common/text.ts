import { createHash } from 'node:crypto';
import { ToolError, type TextEncoding } from '@openwork/tool-contract';

const BOM = '\uFEFF';
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** A text file's content, whether it started with a BOM (which is not content), and how its bytes encode it. */
export interface DecodedText {
  readonly text: string;
  readonly bom: boolean;
  /** Absent: UTF-8. UTF-16 is only recognized by its BOM, so a UTF-16 file always has `bom: true`. */
  readonly encoding?: TextEncoding;
}

/** The UTF-16 byte order a file's first two bytes announce, if they are a UTF-16 byte-order mark. */
export function utf16ByteOrder(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', displayPath: string): DecodedText {
  const label = encodingLabel(encoding);
  let text: string;
  try {
    // fatal: an odd byte count or a lone surrogate is not text, and would not encode back to the same bytes.
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ToolError('invalid_utf8', `${displayPath} starts with a ${label} byte-order mark but is not valid ${label} text; it cannot be shown or edited as text`);
  }
  if (text.includes('\0')) {
    throw new ToolError('binary', `${displayPath} is a binary file (it starts with a ${label} byte-order mark but holds NUL characters); it cannot be shown as text`);
  }
  return { text: text.slice(1), bom: true, encoding };
}

/**
 * NUL bytes mean binary; bytes that are not UTF-8 are `invalid_utf8`. A
 * UTF-16 byte-order mark (LE or BE) makes it UTF-16 text instead, held to
 * the same rules: no NUL characters, and every unit valid.
 */
export function decodeText(bytes: Uint8Array, displayPath: string): DecodedText {
  const utf16 = utf16ByteOrder(bytes);
  if (utf16 !== undefined) return decodeUtf16(bytes, utf16, displayPath);
  if (bytes.includes(0)) {
    throw new ToolError('binary', `${displayPath} is a binary file (it contains NUL bytes); it cannot be shown as text`);
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new ToolError('invalid_utf8', `${displayPath} is not valid UTF-8 text; it cannot be shown or edited as text`);
  }
  return text.startsWith(BOM) ? { text: text.slice(1), bom: true } : { text, bom: false };
}

/** Text in an encoding, as bytes: the inverse of decodeText for every text it decodes. */
export function encodeIn(text: string, encoding: TextEncoding | undefined): Uint8Array {
  if (encoding === 'utf-16le') return Buffer.from(text, 'utf16le');
  // Buffer's only UTF-16 is little-endian: swap each pair for big-endian.
  if (encoding === 'utf-16be') return Buffer.from(text, 'utf16le').swap16();
  return encodeUtf8(text);
}

/** The bytes of a decoded file: its BOM, if it had one, then its text, in its own encoding. */
export function encodeText(decoded: DecodedText): Uint8Array {
  return encodeIn(decoded.bom ? BOM + decoded.text : decoded.text, decoded.encoding);
}

/** The `encoding` field of a file_change artifact whose original was decoded so: none for UTF-8 (docs/contract.md §3 artifacts). */
export function encodingField(decoded: DecodedText): { readonly encoding?: TextEncoding } {
  return decoded.encoding === undefined ? {} : { encoding: decoded.encoding };
}

/** How an encoding is named to the model. */
export function encodingLabel(encoding: TextEncoding): string {
  return encoding === 'utf-16le' ? 'UTF-16 LE' : encoding === 'utf-16be' ? 'UTF-16 BE' : 'UTF-8';
}

/** Orders strings by their UTF-8 bytes (docs/contract.md §2), which code-unit order gets wrong past U+FFFF. */
export function compareBytes(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8'));
}

const UNITS = [
  [1024 * 1024 * 1024, 'GiB'],
  [1024 * 1024, 'MiB'],
  [1024, 'KiB'],
] as const;

/**
 * A size for a message, always exact: a whole number of GiB, MiB or KiB when
 * it is one (limits usually are), else the byte count. A rounded figure
 * would let 1 MiB + 2 bytes read as "1.0 MiB, above the 1.0 MiB limit".
 */
export function formatBytes(bytes: number): string {
  for (const [size, unit] of UNITS) if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}
