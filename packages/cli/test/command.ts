import { execFile } from 'node:child_process';
import { inject } from 'vitest';
import type { CommandIo } from '../src/call-command.ts';
import { runCli } from '../src/main.ts';

/** What a run of the command left: its exit status and everything it printed. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command as it is shipped, bundled once for the run by the global setup; start it with node. */
export function commandBundle(): string {
  return inject('cliBundle');
}

/** Starts the bundled command in a process of its own, stdin given (or closed at once), and waits for it to end. */
export function runCommand(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [commandBundle(), ...args], { cwd: options.cwd, env: options.env }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(options.stdin ?? '');
  });
}

let running = 0;
/** Where this test file's process started: each in-process run returns there once none is left running. */
const startedIn = process.cwd();

/**
 * Runs the command in this process through runCli, as bin.ts does, with an
 * io that keeps what it prints and a stdin that is `stdin` then its end, and
 * no terminal. The command works in `cwd` as it would when started there:
 * the process changes to it, so calls running at once must share it.
 */
export async function runInProcess(args: readonly string[], options: { cwd: string; stdin?: string }): Promise<Run> {
  if (running > 0 && process.cwd() !== options.cwd) throw new Error(`runInProcess: a call in ${process.cwd()} is still running`);
  process.chdir(options.cwd);
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    readStdin: () => Promise.resolve(options.stdin ?? ''),
    interactive: false,
  };
  running += 1;
  try {
    const code = await runCli(args, io);
    return { code, stdout, stderr };
  } finally {
    running -= 1;
    // The test's folder may be removed next; a later run (or test file, when files share a process) must not start in it.
    if (running === 0) process.chdir(startedIn);
  }
}
