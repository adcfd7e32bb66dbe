import { readdir, readFile } from 'node:fs/promises';

/** Command lines of the live processes, read from /proc (ps may not show a full line). */
export async function commandLines(): Promise<string[]> {
  const lines: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const line = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (line !== '') lines.push(line.replaceAll('\0', ' '));
  }
  return lines;
}

/** Whether a process whose command line holds `marker` is alive: find leftovers by a unique marker, never by name. */
export async function markerRunning(marker: string): Promise<boolean> {
  return (await commandLines()).some((line) => line.includes(marker));
}

/**
 * How long a test waits for a process to show something: generous, since a
 * start on a loaded two-core machine can take many seconds. It bounds a test
 * that would hang, it does not time the command.
 */
export const PATIENCE_MS = 60_000;

/** Polls `condition` every 100 ms until it holds or `timeoutMs` passes; a loaded machine is slow, not wrong. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

/** The pids whose command line holds `marker` (this process excluded), to end a test's leftovers by pid, never by name. */
export async function markedPids(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const line = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (line.replaceAll('\0', ' ').includes(marker)) pids.push(Number(entry));
  }
  return pids;
}

/** Kills by pid whatever still holds `marker`; the pids it found, so a test can require there were none. */
export async function killMarked(marker: string): Promise<number[]> {
  const pids = await markedPids(marker);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
