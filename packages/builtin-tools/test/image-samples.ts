import { deflateSync } from 'node:zlib';

/** Test images made here, so no image file is checked in: PNG and GIF are whole, decodable images; JPEG and WebP are real headers over filler data. */

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid RGB PNG; `padding` adds a tEXt comment of that many bytes, to make a large file that is still a valid image. */
export function png(width: number, height: number, options: { padding?: number } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // truecolour
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set([(x * 40) & 0xff, 0x80, 0x20], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const chunks = [pngChunk('IHDR', header)];
  if (options.padding !== undefined) chunks.push(pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(options.padding, 0x61)])));
  chunks.push(pngChunk('IDAT', deflateSync(pixels)), pngChunk('IEND', new Uint8Array()));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]);
}

/**
 * A valid two-colour GIF89a. Its LZW data sends a clear code before every
 * two pixels, so every code stays 3 bits wide (a stream any decoder reads).
 */
export function gif(width: number, height: number): Buffer {
  const codes: number[] = [];
  const pixels = width * height;
  for (let index = 0; index < pixels; index += 1) {
    if (index % 2 === 0) codes.push(4);
    codes.push(index % 3 === 0 ? 1 : 0);
  }
  codes.push(5);
  const packed: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const code of codes) {
    buffer |= code << bits;
    bits += 3;
    while (bits >= 8) {
      packed.push(buffer & 0xff);
      buffer >>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) packed.push(buffer & 0xff);
  const blocks: number[] = [];
  for (let at = 0; at < packed.length; at += 255) {
    const block = packed.slice(at, at + 255);
    blocks.push(block.length, ...block);
  }
  const size = (value: number) => [value & 0xff, value >> 8];
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...size(width),
    ...size(height),
    0x80, // a global colour table of two entries
    0,
    0,
    ...[0xff, 0xff, 0xff, 0, 0, 0],
    0x2c, // image descriptor
    ...size(0),
    ...size(0),
    ...size(width),
    ...size(height),
    0,
    2, // minimum LZW code size
    ...blocks,
    0,
    0x3b,
  ]);
}

const be16 = (value: number) => [value >> 8, value & 0xff];
const le16 = (value: number) => [value & 0xff, value >> 8];
const le24 = (value: number) => [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff];
const le32 = (value: number) => [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, (value >>> 24) & 0xff];

/** A JPEG's marker segments up to its scan: JFIF, an EXIF-sized APP1 holding 0xFF bytes, fill bytes, quantization, then the frame (SOF0, or SOF2 progressive). */
export function jpeg(width: number, height: number, options: { progressive?: boolean } = {}): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, ...be16(body.length + 2), ...body];
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xe1, [...Buffer.from('Exif\0\0', 'latin1'), ...Array.from({ length: 300 }, (_, index) => (index % 7 === 0 ? 0xff : index & 0x7f))]),
    0xff, // fill bytes before the next marker
    0xff,
    ...segment(0xdb, [0, ...Array.from({ length: 64 }, () => 1)]),
    ...segment(options.progressive === true ? 0xc2 : 0xc0, [8, ...be16(height), ...be16(width), 1, 1, 0x11, 0]),
    ...segment(0xda, [1, 1, 0, 0, 0x3f, 0]),
    0x12,
    0x34,
    0xff,
    0xd9,
  ]);
}

function riff(chunks: ReadonlyArray<readonly [string, number[]]>): Buffer {
  const data = chunks.flatMap(([name, body]) => [...Buffer.from(name, 'latin1'), ...le32(body.length), ...body, ...(body.length % 2 === 1 ? [0] : [])]);
  return Buffer.from([...Buffer.from('RIFF', 'latin1'), ...le32(data.length + 4), ...Buffer.from('WEBP', 'latin1'), ...data]);
}

/** WebP in each of its three layouts: lossy (VP8), lossless (VP8L) and extended (VP8X, here before a lossless bitstream). */
export function webp(width: number, height: number, layout: 'lossy' | 'lossless' | 'extended'): Buffer {
  const filler = Array.from({ length: 16 }, (_, index) => index);
  if (layout === 'lossy') return riff([['VP8 ', [0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a, ...le16(width), ...le16(height), ...filler]]]);
  const lossless: [string, number[]] = ['VP8L', [0x2f, ...le32((width - 1) | ((height - 1) << 14)), ...filler]];
  if (layout === 'lossless') return riff([lossless]);
  return riff([['VP8X', [0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)]], lossless]);
}
