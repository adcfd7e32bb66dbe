import { mkdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CgroupContainment, LimitKind, ProcessLimits } from '../containment.ts';
import { describeError, exists, mustWrite, readCgroupFile, readCounter, readPids, writeCgroupFile } from './cgroup-files.ts';
import { emptied, killMembers, signalMembers } from './cgroup-kill.ts';
import { cgroupLayout, type CgroupLayout, type MemoryFiles } from './cgroup-layout.ts';
import { removeCgroupDirectory } from './cgroup-tree.ts';
import { commandCgroupName, currentOwner } from './cgroup-owner.ts';
import { endOnExit, forgetOnExit } from './exit-hook.ts';
import { placementShim, type Placement } from './placement-shim.ts';

/**
 * One command's cgroup, from creation to removal: the limits written before
 * the command is placed, the kill that ends every member, the counters that
 * say which limit was reached.
 */
export class CommandCgroup {
  readonly name: string;
  readonly #layout: CgroupLayout;

  private constructor(name: string, layout: CgroupLayout) {
    this.name = name;
    this.#layout = layout;
  }

  /** Makes the cgroup and writes its limits; throws an Error that says what failed, with nothing left behind. */
  static async create(report: CgroupContainment, limits: ProcessLimits): Promise<CommandCgroup> {
    const name = commandCgroupName(await currentOwner());
    const layout = cgroupLayout(report, name, { withMemory: limits.maxMemoryBytes !== undefined });
    const made: string[] = [];
    const cgroup = new CommandCgroup(name, layout);
    try {
      for (const directory of layout.directories) {
        await mkdir(directory);
        made.push(directory);
      }
      // Registered at once: from here on, an exit of this process ends and removes it.
      endOnExit(layout);
      await cgroup.#writeLimits(limits);
      return cgroup;
    } catch (error) {
      forgetOnExit(layout);
      for (const directory of made.reverse()) await rmdir(directory).catch(() => undefined);
      throw new Error(`the command's cgroup ${name} could not be set up (${describeError(error)})`, { cause: error });
    }
  }

  /** An existing cgroup of this project, found by name under the report's parents (for the clean-up of a crashed run). */
  static async attach(report: CgroupContainment, name: string): Promise<CommandCgroup | undefined> {
    const layout = cgroupLayout(report, name, { withMemory: true });
    const directories: string[] = [];
    for (const directory of layout.directories) if (await exists(directory)) directories.push(directory);
    if (directories.length === 0) return undefined;
    const members = directories.includes(join(layout.members, '..')) ? layout.members : join(directories[0] ?? '', 'cgroup.procs');
    const freezer = layout.freezer?.version === 1 && !directories.includes(join(layout.freezer.state, '..')) ? undefined : layout.freezer;
    return new CommandCgroup(name, { ...layout, directories, procsFiles: directories.map((directory) => join(directory, 'cgroup.procs')), members, freezer });
  }

  /** The argv that joins this cgroup before running the command's. */
  placement(argv: readonly string[]): Placement {
    return placementShim(this.#layout.procsFiles, argv);
  }

  members(): Promise<number[]> {
    return readPids(this.#layout.members);
  }

  /** Whether the process has joined the cgroup in every hierarchy (the shim writes them in order, so the last one decides). */
  async holds(pid: number): Promise<boolean> {
    return (await readPids(this.#layout.procsFiles.at(-1) ?? this.#layout.members)).includes(pid);
  }

  /** Signals every member (frozen meanwhile, so the list is exact); the pids signalled. */
  signalAll(signal: NodeJS.Signals): Promise<number[]> {
    return signalMembers(this.#layout, signal);
  }

  /** Waits up to `ms` for the cgroup to empty; every pid met goes into `seen`. */
  emptied(ms: number, seen: Set<number>): Promise<boolean> {
    return emptied(this.#layout, ms, seen);
  }

  /** Kills every member until none is left or the time is up; true when empty. */
  kill(options: { readonly withinMs: number; readonly seen: Set<number> }): Promise<boolean> {
    return killMembers(this.#layout, options);
  }

  /**
   * `memory` when the OOM killer ended a process here at this cgroup's own
   * limit, `session_memory` when it did so at the session's (an ancestor's)
   * limit, else `processes` when a fork was refused at pids.max. An OOM is
   * counted on the cgroup whose limit was reached and its ancestors, never on
   * its descendants, so a kill here without an OOM here came from above.
   */
  async limitHit(): Promise<LimitKind | undefined> {
    const memory = this.#layout.memory;
    if (memory !== undefined) {
      const events = memory.version === 1 ? memory.oomControl : memory.events;
      if ((await readCounter(events, 'oom_kill')) > 0) {
        return (await reachedOwnLimit(memory)) ? 'memory' : 'session_memory';
      }
    }
    const pids = this.#layout.pids;
    if (pids !== undefined && (await readCounter(pids.events, 'max')) > 0) return 'processes';
    return undefined;
  }

  /** Removes every directory; false when one is still populated. A removed cgroup no longer needs ending at exit. */
  async remove(): Promise<boolean> {
    let removed = true;
    for (const directory of this.#layout.directories) removed = (await removeCgroupDirectory(directory)) && removed;
    if (removed) forgetOnExit(this.#layout);
    return removed;
  }

  async #writeLimits(limits: ProcessLimits): Promise<void> {
    const { pids, memory } = this.#layout;
    if (limits.maxProcesses !== undefined && pids !== undefined) await mustWrite(pids.max, String(limits.maxProcesses));
    const bytes = limits.maxMemoryBytes;
    if (bytes === undefined || memory === undefined) return;
    if (memory.version === 2) {
      await mustWrite(memory.max, String(bytes));
      // No swap beyond the limit, and an OOM ends the whole command rather than one process of it.
      await writeCgroupFile(memory.swapMax, '0');
      await writeCgroupFile(memory.oomGroup, '1');
    } else {
      await mustWrite(memory.limit, String(bytes));
      // memsw counts memory plus swap: the same number leaves no swap beyond the limit (absent without swap accounting).
      await writeCgroupFile(memory.swapLimit, String(bytes));
    }
  }
}

/**
 * Whether the cgroup's own memory limit was reached: v2 counts an `oom` event
 * on the cgroup whose limit it was; v1 has no such counter that holds with
 * swap accounting on (the failure is then charged to neither failcnt), but a
 * peak at the limit shows it.
 */
async function reachedOwnLimit(memory: MemoryFiles): Promise<boolean> {
  if (memory.version === 2) return (await readCounter(memory.events, 'oom')) > 0;
  const number = async (path: string) => Number((await readCgroupFile(path))?.trim());
  if ((await number(memory.failcnt)) > 0) return true;
  const limit = await number(memory.limit);
  return Number.isFinite(limit) && (await number(memory.maxUsage)) >= limit;
}
