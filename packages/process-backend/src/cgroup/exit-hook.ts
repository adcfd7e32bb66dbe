import { rmdirSync } from 'node:fs';
import { killMembersSync, sleepSync } from './cgroup-kill.ts';
import type { CgroupLayout } from './cgroup-layout.ts';

/**
 * The cgroups of this process that are still in use, ended when the process
 * exits for any reason that still runs JavaScript: a normal end, `process.exit`
 * (which the CLI's SIGINT and SIGTERM handlers reach), an uncaught error. A
 * SIGKILL of this process runs nothing; the clean-up of the next start covers it.
 */
const live = new Set<CgroupLayout>();
/** Cgroups that hold the commands' cgroups (a session's), removed after them: a cgroup with children cannot be removed. */
const containers = new Set<string>();
let installed = false;

export function endOnExit(layout: CgroupLayout): void {
  live.add(layout);
  install();
}

/** A cgroup that only holds other cgroups, removed at exit once the commands' cgroups are gone. */
export function removeOnExit(directory: string): void {
  containers.add(directory);
  install();
}

export function forgetRemoveOnExit(directory: string): void {
  containers.delete(directory);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', endAll);
}

export function forgetOnExit(layout: CgroupLayout): void {
  live.delete(layout);
}

function endAll(): void {
  for (const layout of live) {
    killMembersSync(layout);
    for (const directory of layout.directories) removeSync(directory);
  }
  live.clear();
  for (const directory of containers) removeSync(directory);
  containers.clear();
}

function removeSync(directory: string): void {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      rmdirSync(directory);
      return;
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return;
      sleepSync(10);
    }
  }
}
