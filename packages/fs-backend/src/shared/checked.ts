import type { CheckedPath, ProbeStat } from '@openwork/path-guard';
import { readCheckedPath, type CheckedPathInternals } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import type { Host, HostStat } from './host.ts';

/** The internals of a CheckedPath that is about to be written or removed; refuses anything the guard did not clear for writing. */
export function writableInternals(path: CheckedPath): CheckedPathInternals {
  const internals = readCheckedPath(path);
  if (path.access !== 'write') throw new TypeError(`${path.displayPath} was checked for ${path.access}, not write; resolve it with access 'write'`);
  // seed §8 step 7: a read-only or protected root is never written, whatever the caller holds.
  if (internals.rootKind !== 'writable') {
    throw new ToolError('protected', `${path.displayPath} is in a read-only root; it cannot be written`);
  }
  return internals;
}

/** Whether the guard knew the target's dev/ino; ino 0 means it did not (a child listed without its own lstat). */
export function knownIdentity(identity: ProbeStat | null): identity is ProbeStat {
  return identity !== null && identity.ino !== 0;
}

export function sameIdentity(identity: ProbeStat, stat: HostStat): boolean {
  return identity.dev === stat.dev && identity.ino === stat.ino;
}

export function isInside(root: string, path: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/**
 * seed §8: guards against the parent being replaced after the check. The
 * directory is still where the guard saw it when every component from the
 * (canonical) root down to it is a real directory, none a symlink.
 */
export async function verifyDirectory(host: Host, directory: string, root: string, displayPath: string): Promise<void> {
  const changed = () =>
    new ToolError('stale', `the directory of ${displayPath} changed since the path was checked (it was replaced by a symlink); retry`);
  if (!isInside(root, directory)) throw changed();
  const below = directory === root ? [] : directory.slice(root.endsWith('/') ? root.length : root.length + 1).split('/');
  let current = root;
  for (const name of ['', ...below]) {
    if (name !== '') current = joinPath(current, name);
    const stat = await host.lstat(current);
    if (stat.kind === 'symlink') throw changed();
    if (stat.kind !== 'directory') throw new ToolError('not_a_directory', `a component of ${displayPath} is not a directory; check the path`);
  }
}

export function changedSinceChecked(displayPath: string): ToolError {
  return new ToolError('stale', `${displayPath} changed since it was checked (replaced or turned into a symlink) while being read; retry`);
}

export function parentOf(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

export function baseOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}
