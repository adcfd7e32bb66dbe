import { StringDecoder } from 'node:string_decoder';

/**
 * Turns a byte stream into text chunks that never end inside a UTF-8
 * character: the bytes of a split character wait for the rest (SpawnRequest
 * `onStdout` / `onStderr`).
 */
export class ChunkDecoder {
  readonly #decoder = new StringDecoder('utf8');

  /** The text completed by this chunk; empty while a character is still partial. */
  write(chunk: Uint8Array): string {
    return this.#decoder.write(chunk);
  }

  /** What is left at the end of the stream (a partial character becomes U+FFFD). */
  end(): string {
    return this.#decoder.end();
  }
}
