import { SearchOpenError, type SearchDirectory } from './search-directory.ts';
import type { WireTarget } from './search-wire.ts';

/** A directory's identity, as the walk compares it. */
export interface DirectoryIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** What the walk checks: the root and its identity when the session began, and the identities the path guard saw below it. */
export type ChainTarget = Pick<WireTarget, 'root' | 'rootDev' | 'rootIno' | 'chain'>;

/** What the walk asks of a host that answers at once (a search walker's), for its directories of type D. */
export interface ChainOpener<D> {
  /** The root, opened without following a symlink. */
  openRoot(): D;
  /** `name` opened in `from` as a directory, never through a symlink (O_DIRECTORY | O_NOFOLLOW). */
  openDirectory(from: D, name: string): D;
  identity(directory: D): DirectoryIdentity;
  /** Never throws. */
  close(directory: D): void;
}

/** The same, for a host whose calls are promises (the file systems' own operations). */
export interface AsyncChainOpener<D> {
  openRoot(): Promise<D>;
  openDirectory(from: D, name: string): Promise<D>;
  identity(directory: D): Promise<DirectoryIdentity>;
  close(directory: D): Promise<void>;
}

/**
 * The last mile (docs/decisions/0009), written once for every operation of
 * both file systems, search walkers included: the root, opened by the host
 * without following a symlink, is compared with the identity the session
 * began with; then each directory down to `path` is opened from the one
 * above it (never through a symlink) and compared with the identity the
 * path guard saw there, when the chain holds one. A directory replaced after
 * the check is refused (SearchOpenError), never walked. `path` is the root
 * or a directory below it; anything else means the root itself is gone.
 *
 * The checks are this generator; the two drivers below only run the system
 * calls it asks for, and it names the next directory to open only once it
 * has been given the identity of the last one.
 */
function* checkedChain(target: ChainTarget, path: string): Generator<string, void, DirectoryIdentity> {
  const { root } = target;
  if (path !== root && !path.startsWith(root === '/' ? '/' : `${root}/`)) throw new SearchOpenError('root');
  // The first identity handed in is the root's.
  const opened = yield '';
  if (!sameIdentity(opened, target.rootDev, target.rootIno)) throw new SearchOpenError('root');
  if (path === root) return;
  const known = new Map(target.chain.map(([chainPath, dev, ino]) => [chainPath, { dev, ino }]));
  let current = root === '/' ? '' : root;
  for (const name of path.slice(current.length + 1).split('/')) {
    current = `${current}/${name}`;
    const next = yield name;
    const expected = known.get(current);
    if (expected !== undefined && !sameIdentity(next, expected.dev, expected.ino)) throw new SearchOpenError('directory');
  }
}

function sameIdentity(opened: DirectoryIdentity, dev: number, ino: number): boolean {
  return opened.dev === dev && opened.ino === ino;
}

/** The walk with a host that answers at once. */
export function openChain<D>(target: ChainTarget, path: string, opener: ChainOpener<D>): D {
  const steps = checkedChain(target, path);
  steps.next();
  let directory = opener.openRoot();
  try {
    for (let step = steps.next(opener.identity(directory)); step.done !== true; step = steps.next(opener.identity(directory))) {
      const next = opener.openDirectory(directory, step.value);
      opener.close(directory);
      directory = next;
    }
    return directory;
  } catch (error) {
    opener.close(directory);
    throw error;
  }
}

/** The walk with a host whose calls are promises. */
export async function openChainAsync<D>(target: ChainTarget, path: string, opener: AsyncChainOpener<D>): Promise<D> {
  const steps = checkedChain(target, path);
  steps.next();
  let directory = await opener.openRoot();
  try {
    for (let step = steps.next(await opener.identity(directory)); step.done !== true; step = steps.next(await opener.identity(directory))) {
      const next = await opener.openDirectory(directory, step.value);
      await opener.close(directory);
      directory = next;
    }
    return directory;
  } catch (error) {
    await opener.close(directory);
    throw error;
  }
}

const searchOpener = (openRoot: () => SearchDirectory): ChainOpener<SearchDirectory> => ({
  openRoot,
  openDirectory: (from, name) => from.openDirectory(name),
  identity: (directory) => directory,
  close: (directory) => directory.close(),
});

/** A search host's walk to `path` (the target's root or a directory below it), from its root opener. */
export function openTarget(target: WireTarget, path: string, openRoot: () => SearchDirectory): SearchDirectory {
  return openChain(target, path, searchOpener(openRoot));
}
