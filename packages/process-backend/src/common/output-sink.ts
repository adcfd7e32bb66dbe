import { BoundedCapture } from '../capture.ts';
import { ChunkDecoder } from '../chunk-decoder.ts';
import type { CaptureLimits, CapturedOutput } from '../process-backend.ts';

/** How much of the start of a stream is kept apart from the capture, whatever its limits. */
const START_BYTES = 512;

/** One stream of a running command: bounded capture plus decoded chunks for the caller's callback. */
export class OutputSink {
  readonly #capture: BoundedCapture;
  #start = Buffer.alloc(0);
  readonly #decoder = new ChunkDecoder();
  readonly #listener: ((chunk: string) => void) | undefined;

  constructor(limits: Partial<CaptureLimits> | undefined, listener: ((chunk: string) => void) | undefined) {
    this.#capture = new BoundedCapture(limits);
    this.#listener = listener;
  }

  push(chunk: Uint8Array): void {
    this.#capture.push(chunk);
    if (this.#start.length < START_BYTES) this.#start = Buffer.concat([this.#start, chunk]).subarray(0, START_BYTES);
    if (this.#listener) this.#deliver(this.#decoder.write(chunk));
  }

  /** The first bytes of the stream as text, where a cgroup shim reports that it could not place the command. */
  start(): string {
    return this.#start.toString('utf8');
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
