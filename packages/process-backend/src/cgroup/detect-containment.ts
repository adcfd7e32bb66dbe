import { constants } from 'node:fs';
import { access, mkdir, readFile, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CgroupContainment, ContainmentReport } from '../containment.ts';
import { describeError, exists, isWritable, readCgroupFile, writeCgroupFile } from './cgroup-files.ts';
import { cgroupDirectory, parseMountInfo, parseOwnCgroups, v1Mount, type CgroupMount, type OwnCgroups } from './cgroup-mounts.ts';
import { commandCgroupName, currentOwner } from './cgroup-owner.ts';
import { SHIM_SHELL } from './placement-shim.ts';

export interface DetectContainmentOptions {
  /**
   * A cgroup path, as /proc/self/cgroup writes it (`/openwork.slice`), to make
   * the commands' cgroups under, in each hierarchy used. Without it: this
   * process's own cgroup, or the v2 root when this process may write it.
   */
  readonly cgroupParent?: string;
  readonly signal?: AbortSignal;
}

/**
 * What this host offers to hold a command's processes, and why (STYLE.md:
 * the fallback is a visible branch). Detects, never assumes: reads
 * /proc/self/cgroup and /proc/self/mountinfo, and makes and removes a probe
 * cgroup in each candidate. In order: cgroup v2 with the pids controller;
 * cgroup v1 with pids and freezer (memory when present); cgroup v2 without
 * controllers (contained, no limits); process groups.
 */
export async function detectContainment(options: DetectContainmentOptions = {}): Promise<ContainmentReport> {
  if (process.platform !== 'linux') return fallback(`cgroups are a Linux mechanism and this host runs ${process.platform}`);
  if (!(await isExecutable(SHIM_SHELL))) return fallback(`${SHIM_SHELL}, which places each command in its cgroup before it runs, is missing`);
  let mounts: CgroupMount[];
  let own: OwnCgroups;
  try {
    mounts = parseMountInfo(await readFile('/proc/self/mountinfo', 'utf8'));
    own = parseOwnCgroups(await readFile('/proc/self/cgroup', 'utf8'));
  } catch (error) {
    return fallback(`/proc/self/mountinfo or /proc/self/cgroup could not be read (${describeError(error)})`);
  }
  options.signal?.throwIfAborted();
  const notes: string[] = [];
  const unified = await unifiedCandidates(mounts, own, options.cgroupParent, notes);
  const limited = unified.find((candidate) => candidate.limits.processes);
  if (limited) return { ...limited, reason: [limited.reason, ...notes].join('; ') };
  options.signal?.throwIfAborted();
  const legacy = await legacyCandidate(mounts, own, options.cgroupParent, notes);
  if (legacy) return { ...legacy, reason: [legacy.reason, ...notes].join('; ') };
  const containedOnly = unified[0];
  if (containedOnly) return { ...containedOnly, reason: [`${containedOnly.reason}, without limits`, ...notes].join('; ') };
  return fallback(notes.join('; ') || 'no cgroup hierarchy is mounted');
}

function fallback(why: string): ContainmentReport {
  return { kind: 'process_group', reason: `no usable cgroup: ${why}; each command is held by its process group only` };
}

/** The usable v2 parents, best first, each with the limits it can enforce. */
async function unifiedCandidates(mounts: readonly CgroupMount[], own: OwnCgroups, configured: string | undefined, notes: string[]): Promise<CgroupContainment[]> {
  const mount = mounts.find((entry) => entry.version === 2);
  if (!mount) {
    notes.push('no cgroup v2 hierarchy is mounted');
    return [];
  }
  const ownPath = own.unified;
  const paths = configured !== undefined ? [{ path: configured, label: 'the configured parent' }] : [
    ...(ownPath !== undefined ? [{ path: ownPath, label: "this process's own cgroup" }] : []),
    ...(ownPath !== '/' ? [{ path: '/', label: 'the cgroup v2 root' }] : []),
  ];
  const found: CgroupContainment[] = [];
  for (const { path, label } of paths) {
    const directory = cgroupDirectory(mount, path);
    if (directory === undefined) {
      notes.push(`cgroup v2 ${label} (${path}) is not visible under ${mount.mountPoint}`);
      continue;
    }
    const migration = cgroupDirectory(mount, commonAncestor(path, ownPath ?? '/')) ?? directory;
    const probed = await probeUnified(directory, { enableControllers: path === '/' && mount.root === '/', migration });
    if (typeof probed === 'string') notes.push(`cgroup v2 ${label} at ${directory}: ${probed}`);
    else {
      found.push({ ...probed, reason: `cgroup v2 under ${label} at ${directory}` });
      if (!probed.limits.processes) notes.push(`cgroup v2 at ${directory} gives its children no pids controller`);
    }
  }
  // A parent with limits first; among equals, the own cgroup (listed first) keeps the host's own limits over the commands.
  return found.sort((a, b) => Number(b.limits.processes) - Number(a.limits.processes));
}

async function probeUnified(
  directory: string,
  options: { readonly enableControllers: boolean; readonly migration: string },
): Promise<Omit<CgroupContainment, 'reason'> | string> {
  // Moving a process between two cgroups needs write access to cgroup.procs of their common ancestor.
  if (!(await isWritable(directory)) || !(await isWritable(join(options.migration, 'cgroup.procs')))) return 'not writable by this process';
  if (options.enableControllers) await enableControllers(directory);
  const subtree = ((await readCgroupFile(join(directory, 'cgroup.subtree_control'))) ?? '').split(/\s+/);
  const probe = await probeChild(directory, ['cgroup.kill', 'cgroup.freeze']);
  if (typeof probe === 'string') return probe;
  const kill = probe.has('cgroup.kill') ? 'cgroup.kill' : probe.has('cgroup.freeze') ? 'freeze' : undefined;
  if (kill === undefined) return 'has neither cgroup.kill nor cgroup.freeze (a kernel before 5.2), so a cgroup could not be ended at once';
  return {
    kind: 'cgroup',
    version: 2,
    parents: { unified: directory },
    limits: { processes: subtree.includes('pids'), memory: subtree.includes('memory') },
    kill,
  };
}

/** The v2 root may hold processes and enable controllers for its children; it is the only parent whose controllers are switched on here. */
async function enableControllers(directory: string): Promise<void> {
  const available = ((await readCgroupFile(join(directory, 'cgroup.controllers'))) ?? '').split(/\s+/);
  const enabled = ((await readCgroupFile(join(directory, 'cgroup.subtree_control'))) ?? '').split(/\s+/);
  for (const controller of ['pids', 'memory']) {
    if (available.includes(controller) && !enabled.includes(controller)) await writeCgroupFile(join(directory, 'cgroup.subtree_control'), `+${controller}`);
  }
}

/** cgroup v1: pids and freezer are required (a bound and a way to stop every member at once); memory is used when present. */
async function legacyCandidate(mounts: readonly CgroupMount[], own: OwnCgroups, configured: string | undefined, notes: string[]): Promise<CgroupContainment | undefined> {
  const parents: Record<string, string> = {};
  for (const controller of ['pids', 'freezer', 'memory']) {
    const mount = v1Mount(mounts, controller);
    const path = configured ?? own.v1.get(controller);
    const directory = mount && path !== undefined ? cgroupDirectory(mount, path) : undefined;
    const problem = directory === undefined ? `no cgroup v1 ${controller} hierarchy is mounted where this process can see its cgroup` : await probeLegacy(directory);
    if (problem === undefined && directory !== undefined) parents[controller] = directory;
    else if (controller === 'memory') notes.push(`no memory limit: ${problem ?? ''}`);
    else {
      notes.push(directory === undefined ? (problem ?? '') : `cgroup v1 ${controller} at ${directory}: ${problem ?? ''}`);
      return undefined;
    }
  }
  const { pids, freezer, memory } = parents;
  if (pids === undefined || freezer === undefined) return undefined;
  const where = [`pids at ${pids}`, `freezer at ${freezer}`, ...(memory ? [`memory at ${memory}`] : [])].join(', ');
  return {
    kind: 'cgroup',
    version: 1,
    parents: { pids, freezer, ...(memory ? { memory } : {}) },
    limits: { processes: true, memory: memory !== undefined },
    kill: 'freeze',
    reason: `cgroup v1 under ${configured !== undefined ? 'the configured parent' : "this process's own cgroups"}: ${where}`,
  };
}

async function probeLegacy(directory: string): Promise<string | undefined> {
  if (!(await isWritable(directory))) return 'not writable by this process';
  const probe = await probeChild(directory, []);
  return typeof probe === 'string' ? probe : undefined;
}

/** Makes and removes a child cgroup (named as a command's would be), reporting which of the files asked about it had. */
async function probeChild(directory: string, files: readonly string[]): Promise<Set<string> | string> {
  const child = join(directory, commandCgroupName(await currentOwner()));
  try {
    await mkdir(child);
  } catch (error) {
    return `a child cgroup could not be made (${describeError(error)})`;
  }
  const present = new Set<string>();
  try {
    for (const file of files) if (await exists(join(child, file))) present.add(file);
  } finally {
    await rmdir(child).catch(() => undefined);
  }
  return present;
}

function commonAncestor(a: string, b: string): string {
  const left = a.split('/').filter(Boolean);
  const right = b.split('/').filter(Boolean);
  const shared: string[] = [];
  for (let index = 0; index < Math.min(left.length, right.length) && left[index] === right[index]; index++) shared.push(left[index] ?? '');
  return `/${shared.join('/')}`;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
