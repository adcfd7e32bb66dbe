import { readFileSync, writeFileSync } from 'node:fs';
import { pause } from '../common/wait.ts';
import { counterIn, parsePids, readCgroupFile, readPids, writeCgroupFile } from './cgroup-files.ts';
import type { CgroupLayout, Freezer } from './cgroup-layout.ts';

/** How often a freezing or emptying cgroup is looked at. */
const POLL_MS = 10;
/** How long a freeze may take before the signals go out anyway (a task in uninterruptible sleep can hold it up). */
const FREEZE_WAIT_MS = 500;

/**
 * Sends a signal to every process of the cgroup. The cgroup is frozen while
 * the list is read and the signals sent, so no member can fork a new one in
 * between and no listed pid can exit and be reused by an unrelated process.
 * Returns the pids signalled.
 */
export async function signalMembers(layout: CgroupLayout, signal: NodeJS.Signals): Promise<number[]> {
  // A freeze that is not complete in time still slows the forks down; the caller loops until the cgroup is empty.
  if (layout.freezer) await freeze(layout.freezer, FREEZE_WAIT_MS);
  try {
    const pids = await readPids(layout.members);
    for (const pid of pids) signalPid(pid, signal);
    return pids;
  } finally {
    await thaw(layout.freezer);
  }
}

/**
 * Ends every process of the cgroup: one write to `cgroup.kill` where the
 * kernel has it, otherwise freeze, SIGKILL each member, thaw, until the
 * cgroup is empty or the time is up. `seen` gathers every pid met on the way.
 */
export async function killMembers(layout: CgroupLayout, options: { readonly withinMs: number; readonly seen: Set<number> }): Promise<boolean> {
  const deadline = Date.now() + options.withinMs;
  for (;;) {
    const pids = await readPids(layout.members);
    for (const pid of pids) options.seen.add(pid);
    if (pids.length === 0) return true;
    if (Date.now() >= deadline) return false;
    if (layout.killFile !== undefined) await writeCgroupFile(layout.killFile, '1');
    else for (const pid of await signalMembers(layout, 'SIGKILL')) options.seen.add(pid);
    await emptied(layout, Math.min(200, Math.max(0, deadline - Date.now())));
  }
}

/** Waits up to `ms` for the cgroup to have no process left. */
export async function emptied(layout: CgroupLayout, ms: number, seen?: Set<number>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const pids = await readPids(layout.members);
    for (const pid of pids) seen?.add(pid);
    if (pids.length === 0) return true;
    if (Date.now() >= deadline) return false;
    await pause(POLL_MS);
  }
}

async function freeze(freezer: Freezer, withinMs: number): Promise<boolean> {
  const error = freezer.version === 1 ? await writeCgroupFile(freezer.state, 'FROZEN') : await writeCgroupFile(freezer.freeze, '1');
  if (error) return false;
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await isFrozen(freezer)) return true;
    if (Date.now() >= deadline) return false;
    await pause(POLL_MS);
  }
}

async function isFrozen(freezer: Freezer): Promise<boolean> {
  if (freezer.version === 1) return (await readCgroupFile(freezer.state))?.trim() === 'FROZEN';
  return counterIn((await readCgroupFile(freezer.events)) ?? '', 'frozen') === 1;
}

async function thaw(freezer: Freezer | undefined): Promise<void> {
  if (freezer === undefined) return;
  await (freezer.version === 1 ? writeCgroupFile(freezer.state, 'THAWED') : writeCgroupFile(freezer.freeze, '0'));
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already, which is what was wanted.
  }
}

/**
 * The same end, synchronously, for the moment the host process exits, when
 * no promise will ever settle again. Bounded: a few rounds of a few
 * milliseconds; what survives is left to the clean-up of the next start.
 */
export function killMembersSync(layout: CgroupLayout): void {
  for (let round = 0; round < 5; round++) {
    const pids = readPidsSync(layout.members);
    if (pids.length === 0) return;
    if (layout.killFile !== undefined) {
      writeSync(layout.killFile, '1');
    } else {
      const freezer = layout.freezer;
      if (freezer) writeSync(freezer.version === 1 ? freezer.state : freezer.freeze, freezer.version === 1 ? 'FROZEN' : '1');
      for (let wait = 0; freezer && wait < 20 && !isFrozenSync(freezer); wait++) sleepSync(5);
      for (const pid of readPidsSync(layout.members)) signalPid(pid, 'SIGKILL');
      if (freezer) writeSync(freezer.version === 1 ? freezer.state : freezer.freeze, freezer.version === 1 ? 'THAWED' : '0');
    }
    sleepSync(20);
  }
}

function readPidsSync(path: string): number[] {
  try {
    return parsePids(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

function isFrozenSync(freezer: Freezer): boolean {
  try {
    if (freezer.version === 1) return readFileSync(freezer.state, 'utf8').trim() === 'FROZEN';
    return counterIn(readFileSync(freezer.events, 'utf8'), 'frozen') === 1;
  } catch {
    return true;
  }
}

function writeSync(path: string, value: string): void {
  try {
    writeFileSync(path, value);
  } catch {
    // The exit path cannot report; the next start's clean-up finds what is left.
  }
}

/** A blocking sleep for the exit path, where timers no longer run. */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
