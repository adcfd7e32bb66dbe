import { describe, expect, it } from 'vitest';
import { sniffImage } from '../src/read/image.ts';
import { gif, jpeg, png, webp } from './image-samples.ts';

describe('image headers', () => {
  it('reads the size of each format from its header', () => {
    expect(sniffImage(png(1, 65535))).toEqual({ kind: 'image', header: { mediaType: 'image/png', width: 1, height: 65535 } });
    expect(sniffImage(gif(300, 2))).toEqual({ kind: 'image', header: { mediaType: 'image/gif', width: 300, height: 2 } });
    expect(sniffImage(jpeg(4000, 3000))).toEqual({ kind: 'image', header: { mediaType: 'image/jpeg', width: 4000, height: 3000 } });
    expect(sniffImage(webp(16383, 16383, 'lossy'))).toEqual({ kind: 'image', header: { mediaType: 'image/webp', width: 16383, height: 16383 } });
    expect(sniffImage(webp(16384, 1, 'lossless'))).toEqual({ kind: 'image', header: { mediaType: 'image/webp', width: 16384, height: 1 } });
    expect(sniffImage(webp(1 << 24, 1 << 24, 'extended'))).toEqual({ kind: 'image', header: { mediaType: 'image/webp', width: 1 << 24, height: 1 << 24 } });
  });

  it('is by magic bytes only: other formats and text are not images', () => {
    for (const bytes of [Buffer.from('BM\x8a\x04'), Buffer.from('II*\0'), Buffer.from('%PDF-1.7'), Buffer.from('GIF90a'), Buffer.from('RIFF\0\0\0\0WAVE'), Buffer.from('')]) {
      expect(sniffImage(bytes)).toEqual({ kind: 'none' });
    }
  });

  it('a signature with a header that cannot be read is damaged, never an image', () => {
    const cases: Buffer[] = [
      png(2, 2).subarray(0, 16),
      Buffer.concat([png(2, 2).subarray(0, 12), Buffer.from('JUNK'), Buffer.alloc(8)]),
      png(0, 5),
      gif(1, 1).subarray(0, 8),
      // A JPEG that reaches its scan (or its end) with no frame header.
      Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 1, 1, 0, 0, 0x3f, 0, 0xff, 0xd9]),
      Buffer.from([0xff, 0xd8, 0xff, 0xd9, 0, 0]),
      // A segment that claims to run past the end.
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff, 0, 0]),
      jpeg(10, 10).subarray(0, 40),
      // A lossy WebP without the key frame's start code.
      Buffer.from(webp(8, 8, 'lossy')).fill(0, 23, 26),
      Buffer.from(webp(8, 8, 'lossless')).fill(0, 20, 21),
      webp(8, 8, 'lossy').subarray(0, 20),
    ];
    for (const [index, bytes] of cases.entries()) expect(sniffImage(bytes).kind, `case ${index}`).toBe('damaged');
  });
});
