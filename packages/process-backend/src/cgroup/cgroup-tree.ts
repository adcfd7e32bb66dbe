import { readdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pause } from '../common/wait.ts';
import { exists } from './cgroup-files.ts';
import { killMembers } from './cgroup-kill.ts';
import type { CgroupLayout } from './cgroup-layout.ts';
import { ownerOfName } from './cgroup-owner.ts';

/** rmdir of a cgroup whose last process is still exiting can fail briefly with EBUSY. */
export async function removeCgroupDirectory(directory: string): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      await rmdir(directory);
      return true;
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return true;
      await pause(20);
    }
  }
  return false;
}

/**
 * Ends and removes the cgroups this project made inside `directory` (the
 * commands of a session cgroup), deepest first; a directory cannot be
 * removed while it has children. Other names are never touched. Returns the
 * names that could not be removed and counts every process ended in `seen`.
 */
export async function removeNestedCgroups(directory: string, options: { readonly version: 1 | 2; readonly withinMs: number; readonly seen: Set<number> }): Promise<string[]> {
  const failed: string[] = [];
  for (const name of await ownNames(directory)) {
    const child = join(directory, name);
    failed.push(...(await removeNestedCgroups(child, options)));
    const empty = await killMembers(await directoryLayout(child, options.version), { withinMs: options.withinMs, seen: options.seen });
    if (!empty || !(await removeCgroupDirectory(child))) failed.push(name);
  }
  return failed;
}

async function ownNames(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory, { withFileTypes: true })).filter((entry) => entry.isDirectory() && ownerOfName(entry.name) !== undefined).map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** The layout of one cgroup directory on its own: enough to list, kill and remove its members. */
async function directoryLayout(directory: string, version: 1 | 2): Promise<CgroupLayout> {
  const file = (base: string) => join(directory, base);
  return {
    directories: [directory],
    procsFiles: [file('cgroup.procs')],
    members: file('cgroup.procs'),
    killFile: version === 2 && (await exists(file('cgroup.kill'))) ? file('cgroup.kill') : undefined,
    // A v1 memory cgroup has no freezer of its own; its members are also in their command's freezer cgroup, ended there.
    freezer: version === 2 ? { version: 2, freeze: file('cgroup.freeze'), events: file('cgroup.events') } : undefined,
    pids: undefined,
    memory: undefined,
  };
}
