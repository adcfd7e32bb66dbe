import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CgroupContainment } from '../containment.ts';
import { KILL_CONFIRM_MS } from '../common/terminate-group.ts';
import { describeError, mustWrite, writeCgroupFile } from './cgroup-files.ts';
import { commandCgroupName, currentOwner } from './cgroup-owner.ts';
import { removeCgroupDirectory, removeNestedCgroups } from './cgroup-tree.ts';
import { forgetRemoveOnExit, removeOnExit } from './exit-hook.ts';

/**
 * The memory cgroup every command of one backend runs inside, capped at the
 * session's share of memory, so that many commands together cannot starve
 * the server any more than one can. Under cgroup v2 the whole command cgroup
 * is nested in it; under v1 only the command's memory cgroup is (pids and
 * freezer stay per command at the parent). Named like a command's cgroup, so
 * the clean-up of a crashed run finds it.
 */
export class SessionCgroup {
  readonly directory: string;
  readonly #version: 1 | 2;
  /** The report the commands' cgroups are made from: the same, with the memory parent moved into this cgroup. */
  readonly commands: CgroupContainment;

  private constructor(directory: string, report: CgroupContainment) {
    this.directory = directory;
    this.#version = report.version;
    this.commands = report.version === 2 ? { ...report, parents: { unified: directory } } : { ...report, parents: { ...report.parents, memory: directory } };
  }

  /** Makes the cgroup with its cap; throws an Error that says what failed, with nothing left behind. */
  static async create(report: CgroupContainment, bytes: number): Promise<SessionCgroup> {
    const parent = report.version === 2 ? report.parents.unified : report.parents.memory;
    if (parent === undefined) throw new Error('the report names no memory hierarchy');
    const directory = join(parent, commandCgroupName(await currentOwner()));
    try {
      await mkdir(directory);
    } catch (error) {
      throw new Error(`the session's memory cgroup could not be made at ${directory} (${describeError(error)})`, { cause: error });
    }
    removeOnExit(directory);
    try {
      if (report.version === 2) {
        // The session holds no process itself, so it may hand its controllers to the commands' cgroups.
        await mustWrite(join(directory, 'cgroup.subtree_control'), '+memory');
        if (report.limits.processes) await mustWrite(join(directory, 'cgroup.subtree_control'), '+pids');
        await mustWrite(join(directory, 'memory.max'), String(bytes));
        await writeCgroupFile(join(directory, 'memory.swap.max'), '0');
      } else {
        // Older kernels count a child's memory in its parent only with use_hierarchy, settable before the first child.
        await writeCgroupFile(join(directory, 'memory.use_hierarchy'), '1');
        await mustWrite(join(directory, 'memory.limit_in_bytes'), String(bytes));
        await writeCgroupFile(join(directory, 'memory.memsw.limit_in_bytes'), String(bytes));
      }
    } catch (error) {
      await removeCgroupDirectory(directory);
      forgetRemoveOnExit(directory);
      throw new Error(`the session's memory cgroup at ${directory} could not be capped (${describeError(error)})`, { cause: error });
    }
    return new SessionCgroup(directory, report);
  }

  /** Ends what is left in the commands' cgroups inside, removes them, then this one; false when something stayed. */
  async remove(): Promise<boolean> {
    const failed = await removeNestedCgroups(this.directory, { version: this.#version, withinMs: KILL_CONFIRM_MS, seen: new Set() });
    const removed = failed.length === 0 && (await removeCgroupDirectory(this.directory));
    if (removed) forgetRemoveOnExit(this.directory);
    return removed;
  }
}
