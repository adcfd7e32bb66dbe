import { ToolError } from '@openwork/tool-contract';
import type { ProcessBackend } from '@openwork/process-backend';
import { BackgroundCommand } from './background-command.ts';
import type { UnreadLimits } from './unread-output.ts';

export interface BackgroundOptions {
  /** Commands held at once, running or ended but not yet collected; default 8. */
  readonly maxCommands?: number;
  /** Unread bytes kept from the start of each stream; default 512 KiB. */
  readonly headBytes?: number;
  /** Unread bytes kept from the end of each stream; default 512 KiB. */
  readonly tailBytes?: number;
  /**
   * The pty backend `tty` commands run in; absent, or unavailable, `tty`
   * is refused. Disposed with the rest; called at the first `tty` command.
   */
  readonly terminal?: () => Promise<ProcessBackend>;
}

export const DEFAULT_BACKGROUND_OPTIONS = Object.freeze({ maxCommands: 8, headBytes: 512 * 1024, tailBytes: 512 * 1024 });

/**
 * The background commands of one session (docs/contract.md §2.5): started by
 * bash with `runInBackground`, read with bash_output, ended with bash_kill
 * or when the session ends (`dispose`), each with everything it started.
 */
export class BackgroundCommands {
  readonly maxCommands: number;
  readonly limits: UnreadLimits;
  readonly #terminal: (() => Promise<ProcessBackend>) | undefined;
  readonly #commands = new Map<string, BackgroundCommand>();
  #next = 1;
  #disposed = false;

  constructor(options: BackgroundOptions = {}) {
    this.maxCommands = options.maxCommands ?? DEFAULT_BACKGROUND_OPTIONS.maxCommands;
    this.limits = { headBytes: options.headBytes ?? DEFAULT_BACKGROUND_OPTIONS.headBytes, tailBytes: options.tailBytes ?? DEFAULT_BACKGROUND_OPTIONS.tailBytes };
    this.#terminal = options.terminal;
  }

  /** The pty backend for a `tty` command, or a clear refusal where there is none. */
  async terminal(): Promise<ProcessBackend> {
    if (this.#terminal === undefined) throw new ToolError('invalid_input', 'tty is not offered here: this session has no terminal backend; leave tty out');
    const backend = await this.#terminal();
    const availability = await backend.availability();
    if (!availability.available) {
      throw new ToolError('spawn_failed', `tty needs node-pty, an optional dependency that is not installed here or not built for this Node; leave tty out (${availability.reason})`);
    }
    return backend;
  }

  /** A new entry, or a refusal when the session holds as many as it may. */
  add(fields: { readonly command: string; readonly terminal: boolean; readonly stop: AbortController }): BackgroundCommand {
    if (this.#disposed) throw new ToolError('invalid_input', 'the session is ending; no background command can start');
    if (this.#commands.size >= this.maxCommands) {
      throw new ToolError(
        'invalid_input',
        `this session already holds ${this.#commands.size} background commands, the most it may (${this.describeIds()}); end one with bash_kill, or read an ended one to its end with bash_output, then start this again`,
      );
    }
    const command = new BackgroundCommand({ id: `bg-${this.#next++}`, ...fields, limits: this.limits });
    this.#commands.set(command.id, command);
    return command;
  }

  /** The command of `id`, or an error naming the ids there are. */
  get(id: string): BackgroundCommand {
    const command = this.#commands.get(id);
    if (command === undefined) {
      const known = this.#commands.size === 0 ? 'this session holds no background command' : `the ids there are: ${this.describeIds()}`;
      throw new ToolError('not_found', `no background command ${JSON.stringify(id)} (unknown, or already collected); ${known}`);
    }
    return command;
  }

  /** Forgets an ended command whose end has been reported. */
  collect(id: string): void {
    this.#commands.delete(id);
  }

  describeIds(): string {
    return [...this.#commands.values()].map((command) => `${command.id} (${command.status})`).join(', ');
  }

  /** Ends every command and waits for each to be gone (docs/design.md §5). */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const all = [...this.#commands.values()];
    for (const command of all) command.kill();
    await Promise.allSettled(all.map((command) => command.done));
    this.#commands.clear();
  }
}
