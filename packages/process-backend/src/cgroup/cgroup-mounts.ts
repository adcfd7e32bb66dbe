import { join } from 'node:path';

/** One mounted cgroup hierarchy, as /proc/self/mountinfo lists it. */
export interface CgroupMount {
  readonly version: 1 | 2;
  /** Where it is mounted. */
  readonly mountPoint: string;
  /** The cgroup the mount shows as its top (not `/` for a bind mount or inside a cgroup namespace). */
  readonly root: string;
  /** v1: the controllers (and `name=…`) of the hierarchy; v2: empty. */
  readonly controllers: readonly string[];
}

/** This process's cgroups, as /proc/self/cgroup lists them. */
export interface OwnCgroups {
  /** The path in the v2 hierarchy (the `0::` line). */
  readonly unified: string | undefined;
  /** The path in each v1 hierarchy, by controller. */
  readonly v1: ReadonlyMap<string, string>;
}

/** The cgroup mounts in a mountinfo text; other lines are skipped. */
export function parseMountInfo(text: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    // The optional fields end with a lone `-`; the file system type and its options follow it.
    const separator = fields.indexOf('-', 6);
    if (separator < 0) continue;
    const type = fields[separator + 1];
    const root = fields[3];
    const mountPoint = fields[4];
    if (root === undefined || mountPoint === undefined) continue;
    if (type === 'cgroup2') {
      mounts.push({ version: 2, mountPoint: unescapeMountField(mountPoint), root: unescapeMountField(root), controllers: [] });
    } else if (type === 'cgroup') {
      const options = (fields[separator + 3] ?? '').split(',').filter((option) => option !== 'rw' && option !== 'ro');
      mounts.push({ version: 1, mountPoint: unescapeMountField(mountPoint), root: unescapeMountField(root), controllers: options });
    }
  }
  return mounts;
}

/** The lines of /proc/self/cgroup: `hierarchy-id:controllers:path`, where the path may itself hold colons. */
export function parseOwnCgroups(text: string): OwnCgroups {
  let unified: string | undefined;
  const v1 = new Map<string, string>();
  for (const line of text.split('\n')) {
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first < 0 || second < 0) continue;
    const hierarchy = line.slice(0, first);
    const controllers = line.slice(first + 1, second);
    const path = line.slice(second + 1);
    if (hierarchy === '0' && controllers === '') unified = path;
    else for (const controller of controllers.split(',')) if (controller !== '') v1.set(controller, path);
  }
  return { unified, v1 };
}

/**
 * The directory of a cgroup path in a mount, or undefined when the mount does
 * not show that part of the hierarchy.
 */
export function cgroupDirectory(mount: CgroupMount, cgroupPath: string): string | undefined {
  if (!cgroupPath.startsWith('/')) return undefined;
  let inside: string;
  if (mount.root === '/') inside = cgroupPath;
  else if (cgroupPath === mount.root || cgroupPath.startsWith(`${mount.root}/`)) inside = cgroupPath.slice(mount.root.length);
  else return undefined;
  const directory = join(mount.mountPoint, inside);
  return directory.length > 1 ? directory.replace(/\/$/, '') : directory;
}

/** The v1 mount that holds a controller, if any. */
export function v1Mount(mounts: readonly CgroupMount[], controller: string): CgroupMount | undefined {
  return mounts.find((mount) => mount.version === 1 && mount.controllers.includes(controller));
}

/** mountinfo writes space, tab, newline and backslash as octal escapes. */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}
