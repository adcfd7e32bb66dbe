import type { ImageMediaType, ImagePart } from '@openwork/tool-contract';
import { DEFAULT_LIMITS, type ToolLimits } from '../session.ts';

/** What an image's header says: its type and its size in pixels. */
export interface ImageHeader {
  readonly mediaType: ImageMediaType;
  readonly width: number;
  readonly height: number;
}

/** The result of looking at a file's first bytes: not an image, an image, or an image signature with a header that cannot be read. */
export type ImageSniff = { readonly kind: 'none' } | { readonly kind: 'image'; readonly header: ImageHeader } | { readonly kind: 'damaged'; readonly mediaType: ImageMediaType };

const NONE: ImageSniff = { kind: 'none' };

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, index) => bytes[at + index] === byte);
}

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

/** The type an image signature at the start announces, by magic bytes only (never the file name). */
export function imageSignature(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  return undefined;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** PNG: the first chunk is IHDR, width and height big-endian at 16 and 20. */
function pngSize(bytes: Uint8Array): [number, number] | undefined {
  if (bytes.length < 24 || !startsWith(bytes, ascii('IHDR'), 12)) return undefined;
  return [view(bytes).getUint32(16), view(bytes).getUint32(20)];
}

/** GIF: the logical screen's width and height, little-endian at 6 and 8. */
function gifSize(bytes: Uint8Array): [number, number] | undefined {
  if (bytes.length < 10) return undefined;
  return [view(bytes).getUint16(6, true), view(bytes).getUint16(8, true)];
}

/** JPEG markers without a length: TEM, RST0–7, SOI, EOI. */
const STANDALONE = new Set([0x01, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9]);
/** Start-of-frame markers (all but DHT C4, JPG C8 and DAC CC in C0–CF): they carry the frame's size. */
const START_OF_FRAME = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** JPEG: walks the marker segments to the first start of frame, whose height and width follow its length and precision. */
function jpegSize(bytes: Uint8Array): [number, number] | undefined {
  const data = view(bytes);
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    // Fill bytes: any number of 0xFF may come before a marker.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (STANDALONE.has(marker)) {
      if (marker === 0xd9) return undefined;
      at += 2;
      continue;
    }
    // Start of scan: entropy-coded data follows, and no frame header came before it.
    if (marker === 0xda) return undefined;
    const length = data.getUint16(at + 2);
    if (length < 2) return undefined;
    if (START_OF_FRAME.has(marker)) {
      if (at + 9 > bytes.length) return undefined;
      return [data.getUint16(at + 7), data.getUint16(at + 5)];
    }
    at += 2 + length;
  }
  return undefined;
}

const u24 = (bytes: Uint8Array, at: number) => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);

/** WebP: the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended), each with the size in its own layout. */
function webpSize(bytes: Uint8Array): [number, number] | undefined {
  if (bytes.length < 30) return undefined;
  const data = view(bytes);
  if (startsWith(bytes, ascii('VP8 '), 12)) {
    // The key frame's start code, then 14-bit width and height (the top two bits are scaling).
    if (!startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) return undefined;
    return [data.getUint16(26, true) & 0x3fff, data.getUint16(28, true) & 0x3fff];
  }
  if (startsWith(bytes, ascii('VP8L'), 12)) {
    if (bytes[20] !== 0x2f) return undefined;
    const bits = data.getUint32(21, true);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (startsWith(bytes, ascii('VP8X'), 12)) return [u24(bytes, 24) + 1, u24(bytes, 27) + 1];
  return undefined;
}

const SIZE_OF: Record<ImageMediaType, (bytes: Uint8Array) => [number, number] | undefined> = {
  'image/png': pngSize,
  'image/jpeg': jpegSize,
  'image/gif': gifSize,
  'image/webp': webpSize,
};

/**
 * Whether bytes are a PNG, JPEG, GIF or WebP image, by magic bytes, and its
 * size in pixels from its header. A signature whose header cannot be read
 * is `damaged`: such an image is never sent, since a model API may refuse
 * the whole request over it.
 */
export function sniffImage(bytes: Uint8Array): ImageSniff {
  const mediaType = imageSignature(bytes);
  if (mediaType === undefined) return NONE;
  const size = SIZE_OF[mediaType](bytes);
  if (size === undefined || size[0] === 0 || size[1] === 0) return { kind: 'damaged', mediaType };
  return { kind: 'image', header: { mediaType, width: size[0], height: size[1] } };
}

/** The short name of an image type for the model text: PNG, JPEG, GIF, WebP. */
export function imageTypeName(mediaType: ImageMediaType): string {
  return { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' }[mediaType];
}

/** An image part for the model: the bytes in standard padded base64, as the contract's ImagePart says. */
export function imagePart(bytes: Uint8Array, mediaType: ImageMediaType): ImagePart {
  return { type: 'image', mediaType, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}

/** The image limit of one read (ToolLimits.maxImageBytes), for a product that set its own limits without it. */
export function maxImageBytes(limits: ToolLimits): number {
  return limits.maxImageBytes ?? DEFAULT_LIMITS.maxImageBytes ?? (5 * 1024 * 1024 * 3) / 4;
}
