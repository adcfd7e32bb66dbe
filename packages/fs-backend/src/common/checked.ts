import type { CheckedPath, ProbeStat } from '@openwork/path-guard';
import { readCheckedPath, type CheckedPathInternals } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import type { HostStat } from './host.ts';

/** The internals of a CheckedPath that is about to be written or removed; refuses anything the guard did not clear for writing. */
export function writableInternals(path: CheckedPath): CheckedPathInternals {
  const internals = readCheckedPath(path);
  if (path.access !== 'write') throw new TypeError(`${path.displayPath} was checked for ${path.access}, not write; resolve it with access 'write'`);
  // docs/design.md §8 step 7: a read-only or protected root is never written, whatever the caller holds.
  if (internals.rootKind !== 'writable') {
    throw new ToolError('protected', `${path.displayPath} is in a read-only root; it cannot be written`);
  }
  return internals;
}

/** Whether the guard knew the target's dev/ino; ino 0 means it did not (a child listed without its own lstat). */
export function knownIdentity(identity: ProbeStat | null): identity is ProbeStat {
  return identity !== null && identity.ino !== 0;
}

export function sameIdentity(identity: { readonly dev: number; readonly ino: number }, stat: HostStat): boolean {
  return identity.dev === stat.dev && identity.ino === stat.ino;
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
