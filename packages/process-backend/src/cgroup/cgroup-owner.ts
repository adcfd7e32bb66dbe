import { randomBytes } from 'node:crypto';
import { readFile, readlink } from 'node:fs/promises';

/**
 * The process that made a cgroup. The pid alone could name a later process
 * that reused it, so the start time (clock ticks since boot, from
 * /proc/PID/stat) goes with it; the pid namespace says which pids the two
 * numbers are about.
 */
export interface CgroupOwner {
  readonly pid: number;
  readonly startTime: number;
  readonly pidNamespace: number;
}

/** Every cgroup this project makes starts with this; nothing else is ever touched by the clean-up. */
export const CGROUP_NAME_PREFIX = 'openwork-';

const NAME_PATTERN = /^openwork-(\d+)-(\d+)-(\d+)-([0-9a-f]{8,32})$/;

let current: Promise<CgroupOwner> | undefined;

/** This process as a cgroup owner (read once). */
export function currentOwner(): Promise<CgroupOwner> {
  current ??= (async () => ({
    pid: process.pid,
    startTime: (await startTimeOf(process.pid)) ?? 0,
    pidNamespace: await pidNamespace(),
  }))();
  return current;
}

/** `openwork-<pid>-<start time>-<pid namespace>-<random>`: recognizable, and the owner can be checked from the name alone. */
export function commandCgroupName(owner: CgroupOwner): string {
  return `${CGROUP_NAME_PREFIX}${owner.pid}-${owner.startTime}-${owner.pidNamespace}-${randomBytes(6).toString('hex')}`;
}

/** The owner written in a name this project made, or undefined for any other name. */
export function ownerOfName(name: string): CgroupOwner | undefined {
  const match = NAME_PATTERN.exec(name);
  if (!match) return undefined;
  return { pid: Number(match[1]), startTime: Number(match[2]), pidNamespace: Number(match[3]) };
}

/**
 * Whether the owner still runs: a process with its pid and start time. Any
 * doubt (an unreadable /proc entry other than a missing one) counts as alive,
 * so the clean-up never ends the commands of a running owner.
 */
export async function ownerAlive(owner: CgroupOwner): Promise<boolean> {
  try {
    const startTime = await startTimeOf(owner.pid, { strict: true });
    return startTime === owner.startTime;
  } catch (error) {
    return !(error instanceof Error && 'code' in error && error.code === 'ENOENT');
  }
}

async function startTimeOf(pid: number, options: { readonly strict?: boolean } = {}): Promise<number | undefined> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if (options.strict) throw error;
    return undefined;
  }
  // Field 22 is the start time; counting starts after the command name, which may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const value = Number(fields[19]);
  return Number.isSafeInteger(value) ? value : undefined;
}

async function pidNamespace(): Promise<number> {
  try {
    const link = await readlink('/proc/self/ns/pid');
    return Number(/\[(\d+)\]/.exec(link)?.[1] ?? 0);
  } catch {
    return 0;
  }
}
