import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainmentReport } from '../containment.ts';
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

/**
 * A `sleep` argument unique to one test: a real duration in seconds (whole
 * part `seconds`) whose digits no other process on the machine will have.
 */
export function uniqueSleep(seconds: number): string {
  return `${seconds}.${process.pid}${randomInt(1_000_000, 10_000_000)}`;
}

/** The pids whose command line holds the marker, from /proc/PID/cmdline (zombies have none, so they never count). */
export function pidsWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(marker)) pids.push(Number(name));
    } catch {
      // Gone while looking.
    }
  }
  return pids;
}

/** Kills, by pid, whatever a failed test left with the marker, so one failure does not leak into the machine. */
export function killLeftovers(marker: string): void {
  for (const pid of pidsWithMarker(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** The directory of the cgroup the process is in, in the hierarchy that counts its pids, from /proc/PID/cgroup. */
export function cgroupDirectoryOf(pid: number, report: ContainmentReport): string | undefined {
  if (report.kind !== 'cgroup') return undefined;
  let lines: string[];
  try {
    lines = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const line = report.version === 2 ? lines.find((entry) => entry.startsWith('0::')) : lines.find((entry) => /^\d+:([^:]*,)?pids(,[^:]*)?:/.test(entry));
  const name = line?.slice(line.lastIndexOf('/') + 1);
  const parent = report.version === 2 ? report.parents.unified : report.parents.pids;
  return name && parent !== undefined && name.startsWith('openwork-') ? join(parent, name) : undefined;
}

/** Resolves once `check` holds, polling; rejects after `ms`. */
export async function eventually(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
