import type { CheckedPathInternals } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import { openChainAsync, SearchOpenError, type ChainTarget } from '@openwork/tree-search';
import { baseOf, knownIdentity, parentOf } from './checked.ts';
import { errnoCode } from './errno.ts';
import type { DirectoryHandle, Host } from './host.ts';

type ChainEntry = readonly [string, number, number];

/** What the path guard saw on the way to a CheckedPath, by canonical path: each directory below the root, and the target itself when it looked at it. */
export function guardChain(internals: CheckedPathInternals): Map<string, ChainEntry> {
  const chain = new Map<string, ChainEntry>(internals.directories.map((directory) => [directory.path, [directory.path, directory.dev, directory.ino]]));
  const { identity } = internals;
  if (knownIdentity(identity)) chain.set(internals.realPath, [internals.realPath, identity.dev, identity.ino]);
  return chain;
}

function chainTarget(internals: CheckedPathInternals): ChainTarget {
  return { root: internals.root, rootDev: internals.rootIdentity.dev, rootIno: internals.rootIdentity.ino, chain: [...guardChain(internals).values()] };
}

/**
 * docs/design.md §8, docs/decisions/0009: the last mile. Opens `directory`
 * (canonical, at or below the root) by the one walk of tree-search
 * (`openChainAsync`, which the search walkers take too): the root, compared
 * with the identity recorded when the session began, then one component at
 * a time with O_DIRECTORY | O_NOFOLLOW, each compared with what the guard
 * saw (`directory` itself included, when the guard looked at it). A
 * directory swapped for a symlink or for another directory after the check
 * is refused, never followed, and whatever the caller then does by name
 * happens in the directory that was checked, wherever its path now leads.
 */
export async function openCheckedDirectory(
  host: Host,
  internals: CheckedPathInternals,
  directory: string,
  displayPath: string,
  options: { readonly atLast?: (opened: DirectoryHandle) => void } = {},
): Promise<DirectoryHandle> {
  const last = depthBelow(internals.root, directory);
  let asked = 0;
  try {
    return await openChainAsync(chainTarget(internals), directory, {
      openRoot: () => openRoot(host, internals, displayPath),
      openDirectory: (from, name) =>
        from.openDirectory(name).catch((error: unknown) => {
          throw errnoCode(error) === 'ELOOP' ? replacedBySymlink(displayPath, error) : error;
        }),
      identity: (opened) => {
        if (asked === last) options.atLast?.(opened);
        asked += 1;
        return opened.stat();
      },
      close: (opened) => opened.close(),
    });
  } catch (error) {
    // The nearest existing parent above the root, or a root of another identity: the root itself is gone.
    if (error instanceof SearchOpenError) throw error.changed === 'root' ? rootChanged(displayPath, internals.root) : directoryReplaced(displayPath);
    throw error;
  }
}

/** Where a CheckedPath's target lives: the open directory that holds it and its name there, or (name null) the root itself. */
export interface Container {
  readonly directory: DirectoryHandle;
  readonly name: string | null;
}

/** Components of `directory` below `root` (0 for the root): the walk asks that many identities after the root's. */
function depthBelow(root: string, directory: string): number {
  if (directory === root) return 0;
  return directory.slice(root === '/' ? 1 : root.length + 1).split('/').length;
}

/** Opens the directory that holds the target (its existing parent), by the walk above. */
export async function openContainer(host: Host, internals: CheckedPathInternals, displayPath: string): Promise<Container> {
  return (await openContainerLooking(host, internals, displayPath, () => Promise.resolve(undefined))).container;
}

/**
 * openContainer, and one look at the target in it (its lstat, say) sent
 * alongside the last directory's identity check rather than after it: one
 * round trip fewer. The look is only a question; its answer is handed back
 * only once every check of the walk passed, and is dropped when one fails.
 */
export async function openContainerLooking<T>(
  host: Host,
  internals: CheckedPathInternals,
  displayPath: string,
  look: (directory: DirectoryHandle, name: string | null) => Promise<T>,
): Promise<{ readonly container: Container; readonly looked: T }> {
  const name = internals.realPath === internals.root ? null : baseOf(internals.realPath);
  let looking: Promise<T> | undefined;
  const atLast = (opened: DirectoryHandle) => {
    looking = look(opened, name);
    // Settled below, or dropped when the walk fails first.
    looking.catch(() => undefined);
  };
  const directory = await openCheckedDirectory(host, internals, name === null ? internals.root : parentOf(internals.realPath), displayPath, { atLast });
  try {
    return { container: { directory, name }, looked: await (looking ?? look(directory, name)) };
  } catch (error) {
    await directory.close();
    throw error;
  }
}

async function openRoot(host: Host, internals: CheckedPathInternals, displayPath: string): Promise<DirectoryHandle> {
  try {
    return await host.openRoot(internals.root);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') throw rootChanged(displayPath, internals.root, error);
    throw error;
  }
}

/** A long session whose root was moved away, removed or replaced (by a symlink or another directory): nothing there is reached by its name. */
export function rootChanged(displayPath: string, root: string, cause?: unknown): ToolError {
  return new ToolError(
    'stale',
    `the root ${root}, which holds ${displayPath}, is not the directory this session started in (it was moved, removed or replaced, perhaps by a symlink); nothing in it can be reached until the session is started again in the right directory`,
    { cause },
  );
}

function replacedBySymlink(displayPath: string, cause?: unknown): ToolError {
  return new ToolError(
    'stale',
    `${displayPath}, or a directory on the way to it, was replaced by a symlink since the path was checked; retry`,
    { cause },
  );
}

function directoryReplaced(displayPath: string): ToolError {
  return new ToolError('stale', `${displayPath}, or a directory on the way to it, was replaced since the path was checked; retry`);
}
