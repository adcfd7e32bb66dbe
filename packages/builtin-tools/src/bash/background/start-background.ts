import { deriveSignal, ToolError } from '@openwork/tool-contract';
import type { ProcessLimits } from '@openwork/process-backend';
import type { BuiltinSession } from '../../session.ts';
import type { BackgroundCommand } from './background-command.ts';

/** How long the start waits for the command's first output (or its end) before it returns with what there is. */
const FIRST_MOMENTS_MS = 250;

export interface BackgroundStart {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly limits: ProcessLimits;
  /** Absent: the command runs until bash_kill or the session's end. */
  readonly timeoutMs?: number;
  readonly terminal: boolean;
  /** The starting call's signal: a cancel before the start returns ends the command. */
  readonly signal: AbortSignal;
}

/**
 * Starts a command that outlives the call (docs/contract.md §2.5): it runs
 * in the session's backend (the pty backend for `tty`), contained as every
 * command is, its output kept unread in bounded buffers, until it ends, is
 * killed, times out or the session ends.
 */
export async function startBackground(session: BuiltinSession, start: BackgroundStart): Promise<BackgroundCommand> {
  const background = session.background;
  if (background === undefined) {
    throw new ToolError('invalid_input', 'runInBackground needs a session that outlives the call (the MCP server or a library session); a one-shot call ends with its command: leave runInBackground out');
  }
  const backend = start.terminal ? await background.terminal() : session.processes;
  const stop = new AbortController();
  const entry = background.add({ command: start.command, terminal: start.terminal, stop });
  const own = deriveSignal(stop.signal, start.timeoutMs === undefined ? undefined : Date.now() + start.timeoutMs);
  const run = backend.run({
    argv: ['bash', '--noprofile', '--norc', '-c', start.command],
    cwd: start.cwd,
    limits: start.limits,
    env: start.env,
    scratchDirectory: true,
    signal: own.signal,
    // Everything goes to the unread buffers; the end's own capture would only repeat it.
    capture: { headBytes: 0, tailBytes: 0 },
    onStdout: (chunk) => entry.output('stdout', chunk),
    onStderr: (chunk) => entry.output('stderr', chunk),
    ...(start.terminal ? { terminalInput: (write: (data: string) => boolean) => entry.attachInput(write) } : {}),
  });
  let returned = false;
  void run.then(
    (exit) => entry.finish({ exit }),
    (failure: unknown) => {
      if (returned) entry.output('stderr', `openwork-tools: the command could not run: ${failure instanceof Error ? failure.message : String(failure)}\n`);
      entry.finish({ failure });
    },
  ).finally(() => own.release());
  const moments = deriveSignal(start.signal, Date.now() + FIRST_MOMENTS_MS);
  try {
    await entry.changed(moments.signal);
  } finally {
    moments.release();
  }
  if (entry.failure !== undefined || start.signal.aborted) {
    entry.kill();
    await entry.done;
    background.collect(entry.id);
    const failure = entry.failure;
    if (failure !== undefined) throw failure instanceof Error ? failure : new Error('the command could not start');
    throw new ToolError('cancelled', 'the call was cancelled while the command started; it was ended');
  }
  returned = true;
  return entry;
}
