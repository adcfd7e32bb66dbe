import type { CheckedPathInternals, DirectoryIdentity } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import { baseOf, isInside, parentOf, sameIdentity } from './checked.ts';
import { errnoCode } from './errno.ts';
import type { DirectoryHandle, Host } from './host.ts';

/**
 * docs/design.md §8, docs/decisions/0009: the last mile. Opens `directory` (canonical,
 * at or below the root) by opening the root, comparing it with the identity
 * recorded when the session began, then one component at a time with
 * O_DIRECTORY | O_NOFOLLOW, each compared with what the guard saw. A
 * directory swapped for a symlink after the check is refused, never followed,
 * and whatever the caller then does by name happens in the directory that
 * was checked, wherever its path now leads.
 */
export async function openCheckedDirectory(host: Host, internals: CheckedPathInternals, directory: string, displayPath: string): Promise<DirectoryHandle> {
  const { root } = internals;
  // The nearest existing parent above the root: the root itself is gone.
  if (!isInside(root, directory)) throw rootChanged(displayPath, root);
  let current = await openRoot(host, internals, displayPath);
  if (directory === root) return current;
  try {
    const seen = new Map<string, DirectoryIdentity>(internals.directories.map((entry) => [entry.path, entry]));
    let path = root === '/' ? '' : root;
    for (const name of directory.slice(path.length + 1).split('/')) {
      path = `${path}/${name}`;
      const next = await current.openDirectory(name).catch((error: unknown) => {
        throw errnoCode(error) === 'ELOOP' ? replacedBySymlink(displayPath, error) : error;
      });
      await current.close();
      current = next;
      const expected = seen.get(path);
      if (expected !== undefined && !sameIdentity(expected, await current.stat())) throw directoryReplaced(displayPath);
    }
    return current;
  } catch (error) {
    await current.close();
    throw error;
  }
}

/** Where a CheckedPath's target lives: the open directory that holds it and its name there, or (name null) the root itself. */
export interface Container {
  readonly directory: DirectoryHandle;
  readonly name: string | null;
}

/** Opens the directory that holds the target (its existing parent), by the walk above. */
export async function openContainer(host: Host, internals: CheckedPathInternals, displayPath: string): Promise<Container> {
  if (internals.realPath === internals.root) return { directory: await openCheckedDirectory(host, internals, internals.root, displayPath), name: null };
  return { directory: await openCheckedDirectory(host, internals, parentOf(internals.realPath), displayPath), name: baseOf(internals.realPath) };
}

async function openRoot(host: Host, internals: CheckedPathInternals, displayPath: string): Promise<DirectoryHandle> {
  let handle: DirectoryHandle;
  try {
    handle = await host.openRoot(internals.root);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') throw rootChanged(displayPath, internals.root, error);
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (stat.kind === 'directory' && sameIdentity(internals.rootIdentity, stat)) return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  throw rootChanged(displayPath, internals.root);
}

/** A long session whose root was moved away, removed or replaced (by a symlink or another directory): nothing there is reached by its name. */
export function rootChanged(displayPath: string, root: string, cause?: unknown): ToolError {
  return new ToolError(
    'stale',
    `the root ${root}, which holds ${displayPath}, is not the directory this session started in (it was moved, removed or replaced, perhaps by a symlink); nothing in it can be reached until the session is started again in the right directory`,
    { cause },
  );
}

export function replacedBySymlink(displayPath: string, cause?: unknown): ToolError {
  return new ToolError(
    'stale',
    `the directory of ${displayPath} changed since the path was checked (it was replaced by a symlink); retry`,
    { cause },
  );
}

function directoryReplaced(displayPath: string): ToolError {
  return new ToolError('stale', `a directory on the way to ${displayPath} was replaced since the path was checked; retry`);
}
