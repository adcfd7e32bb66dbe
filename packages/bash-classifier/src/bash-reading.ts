import { isToolError } from '@openwork/tool-contract';
import type { ProcessBackend } from '@openwork/process-backend';
import type { PathGuard } from '@openwork/path-guard';
import { absolutePath, pathOutsideRoots } from './command-path.ts';

/** bash's own printing of a command line, or why it could not be had. */
export type BashReading = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** Asks bash how it reads a command line, without running any of it. */
export type BashReader = (command: string, signal?: AbortSignal) => Promise<BashReading>;

/**
 * The line reaches the printer as data on its standard input, never as
 * shell text of the outer shell. The printer is bash in `--pretty-print`
 * mode: it parses a script and prints each command as bash holds it
 * (redirections after the words, descriptors attached) and executes
 * nothing, so a line that would close a wrapper early runs nothing either
 * (docs/decisions/0023). It also starts restricted, with no startup files
 * and an empty environment; a bash without the mode refuses the option and
 * the line asks.
 */
const PRINTER = 'builtin printf "%s\\n" "$1" | exec -c "$BASH" --pretty-print --noprofile --norc -r /dev/stdin';

// Printing takes milliseconds; the margin is for a loaded machine, where a deadline that passed would make every line ask.
const TIMEOUT_MS = 20_000;
/** The longest line the classifier reads is 16 KiB; its printing is about as long. */
const MAX_OUTPUT_BYTES = 256 * 1024;

/**
 * Reads lines with the same `bash` an auto-run command would start (found on
 * the same PATH), through the session's process backend: a pipe backend, as
 * a pty would merge the streams.
 */
export interface BashReaderOptions {
  /** The session's guard: `bash` is then found only outside its roots (this runs before anyone is asked); without it, on the host's absolute PATH. */
  readonly paths?: PathGuard;
}

export function bashReader(processes: ProcessBackend, environment: Readonly<Record<string, string>>, options: BashReaderOptions = {}): BashReader {
  const { paths } = options;
  return async (command, signal) => {
    const path = paths === undefined ? absolutePath(environment.PATH) : await pathOutsideRoots(environment.PATH, paths, signal);
    const deadline = AbortSignal.timeout(TIMEOUT_MS);
    const combined = signal === undefined ? deadline : AbortSignal.any([signal, deadline]);
    let exit;
    try {
      exit = await processes.run({
        argv: ['bash', '--noprofile', '--norc', '-c', PRINTER, 'openwork-bash-reading', command],
        cwd: '/',
        env: { PATH: path },
        signal: combined,
        capture: { headBytes: MAX_OUTPUT_BYTES, tailBytes: 0 },
        limits: { maxProcesses: 8, maxMemoryBytes: 128 * 1024 * 1024 },
        killGraceMs: 200,
        drainMs: 200,
      });
    } catch (error) {
      if (isToolError(error) && error.kind === 'spawn_failed') return { ok: false, reason: 'bash could not be started to read the line' };
      throw error;
    }
    if (exit.status !== 'exited') return { ok: false, reason: `bash did not finish reading the line (${exit.status})` };
    const problem = exit.stderr.text.trim().split('\n')[0] ?? '';
    if (exit.exitCode !== 0 || problem !== '') return { ok: false, reason: `bash could not read the line${problem === '' ? '' : `: ${problem.slice(0, 160)}`}` };
    if (exit.stdout.truncated) return { ok: false, reason: "bash's reading of the line is longer than the classifier reads" };
    return { ok: true, text: exit.stdout.text };
  };
}
