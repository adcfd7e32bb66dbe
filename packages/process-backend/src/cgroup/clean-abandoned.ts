import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CgroupContainment, ContainmentReport } from '../containment.ts';
import { KILL_CONFIRM_MS } from '../common/terminate-group.ts';
import { currentOwner, ownerAlive, ownerOfName } from './cgroup-owner.ts';
import { parentDirectories } from './cgroup-layout.ts';
import { removeNestedCgroups } from './cgroup-tree.ts';
import { CommandCgroup } from './command-cgroup.ts';

export interface AbandonedCleanup {
  /** The cgroup names ended and removed. */
  readonly removed: readonly string[];
  /** Processes that were still running in them. */
  readonly processesEnded: number;
  /** Cgroups of a dead owner that could not be ended or removed, and why. */
  readonly failures: readonly { readonly name: string; readonly message: string }[];
}

/**
 * Ends and removes the cgroups a crashed earlier run of this project left
 * under the report's parents (docs/decisions/0008), with the commands'
 * cgroups inside a session's memory cgroup (docs/decisions/0027). Only names this project
 * makes are looked at, and only those whose owner, in this pid namespace, is
 * no longer running: a live owner's commands and every other cgroup are never
 * touched.
 */
export async function cleanAbandonedCgroups(report: ContainmentReport, options: { readonly signal?: AbortSignal } = {}): Promise<AbandonedCleanup> {
  const removed: string[] = [];
  const failures: { name: string; message: string }[] = [];
  let processesEnded = 0;
  if (report.kind !== 'cgroup') return { removed, processesEnded, failures };
  const self = await currentOwner();
  for (const name of await candidateNames(report)) {
    options.signal?.throwIfAborted();
    const owner = ownerOfName(name);
    if (owner === undefined || owner.pidNamespace !== self.pidNamespace) continue;
    if (await ownerAlive(owner)) continue;
    const seen = new Set<number>();
    // A session cgroup holds its commands' cgroups: they are ended and removed first, or it cannot be.
    const nested = (await Promise.all(parentDirectories(report).map((parent) => removeNestedCgroups(join(parent, name), { version: report.version, withinMs: KILL_CONFIRM_MS, seen })))).flat();
    const cgroup = await CommandCgroup.attach(report, name);
    if (cgroup === undefined) continue;
    const empty = (await cgroup.kill({ withinMs: KILL_CONFIRM_MS, seen })) && nested.length === 0;
    processesEnded += seen.size;
    if (empty && (await cgroup.remove())) removed.push(name);
    else failures.push({ name, message: empty ? 'the cgroup could not be removed' : 'its processes could not all be ended' });
  }
  return { removed, processesEnded, failures };
}

async function candidateNames(report: CgroupContainment): Promise<string[]> {
  const names = new Set<string>();
  for (const parent of parentDirectories(report)) {
    try {
      for (const entry of await readdir(parent, { withFileTypes: true })) if (entry.isDirectory() && ownerOfName(entry.name)) names.add(entry.name);
    } catch {
      // An unreadable parent holds nothing this run could clean.
    }
  }
  return [...names].sort();
}
