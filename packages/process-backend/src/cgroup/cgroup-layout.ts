import { join } from 'node:path';
import type { CgroupContainment } from '../containment.ts';

/** The files of one command's cgroup, whichever version and hierarchies hold it. */
export interface CgroupLayout {
  /** Every directory of the cgroup (one per hierarchy; two roles mounted together share one). */
  readonly directories: readonly string[];
  /** Where the leader writes its pid: one cgroup.procs per directory. */
  readonly procsFiles: readonly string[];
  /** A cgroup.procs that lists every process of the command. */
  readonly members: string;
  /** v2 `cgroup.kill`, when the kernel has it. */
  readonly killFile: string | undefined;
  readonly freezer: Freezer | undefined;
  readonly pids: { readonly max: string; readonly events: string } | undefined;
  readonly memory: MemoryFiles | undefined;
}

export type Freezer =
  | { readonly version: 1; readonly state: string }
  | { readonly version: 2; readonly freeze: string; readonly events: string };

export type MemoryFiles =
  | { readonly version: 1; readonly limit: string; readonly swapLimit: string; readonly oomControl: string; readonly failcnt: string; readonly maxUsage: string }
  | { readonly version: 2; readonly max: string; readonly swapMax: string; readonly oomGroup: string; readonly events: string };

/**
 * Where the files of the cgroup `name` are under the report's parents. The
 * v1 memory hierarchy is used only when a memory limit is wanted, so a
 * command without one stays in this process's memory cgroup.
 */
export function cgroupLayout(report: CgroupContainment, name: string, options: { readonly withMemory: boolean }): CgroupLayout {
  const { parents } = report;
  if (report.version === 2 && parents.unified !== undefined) {
    const directory = join(parents.unified, name);
    const file = (base: string) => join(directory, base);
    return {
      directories: [directory],
      procsFiles: [file('cgroup.procs')],
      members: file('cgroup.procs'),
      killFile: report.kill === 'cgroup.kill' ? file('cgroup.kill') : undefined,
      freezer: { version: 2, freeze: file('cgroup.freeze'), events: file('cgroup.events') },
      pids: report.limits.processes ? { max: file('pids.max'), events: file('pids.events') } : undefined,
      memory: report.limits.memory
        ? { version: 2, max: file('memory.max'), swapMax: file('memory.swap.max'), oomGroup: file('memory.oom.group'), events: file('memory.events') }
        : undefined,
    };
  }
  const pids = join(parents.pids ?? '', name);
  const freezer = join(parents.freezer ?? '', name);
  const memory = options.withMemory && parents.memory !== undefined ? join(parents.memory, name) : undefined;
  const directories = [...new Set([pids, freezer, ...(memory !== undefined ? [memory] : [])])];
  return {
    directories,
    procsFiles: directories.map((directory) => join(directory, 'cgroup.procs')),
    members: join(pids, 'cgroup.procs'),
    killFile: undefined,
    freezer: { version: 1, state: join(freezer, 'freezer.state') },
    pids: { max: join(pids, 'pids.max'), events: join(pids, 'pids.events') },
    memory:
      memory !== undefined
        ? {
            version: 1,
            limit: join(memory, 'memory.limit_in_bytes'),
            swapLimit: join(memory, 'memory.memsw.limit_in_bytes'),
            oomControl: join(memory, 'memory.oom_control'),
            failcnt: join(memory, 'memory.failcnt'),
            maxUsage: join(memory, 'memory.max_usage_in_bytes'),
          }
        : undefined,
  };
}

/** Every parent directory the report names, each once (two v1 controllers mounted together share one). */
export function parentDirectories(report: CgroupContainment): string[] {
  const { unified, pids, freezer, memory } = report.parents;
  return [...new Set([unified, pids, freezer, memory].filter((parent): parent is string => parent !== undefined))];
}
