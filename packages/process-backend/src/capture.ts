import type { CaptureLimits, CapturedOutput } from './process-backend.ts';

/** The caps of each stream when the request gives none (docs/contract.md §3 bash). */
export const DEFAULT_CAPTURE_LIMITS: CaptureLimits = { headBytes: 32_768, tailBytes: 32_768 };

const decoder = new TextDecoder('utf-8');

/**
 * One output stream kept in fixed memory: the first `headBytes` and a ring of
 * the last `tailBytes`, with an exact byte count. docs/design.md §9 bash: output is
 * drained continuously but only head and tail are kept, so `yes` cannot
 * exhaust memory.
 */
export class BoundedCapture {
  readonly #head: Uint8Array;
  readonly #tail: Uint8Array;
  #headLength = 0;
  /** Where the next tail byte goes; the ring is full once `#tailLength` reaches its size. */
  #tailWrite = 0;
  #tailLength = 0;
  #totalBytes = 0;

  constructor(limits: Partial<CaptureLimits> = {}) {
    const headBytes = limits.headBytes ?? DEFAULT_CAPTURE_LIMITS.headBytes;
    const tailBytes = limits.tailBytes ?? DEFAULT_CAPTURE_LIMITS.tailBytes;
    if (!Number.isSafeInteger(headBytes) || headBytes < 0 || !Number.isSafeInteger(tailBytes) || tailBytes < 0) {
      throw new RangeError('capture limits must be non-negative integers');
    }
    this.#head = new Uint8Array(headBytes);
    this.#tail = new Uint8Array(tailBytes);
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  push(chunk: Uint8Array): void {
    this.#totalBytes += chunk.length;
    let rest = chunk;
    if (this.#headLength < this.#head.length) {
      const taken = Math.min(this.#head.length - this.#headLength, rest.length);
      this.#head.set(rest.subarray(0, taken), this.#headLength);
      this.#headLength += taken;
      rest = rest.subarray(taken);
    }
    if (rest.length > 0) this.#pushTail(rest);
  }

  /** The kept text; when bytes were left out, head and tail are cut on character boundaries. */
  result(): CapturedOutput {
    const head = this.#head.subarray(0, this.#headLength);
    const tail = this.#tailBytes();
    const kept = head.length + tail.length;
    if (kept === this.#totalBytes) {
      return { text: decoder.decode(concat(head, tail)), totalBytes: this.#totalBytes, omittedBytes: 0, truncated: false };
    }
    const shownHead = head.subarray(0, completeEnd(head));
    const shownTail = tail.subarray(characterStart(tail));
    const omittedBytes = this.#totalBytes - shownHead.length - shownTail.length;
    const text = `${decoder.decode(shownHead)}\n… [${omittedBytes} bytes omitted] …\n${decoder.decode(shownTail)}`;
    return { text, totalBytes: this.#totalBytes, omittedBytes, truncated: true };
  }

  #pushTail(bytes: Uint8Array): void {
    const size = this.#tail.length;
    if (size === 0) return;
    const source = bytes.length > size ? bytes.subarray(bytes.length - size) : bytes;
    const first = Math.min(size - this.#tailWrite, source.length);
    this.#tail.set(source.subarray(0, first), this.#tailWrite);
    this.#tail.set(source.subarray(first), 0);
    this.#tailWrite = (this.#tailWrite + source.length) % size;
    this.#tailLength = Math.min(size, this.#tailLength + source.length);
  }

  /** The tail in stream order (a copy: the ring keeps its memory). */
  #tailBytes(): Uint8Array {
    if (this.#tailLength < this.#tail.length) return this.#tail.subarray(0, this.#tailLength);
    return concat(this.#tail.subarray(this.#tailWrite), this.#tail.subarray(0, this.#tailWrite));
  }
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  if (second.length === 0) return first;
  if (first.length === 0) return second;
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first, 0);
  joined.set(second, first.length);
  return joined;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** The length of the sequence a lead byte starts; 1 for ASCII and for bytes that start nothing. */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** Where the head may end without splitting a character: an incomplete last sequence is cut off. */
export function completeEnd(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(4, end); back += 1) {
    const byte = bytes[end - back] ?? 0;
    if (isContinuation(byte)) continue;
    return back < sequenceLength(byte) ? end - back : end;
  }
  return end;
}

/** Where the tail may start without splitting a character: continuation bytes of a cut sequence are skipped. */
export function characterStart(bytes: Uint8Array): number {
  let start = 0;
  while (start < Math.min(3, bytes.length) && isContinuation(bytes[start] ?? 0)) start += 1;
  return start;
}
