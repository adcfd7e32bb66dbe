import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedCapture, DEFAULT_CAPTURE_LIMITS } from './capture.ts';
import { ChunkDecoder } from './chunk-decoder.ts';
import { retainedArrayBufferBytes } from './contract-suite/array-buffer-memory.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const marker = (omitted: number) => `\n… [${omitted} bytes omitted] …\n`;

/** The longest run of whole characters from the start that fits in `bytes`. */
function longestPrefix(text: string, bytes: number): string {
  let kept = '';
  for (const character of text) {
    if (Buffer.byteLength(kept + character) > bytes) break;
    kept += character;
  }
  return kept;
}

/** The longest run of whole characters at the end that fits in `bytes`. */
function longestSuffix(text: string, bytes: number): string {
  const characters = [...text];
  let kept = '';
  for (let index = characters.length - 1; index >= 0; index -= 1) {
    if (Buffer.byteLength((characters[index] ?? '') + kept) > bytes) break;
    kept = (characters[index] ?? '') + kept;
  }
  return kept;
}

/** Feeds the bytes in pieces cut at the given offsets. */
function feed(capture: BoundedCapture, data: Uint8Array, cuts: readonly number[]): void {
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    capture.push(data.subarray(start, Math.max(start, cut)));
    start = Math.max(start, cut);
  }
  capture.push(data.subarray(start));
}

describe('BoundedCapture', () => {
  it('keeps everything that fits, whole, even across the head and tail seam', () => {
    const capture = new BoundedCapture({ headBytes: 3, tailBytes: 4 });
    feed(capture, bytes('aé€'), [1, 2, 4]);
    expect(capture.result()).toEqual({ text: 'aé€', totalBytes: 6, omittedBytes: 0, truncated: false });
  });

  it('keeps the exact head and the last bytes of the tail ring', () => {
    const capture = new BoundedCapture({ headBytes: 4, tailBytes: 5 });
    for (const chunk of ['abc', 'defgh', 'ijklmnopq', 'rs', 't']) capture.push(bytes(chunk));
    expect(capture.result()).toEqual({ text: `abcd${marker(11)}pqrst`, totalBytes: 20, omittedBytes: 11, truncated: true });
  });

  it('moves the cuts to character boundaries and counts the bytes this leaves out', () => {
    // "€" is 3 bytes: 5 head bytes end one byte into the second "€", and the 5th byte from the end is the last byte of a "€".
    const capture = new BoundedCapture({ headBytes: 5, tailBytes: 5 });
    const text = 'a€€x€€€b';
    feed(capture, bytes(text), [2, 5, 9]);
    expect(capture.result()).toEqual({ text: `a€${marker(10)}€b`, totalBytes: 18, omittedBytes: 10, truncated: true });
  });

  it('cuts a three-byte character led by 0xe0 and a four-byte one led by 0xf0 whole, at either end', () => {
    // "ࠀ" is e0 a0 80 and "𐀀" is f0 90 80 80: the head ends two bytes into the first, the tail starts one byte into the last.
    const capture = new BoundedCapture({ headBytes: 4, tailBytes: 3 });
    capture.push(bytes('aaࠀ middle 𐀀'));
    expect(capture.result().text).toBe(`aa${marker(Buffer.byteLength('aaࠀ middle 𐀀') - 2)}`);
  });

  it('uses 32 KiB each for head and tail by default', () => {
    expect(DEFAULT_CAPTURE_LIMITS).toEqual({ headBytes: 32_768, tailBytes: 32_768 });
    const capture = new BoundedCapture();
    capture.push(new Uint8Array(100_000).fill(0x61));
    const result = capture.result();
    expect(result.omittedBytes).toBe(100_000 - 65_536);
    expect(result.text).toBe(`${'a'.repeat(32_768)}${marker(100_000 - 65_536)}${'a'.repeat(32_768)}`);
  });

  it('never splits a character and accounts for every byte, however the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.nat({ max: 400 }), { maxLength: 6 }),
        (text, headBytes, tailBytes, cuts) => {
          const data = bytes(text);
          const capture = new BoundedCapture({ headBytes, tailBytes });
          feed(capture, data, cuts);
          const result = capture.result();
          expect(result.totalBytes).toBe(data.length);
          if (!text.includes('\uFFFD')) expect(result.text.includes('\uFFFD')).toBe(false);
          if (!result.truncated) {
            expect(data.length).toBeLessThanOrEqual(headBytes + tailBytes);
            expect(result).toEqual({ text, totalBytes: data.length, omittedBytes: 0, truncated: false });
            return;
          }
          const seam = marker(result.omittedBytes);
          const at = result.text.indexOf(seam);
          const head = result.text.slice(0, at);
          const tail = result.text.slice(at + seam.length);
          expect(text.startsWith(head)).toBe(true);
          expect(text.endsWith(tail)).toBe(true);
          expect(Buffer.byteLength(head)).toBeLessThanOrEqual(headBytes);
          expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(tailBytes);
          // The cut keeps every whole character that fits, not merely one that is close.
          expect(head).toBe(longestPrefix(text, headBytes));
          expect(tail).toBe(longestSuffix(text, tailBytes));
          expect(result.omittedBytes).toBe(data.length - Buffer.byteLength(head) - Buffer.byteLength(tail));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('holds no pushed chunk: 64 MiB in fresh chunks leaves every chunk collectable and no more buffer memory than its caps', async () => {
    const chunkBytes = 64 * 1024;
    const capture = new BoundedCapture({ headBytes: 4096, tailBytes: 4096 });
    const before = await retainedArrayBufferBytes();
    const watched: WeakRef<ArrayBufferLike>[] = [];
    for (let index = 0; index < 1024; index += 1) {
      const chunk = new Uint8Array(chunkBytes).fill(0x79);
      capture.push(chunk);
      if (index % 64 === 0) watched.push(new WeakRef(chunk.buffer));
    }
    const after = await retainedArrayBufferBytes();
    expect(capture.totalBytes).toBe(1024 * chunkBytes);
    // A capture that kept the chunks, or copies of them, would hold 64 MiB here.
    expect(watched.filter((reference) => reference.deref() !== undefined)).toHaveLength(0);
    expect(after - before).toBeLessThan(4 * 1024 * 1024);
    expect(capture.result().omittedBytes).toBe(1024 * chunkBytes - 8192);
  });

  it('rejects limits that are not byte counts', () => {
    for (const limits of [{ headBytes: -1 }, { headBytes: 1.5 }, { tailBytes: -1 }, { tailBytes: 1.5 }, { headBytes: Number.NaN }]) {
      expect(() => new BoundedCapture(limits)).toThrow(new RangeError('capture limits must be non-negative integers'));
    }
  });
});

describe('ChunkDecoder', () => {
  it('holds the bytes of a split character until it is complete', () => {
    const decoder = new ChunkDecoder();
    const data = bytes('a€𝄞');
    const pieces = Array.from(data, (byte) => decoder.write(Uint8Array.of(byte)));
    expect(pieces).toEqual(['a', '', '', '€', '', '', '', '𝄞']);
    expect(decoder.end()).toBe('');
  });

  it('ends a stream cut inside a character with one replacement character', () => {
    const decoder = new ChunkDecoder();
    expect(decoder.write(Uint8Array.of(0x61, 0xe2, 0x82))).toBe('a');
    expect(decoder.end()).toBe('\uFFFD');
  });
});
