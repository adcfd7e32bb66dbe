import { StringDecoder } from 'node:string_decoder';
import type { CaptureLimits, CapturedOutput } from './process-backend.ts';

export const DEFAULT_CAPTURE_LIMITS: CaptureLimits = Object.freeze({ headBytes: 32 * 1024, tailBytes: 32 * 1024 });

/** A continuation byte of UTF-8 (10xxxxxx). */
function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/**
 * Keeps the first and last bytes of a stream in fixed memory (seed §9 bash:
 * drain everything, keep a bounded head and tail), counting every byte.
 */
export class BoundedCapture {
  readonly #head: Buffer;
  readonly #tail: Buffer;
  #headUsed = 0;
  #tailStart = 0;
  #tailUsed = 0;
  #total = 0;

  constructor(limits: Partial<CaptureLimits> = {}) {
    this.#head = Buffer.alloc(limits.headBytes ?? DEFAULT_CAPTURE_LIMITS.headBytes);
    this.#tail = Buffer.alloc(limits.tailBytes ?? DEFAULT_CAPTURE_LIMITS.tailBytes);
  }

  write(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headUsed < this.#head.length) {
      const taken = Math.min(rest.length, this.#head.length - this.#headUsed);
      rest.copy(this.#head, this.#headUsed, 0, taken);
      this.#headUsed += taken;
      rest = rest.subarray(taken);
    }
    const size = this.#tail.length;
    if (rest.length === 0 || size === 0) return;
    if (rest.length >= size) rest = rest.subarray(rest.length - size);
    for (let offset = 0; offset < rest.length; ) {
      const end = (this.#tailStart + this.#tailUsed) % size;
      const room = Math.min(rest.length - offset, size - end);
      rest.copy(this.#tail, end, offset, offset + room);
      offset += room;
      const overflow = Math.max(0, this.#tailUsed + room - size);
      this.#tailUsed = Math.min(size, this.#tailUsed + room);
      this.#tailStart = (this.#tailStart + overflow) % size;
    }
  }

  result(): CapturedOutput {
    const tail = Buffer.alloc(this.#tailUsed);
    for (let index = 0; index < this.#tailUsed; index += 1) tail[index] = this.#tail[(this.#tailStart + index) % this.#tail.length] ?? 0;
    let head = this.#head.subarray(0, this.#headUsed);
    if (this.#total <= this.#headUsed + tail.length) {
      // Nothing omitted: head and the tail's unseen-by-head part join exactly.
      const overlapFree = tail.subarray(tail.length - (this.#total - this.#headUsed));
      const text = Buffer.concat([head, overlapFree]).toString('utf8');
      return { text, totalBytes: this.#total, omittedBytes: 0, truncated: false };
    }
    // Cut the head back and move the tail forward to whole characters.
    head = trimIncomplete(head);
    let tailStart = 0;
    while (tailStart < tail.length && isContinuation(tail[tailStart])) tailStart += 1;
    const shownTail = tail.subarray(tailStart);
    const omitted = this.#total - head.length - shownTail.length;
    const text = `${head.toString('utf8')}\n… [${omitted} bytes omitted] …\n${shownTail.toString('utf8')}`;
    return { text, totalBytes: this.#total, omittedBytes: omitted, truncated: true };
  }
}

/** Drops a trailing, incomplete UTF-8 sequence. */
function trimIncomplete(bytes: Buffer): Buffer {
  let start = bytes.length - 1;
  while (start >= 0 && isContinuation(bytes[start])) start -= 1;
  if (start < 0) return bytes;
  const lead = bytes[start] ?? 0;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < length ? bytes.subarray(0, start) : bytes;
}

/** Decodes progress chunks so a character split across writes arrives whole. */
export class ChunkDecoder {
  readonly #decoder = new StringDecoder('utf8');

  write(chunk: Buffer): string {
    return this.#decoder.write(chunk);
  }

  end(): string {
    return this.#decoder.end();
  }
}
