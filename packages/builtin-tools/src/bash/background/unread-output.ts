import { stripVTControlCharacters } from 'node:util';

/** The caps of what is kept of one stream between two reads. */
export interface UnreadLimits {
  /** Bytes kept from the start of the unread output. */
  readonly headBytes: number;
  /** Bytes kept from its end; what falls between head and tail is dropped and counted. */
  readonly tailBytes: number;
}

/** What one read hands over: the text, and how many bytes were dropped from it. */
export interface UnreadText {
  readonly text: string;
  readonly bytes: number;
  readonly droppedBytes: number;
}

const size = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * The output of a background command that nobody has read yet, in bounded
 * memory however much it prints and however rarely it is read: the first
 * `headBytes` and the last `tailBytes`, with an exact count of the bytes
 * dropped between them. Chunks arrive decoded (never split inside a
 * character); a cut falls on a character boundary.
 */
export class UnreadOutput {
  readonly #limits: UnreadLimits;
  #head: string[] = [];
  #headBytes = 0;
  #tail: string[] = [];
  #tailBytes = 0;
  #droppedBytes = 0;

  constructor(limits: UnreadLimits) {
    this.#limits = limits;
  }

  get empty(): boolean {
    return this.#headBytes === 0 && this.#tailBytes === 0 && this.#droppedBytes === 0;
  }

  push(chunk: string): void {
    let rest = chunk;
    if (this.#headBytes < this.#limits.headBytes) {
      const room = this.#limits.headBytes - this.#headBytes;
      const taken = cutBytes(rest, room);
      this.#head.push(taken);
      this.#headBytes += size(taken);
      rest = rest.slice(taken.length);
    }
    if (rest === '') return;
    this.#tail.push(rest);
    this.#tailBytes += size(rest);
    this.#trimTail();
  }

  /** Everything unread, and empties the buffer; a terminal's control sequences are stripped when `terminal` is set. */
  take(options: { readonly terminal: boolean }): UnreadText {
    const head = this.#head.join('');
    const tail = this.#tail.join('');
    const droppedBytes = this.#droppedBytes;
    const bytes = this.#headBytes + this.#tailBytes + droppedBytes;
    this.#head = [];
    this.#tail = [];
    this.#headBytes = 0;
    this.#tailBytes = 0;
    this.#droppedBytes = 0;
    const joined = droppedBytes === 0 ? head + tail : `${head}\n… [${droppedBytes} bytes dropped] …\n${tail}`;
    return { text: options.terminal ? terminalText(joined) : joined, bytes, droppedBytes };
  }

  #trimTail(): void {
    while (this.#tailBytes > this.#limits.tailBytes) {
      const first = this.#tail[0] ?? '';
      const excess = this.#tailBytes - this.#limits.tailBytes;
      const firstBytes = size(first);
      if (firstBytes <= excess) {
        this.#tail.shift();
        this.#tailBytes -= firstBytes;
        this.#droppedBytes += firstBytes;
        continue;
      }
      // Drop at least `excess` bytes of the first chunk, up to the next character boundary.
      const dropped = cutBytes(first, excess, { atLeast: true });
      this.#tail[0] = first.slice(dropped.length);
      const droppedBytes = size(dropped);
      this.#tailBytes -= droppedBytes;
      this.#droppedBytes += droppedBytes;
    }
  }
}

/** The longest start of `text` within `bytes` (or, with `atLeast`, the shortest reaching it), on a character boundary. */
function cutBytes(text: string, bytes: number, options: { readonly atLeast?: boolean } = {}): string {
  let used = 0;
  let index = 0;
  for (const char of text) {
    const next = used + size(char);
    if (next > bytes && !(options.atLeast === true && used < bytes)) break;
    used = next;
    index += char.length;
    if (options.atLeast === true && used >= bytes) break;
  }
  return text.slice(0, index);
}

/** A terminal's text as a reader wants it: control sequences stripped, line ends as `\n`. */
export function terminalText(text: string): string {
  return stripVTControlCharacters(text).replace(/\r+\n/g, '\n');
}
