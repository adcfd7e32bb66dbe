import { readdir, readFile } from 'node:fs/promises';
import { pause } from './wait.ts';

/** Sends a signal to a whole process group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false;
    // EPERM: the group exists but is not ours to signal; it still counts as alive.
    return true;
  }
}

/**
 * Whether the group still has a member that is not a zombie. A zombie holds
 * nothing but its pid, and where init does not reap orphans it would make the
 * group look alive forever, so on Linux `/proc` decides.
 */
export async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false;
    return true;
  }
  if (process.platform !== 'linux') return true;
  return hasRunningMember(pgid);
}

async function hasRunningMember(pgid: number): Promise<boolean> {
  const members = await groupMembers(pgid, { firstOnly: true });
  // Without /proc nobody can tell a zombie from a live member: the signal probe's answer stands.
  return members === undefined || members.length > 0;
}

/**
 * The pids of the group's members that are not zombies, from /proc; undefined
 * where /proc cannot be listed (then nobody can say).
 */
export async function groupMembers(pgid: number, options: { readonly firstOnly?: boolean } = {}): Promise<number[] | undefined> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = await readFile(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name, which may itself hold spaces and parentheses: state, ppid, pgrp.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') {
      members.push(Number(name));
      if (options.firstOnly) break;
    }
  }
  return members;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Waits until the child has made its process group (a pty child calls setsid
 * after the fork returns), so that a signal sent at once reaches it. False
 * when the child is gone first or the time is up.
 */
export async function groupFormed(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (signalGroup(pid, 0)) return true;
    if (!signalProcess(pid) || Date.now() >= deadline) return false;
    await pause(2);
  }
}

function signalProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
}
