import type { ProcessExit } from '@openwork/process-backend';
import { UnreadOutput, type UnreadLimits, type UnreadText } from './unread-output.ts';

/** Where a background command is: running, or how it ended (docs/contract.md §3.3). */
export type BackgroundStatus = 'running' | 'exited' | 'killed' | 'timed_out' | 'outcome_unknown';

/** What one read of a background command hands over. */
export interface BackgroundRead {
  readonly backgroundId: string;
  readonly status: BackgroundStatus;
  readonly stdout: UnreadText;
  readonly stderr: UnreadText;
  /** Set once the command has ended. */
  readonly exit?: ProcessExit;
}

/**
 * One command running in the background: its unread output per stream, how
 * it ended once it has, and the means to end it or type into its terminal.
 */
export class BackgroundCommand {
  readonly id: string;
  readonly command: string;
  readonly terminal: boolean;
  readonly startedAt = Date.now();
  readonly stdout: UnreadOutput;
  readonly stderr: UnreadOutput;
  readonly #stop: AbortController;
  #exit: ProcessExit | undefined;
  #failure: unknown;
  #write: ((data: string) => boolean) | undefined;
  #changed: (() => void)[] = [];
  readonly done: Promise<void>;

  constructor(fields: { readonly id: string; readonly command: string; readonly terminal: boolean; readonly limits: UnreadLimits; readonly stop: AbortController }) {
    this.id = fields.id;
    this.command = fields.command;
    this.terminal = fields.terminal;
    this.stdout = new UnreadOutput(fields.limits);
    this.stderr = new UnreadOutput(fields.limits);
    this.#stop = fields.stop;
    let settle: () => void = () => {};
    this.done = new Promise((resolve) => (settle = resolve));
    this.#settle = settle;
  }

  readonly #settle: () => void;

  get ended(): boolean {
    return this.#exit !== undefined || this.#failure !== undefined;
  }

  /** The run's end: its exit, or the error it failed with (its start went wrong). */
  finish(outcome: { readonly exit: ProcessExit } | { readonly failure: unknown }): void {
    if ('exit' in outcome) this.#exit = outcome.exit;
    else this.#failure = outcome.failure;
    this.#write = undefined;
    this.#notify();
    this.#settle();
  }

  get failure(): unknown {
    return this.#failure;
  }

  output(stream: 'stdout' | 'stderr', chunk: string): void {
    this[stream].push(chunk);
    this.#notify();
  }

  attachInput(write: (data: string) => boolean): void {
    this.#write = write;
  }

  /** Types into the command's terminal; false when it has none or has ended. */
  write(data: string): boolean {
    return this.#write?.(data) ?? false;
  }

  /** Ends the command and everything it started; the status becomes `killed`. */
  kill(): void {
    this.#stop.abort();
  }

  get status(): BackgroundStatus {
    const exit = this.#exit;
    if (exit === undefined) return this.#failure === undefined ? 'running' : 'exited';
    if (exit.status === 'cancelled') return 'killed';
    return exit.status;
  }

  /** Resolves at the next output or the end, or when `signal` aborts. */
  changed(signal: AbortSignal): Promise<void> {
    if (this.ended || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      this.#changed.push(done);
    });
  }

  /** The output since the previous read, and the status. */
  read(): BackgroundRead {
    const options = { terminal: this.terminal };
    return {
      backgroundId: this.id,
      status: this.status,
      stdout: this.stdout.take(options),
      stderr: this.stderr.take(options),
      ...(this.#exit === undefined ? {} : { exit: this.#exit }),
    };
  }

  #notify(): void {
    const waiting = this.#changed;
    this.#changed = [];
    for (const resolve of waiting) resolve();
  }
}
