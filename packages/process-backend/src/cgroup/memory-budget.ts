import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { CgroupContainment, MemoryContainment } from '../containment.ts';
import { readCgroupFile } from './cgroup-files.ts';
import { cgroupDirectory, parseMountInfo, parseOwnCgroups, v1Mount, type CgroupMount } from './cgroup-mounts.ts';

const GIB = 1024 * 1024 * 1024;
/** The most one command gets by default, however large the machine. */
const COMMAND_CEILING_BYTES = 4 * GIB;
/** Values at or above this in a limit file mean "no limit" (v1 writes 2^63 rounded down to a page). */
const UNLIMITED = 2 ** 62;

/**
 * The memory caps for a backend's commands: half of what this process may
 * use (the machine's memory, or the lowest limit of the cgroups above this
 * process and above the commands' parent, whichever is lower) shared by all
 * of them, a quarter of that (at most 4 GiB) for each one by default. The
 * server keeps the other half, so neither one command nor many can starve it.
 */
export async function memoryBudget(
  report: CgroupContainment,
  options: { readonly sessionBytes?: number; readonly commandBytes?: number },
): Promise<MemoryContainment> {
  const machine = await memTotal();
  let availableBytes = machine ?? Number.MAX_SAFE_INTEGER;
  let reason = machine === undefined ? 'the machine memory could not be read from /proc/meminfo' : `the machine has ${machine} bytes (MemTotal)`;
  for (const { directory, bytes } of await enclosingLimits(report)) {
    if (bytes < availableBytes) {
      availableBytes = bytes;
      reason = `the cgroup at ${directory} is limited to ${bytes} bytes`;
    }
  }
  const sessionBytes = options.sessionBytes ?? Math.max(1, Math.floor(availableBytes / 2));
  const commandBytes = options.commandBytes ?? Math.max(1, Math.min(Math.floor(sessionBytes / 4), COMMAND_CEILING_BYTES));
  const configured = options.sessionBytes !== undefined ? 'the session cap is configured' : 'the session cap is half of that';
  return { availableBytes, sessionBytes, commandBytes, reason: `${reason}; ${configured}` };
}

async function memTotal(): Promise<number | undefined> {
  try {
    const match = /^MemTotal:\s+(\d+)\s+kB/m.exec(await readFile('/proc/meminfo', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The memory limit of every cgroup from this process's own, and from the commands' parent, up to the top of the mount. */
async function enclosingLimits(report: CgroupContainment): Promise<{ directory: string; bytes: number }[]> {
  const file = report.version === 2 ? 'memory.max' : 'memory.limit_in_bytes';
  const mounts = await readMounts();
  const mount = report.version === 2 ? mounts.mounts.find((entry) => entry.version === 2) : v1Mount(mounts.mounts, 'memory');
  const starts = new Set<string>();
  const parent = report.version === 2 ? report.parents.unified : report.parents.memory;
  if (parent !== undefined) starts.add(parent);
  const ownPath = report.version === 2 ? mounts.own?.unified : mounts.own?.v1.get('memory');
  const own = mount && ownPath !== undefined ? cgroupDirectory(mount, ownPath) : undefined;
  if (own !== undefined) starts.add(own);
  const limits: { directory: string; bytes: number }[] = [];
  const seen = new Set<string>();
  for (const start of starts) {
    for (const directory of upTo(start, mount?.mountPoint)) {
      if (seen.has(directory)) continue;
      seen.add(directory);
      const bytes = parseLimit(await readCgroupFile(join(directory, file)));
      if (bytes !== undefined) limits.push({ directory, bytes });
    }
  }
  return limits;
}

async function readMounts(): Promise<{ mounts: CgroupMount[]; own: ReturnType<typeof parseOwnCgroups> | undefined }> {
  try {
    return { mounts: parseMountInfo(await readFile('/proc/self/mountinfo', 'utf8')), own: parseOwnCgroups(await readFile('/proc/self/cgroup', 'utf8')) };
  } catch {
    return { mounts: [], own: undefined };
  }
}

/** The directory and each of its parents, up to and including the mount point (only the directory itself when it is not under it). */
function upTo(directory: string, mountPoint: string | undefined): string[] {
  const chain = [directory];
  if (mountPoint === undefined || relative(mountPoint, directory).startsWith('..')) return chain;
  let current = directory;
  while (current !== mountPoint && current !== dirname(current)) {
    current = dirname(current);
    chain.push(current);
  }
  return chain;
}

/** A limit file's value in bytes, or undefined for "max", a value that means no limit, or an unreadable file. */
export function parseLimit(text: string | undefined): number | undefined {
  const value = Number(text?.trim());
  return text !== undefined && text.trim() !== 'max' && Number.isFinite(value) && value > 0 && value < UNLIMITED ? value : undefined;
}
