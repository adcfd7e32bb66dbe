import { execFileSync } from 'node:child_process';
import type { ProcessExit, SpawnRequest } from '../process-backend.ts';
import type { ProcessBackend } from '../process-backend.ts';

/** A script for bash without any startup file, so nothing outside the test shapes it. */
export function bash(script: string): string[] {
  return ['bash', '--noprofile', '--norc', '-c', script];
}

/** The only environment the commands get. */
export function minimalEnv(): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp' };
}

/** Whether some process's command line still holds the marker (zombies show no arguments). */
export function markerRunning(marker: string): boolean {
  const lines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n');
  return lines.some((line) => line.includes(marker) && !line.startsWith('ps '));
}

/** The bytes of the text shown, without the omission marker. */
export function shownBytes(result: ProcessExit['stdout']): number {
  const total = Buffer.byteLength(result.text);
  return result.truncated ? total - Buffer.byteLength(`\n… [${result.omittedBytes} bytes omitted] …\n`) : total;
}

export interface StartedRun {
  readonly result: Promise<ProcessExit>;
  /** Resolves once recent stdout (the last 4 KiB) contains the text. */
  readonly seen: (text: string) => Promise<void>;
  readonly controller: AbortController;
}

/**
 * Starts a run with a safety deadline, so a command that hangs ends as a
 * failed assertion instead of a leaked process.
 */
export function startRun(backend: ProcessBackend, request: Omit<SpawnRequest, 'signal'>, options: { readonly safetyMs?: number } = {}): StartedRun {
  const controller = new AbortController();
  let stdout = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const safety = setTimeout(() => controller.abort(), options.safetyMs ?? 20_000);
  const result = backend.run({
    ...request,
    signal: controller.signal,
    onStdout: (chunk) => {
      request.onStdout?.(chunk);
      // Only a window is kept: `yes` must not grow the test's own memory.
      stdout = (stdout + chunk).slice(-4_096);
      for (const waiter of waiters.filter((entry) => stdout.includes(entry.text))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
  });
  const settled = result.finally(() => clearTimeout(safety));
  return {
    result: settled,
    controller,
    seen: (text) =>
      stdout.includes(text)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiters.push({ text, resolve });
            void settled.then(() => reject(new Error(`the run ended before printing ${JSON.stringify(text)}`)), reject);
          }),
  };
}
