import type { ProcessBackend } from '@openwork/process-backend';
import type { TerminalOptions } from './args.ts';
import { UsageError } from './usage-error.ts';

/** The size the pty backend opens every terminal with. */
export const DEFAULT_TERMINAL_SIZE = { columns: 200, rows: 50 } as const;

/**
 * The backend of `--pty`. node-pty is an optional dependency: where it is
 * missing or not built for this Node, the flag is a usage error that says
 * so, before anything runs, rather than a `spawn_failed` on every bash call.
 */
export async function terminalBackend(terminal: TerminalOptions, pty: ProcessBackend): Promise<ProcessBackend> {
  const availability = await pty.availability();
  if (!availability.available) {
    throw new UsageError(`--pty needs node-pty, an optional dependency that is not installed here or not built for this Node; install it or leave --pty out (${availability.reason})`);
  }
  if (terminal.columns === undefined && terminal.rows === undefined) return pty;
  return withTerminalSize(pty, { columns: terminal.columns ?? DEFAULT_TERMINAL_SIZE.columns, rows: terminal.rows ?? DEFAULT_TERMINAL_SIZE.rows });
}

/** Sets the size, then replaces itself with the command: same process, same group, same exit status. */
const RESIZE_THEN_EXEC = 'stty cols "$1" rows "$2"; shift 2; exec "$@"';

/**
 * Each command starts on a terminal of the given size. The pty backend opens
 * its terminals at one fixed size, so `stty` on the new terminal sets the
 * size before the command starts; a failure to set it shows in the output
 * and the command still runs.
 */
export function withTerminalSize(backend: ProcessBackend, size: { readonly columns: number; readonly rows: number }): ProcessBackend {
  return {
    name: backend.name,
    availability: () => backend.availability(),
    containment: () => backend.containment(),
    run: (request) => backend.run({ ...request, argv: ['sh', '-c', RESIZE_THEN_EXEC, 'sh', String(size.columns), String(size.rows), ...request.argv] }),
    liveGroups: () => backend.liveGroups(),
    dispose: () => backend.dispose(),
  };
}
