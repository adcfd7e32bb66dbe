import { BoundedCapture } from '../capture.ts';
import { ChunkDecoder } from '../chunk-decoder.ts';
import type { CaptureLimits, CapturedOutput } from '../process-backend.ts';

/** One stream of a running command: bounded capture plus decoded chunks for the caller's callback. */
export class OutputSink {
  readonly #capture: BoundedCapture;
  readonly #decoder = new ChunkDecoder();
  readonly #listener: ((chunk: string) => void) | undefined;

  constructor(limits: Partial<CaptureLimits> | undefined, listener: ((chunk: string) => void) | undefined) {
    this.#capture = new BoundedCapture(limits);
    this.#listener = listener;
  }

  push(chunk: Uint8Array): void {
    this.#capture.push(chunk);
    if (this.#listener) this.#deliver(this.#decoder.write(chunk));
  }

  /** Flushes a trailing partial character to the callback and returns what was kept. */
  finish(): CapturedOutput {
    if (this.#listener) this.#deliver(this.#decoder.end());
    return this.#capture.result();
  }

  #deliver(text: string): void {
    if (text === '' || !this.#listener) return;
    try {
      this.#listener(text);
    } catch {
      // A failing progress callback must not stop the drain (the pipe would fill and block the child).
    }
  }
}
