import { createHash } from 'node:crypto';
import { ToolError } from '@openwork/tool-contract';

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

/** A text file's content and whether it started with a BOM, which is not content. */
export interface DecodedText {
  readonly text: string;
  readonly bom: boolean;
}

/** NUL bytes mean binary; bytes that are not UTF-8 are `invalid_utf8`. */
export function decodeText(bytes: Uint8Array, displayPath: string): DecodedText {
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

export function encodeText(decoded: DecodedText): Uint8Array {
  return encodeUtf8(decoded.bom ? BOM + decoded.text : decoded.text);
}

/** Orders strings by their UTF-8 bytes (CONTRACT.md §2), which code-unit order gets wrong past U+FFFF. */
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
