import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import { constants } from 'node:os';
import type { SpawnRequest } from '../process-backend.ts';
import { groupFormed } from '../common/group-liveness.ts';
import { spawnFailed } from '../common/spawn-failed.ts';
import type { LeaderExit, OutputSinks, StartedChild } from '../common/started-child.ts';
import type { NodePtyModule } from './load-node-pty.ts';
import { preflight } from '../common/preflight.ts';

/** End of input, typed once at the start unless the request keeps the input open: the pty's input is closed like the pipe backend's stdin. */
const END_OF_INPUT = '\x04';

/**
 * Spawns the command on a new pty (node-pty calls setsid: the child leads its
 * own session and process group, pgid = pid). The one terminal stream is
 * stdout; bytes are taken raw so the capture counts them exactly.
 */
export async function startPtyChild(pty: NodePtyModule, request: SpawnRequest, sinks: OutputSinks, argv: readonly string[]): Promise<StartedChild> {
  // The request's program, not the cgroup shim that may stand in front of it.
  await preflight(request);
  const [program = '', ...args] = argv;
  let terminal: ReturnType<NodePtyModule['spawn']>;
  try {
    terminal = pty.spawn(program, args, {
      // node-pty always sets TERM (from `name`) and PWD; the request's TERM wins when it has one.
      name: request.env['TERM'] ?? 'xterm-256color',
      cols: 200,
      rows: 50,
      cwd: request.cwd,
      env: { ...request.env },
      encoding: null,
    });
  } catch (error) {
    throw spawnFailed(request, error instanceof Error ? error.message : String(error), error);
  }
  const slave = holdSlave(terminal);
  let hasExited = false;
  const data = terminal.onData((chunk: string | Buffer) => {
    sinks.stdout.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  });
  // node-pty reports the exit only after the terminal's output has been read to its end.
  const exited = new Promise<LeaderExit>((resolve) => {
    const exit = terminal.onExit(({ exitCode, signal }) => {
      hasExited = true;
      exit.dispose();
      resolve(signal ? { exitCode: null, signal: signalName(signal) } : { exitCode, signal: null });
    });
  });
  // docs/design.md §5: a cancel that comes at once must reach the group, so the group exists before anyone may signal it.
  await groupFormed(terminal.pid, 1_000);
  let released = false;
  if (request.terminalInput === undefined) terminal.write(END_OF_INPUT);
  else {
    request.terminalInput((input) => {
      if (hasExited || released) return false;
      terminal.write(input);
      return true;
    });
  }
  return {
    pid: terminal.pid,
    exited,
    drained: exited.then(() => undefined),
    release: () => {
      released = true;
      data.dispose();
      if (slave !== undefined) closeSync(slave);
      // A leader whose exit was never seen still holds the terminal: close our side of it.
      if (!hasExited) closeTerminal(terminal);
    },
  };
}

/**
 * Linux drops what is still buffered in a pty once its last slave descriptor
 * closes, so the tail of a fast writer such as `seq` would be lost; holding a
 * slave descriptor until the end keeps every byte readable. It is opened
 * synchronously so that the window in which the child could already be gone
 * stays as small as it can be.
 */
function holdSlave(terminal: object): number | undefined {
  if (!('_pty' in terminal) || typeof terminal._pty !== 'string') return undefined;
  try {
    return openSync(terminal._pty, fsConstants.O_RDWR | fsConstants.O_NOCTTY);
  } catch {
    return undefined;
  }
}

/** `destroy` exists on node-pty's Unix terminal but is missing from its typings. */
function closeTerminal(terminal: object): void {
  if (hasDestroy(terminal)) terminal.destroy();
}

function hasDestroy(terminal: object): terminal is { destroy(): void } {
  return 'destroy' in terminal && typeof terminal.destroy === 'function';
}

function signalName(signal: number): string {
  const entry = Object.entries(constants.signals).find(([, number]) => number === signal);
  return entry ? entry[0] : String(signal);
}
