import { SearchOpenError, type SearchDirectory } from './search-directory.ts';
import type { WireTarget } from './search-wire.ts';

/**
 * The last mile of a search (docs/decisions/0009), one walk for every host:
 * the root, opened by the host without following a symlink, is compared
 * with the identity the session began with; then each directory down to
 * `path` is opened from the one above it (never through a symlink) and
 * compared with the identity the path guard saw there, when the chain holds
 * one. A directory replaced after the check is refused, never walked.
 * `path` is the target's root or a directory below it.
 */
export function openTarget(target: WireTarget, path: string, openRoot: () => SearchDirectory): SearchDirectory {
  let directory = openRoot();
  try {
    if (directory.dev !== target.rootDev || directory.ino !== target.rootIno) throw new SearchOpenError('root');
    if (path === target.root) return directory;
    const known = new Map(target.chain.map(([chainPath, dev, ino]) => [chainPath, { dev, ino }]));
    let current = target.root === '/' ? '' : target.root;
    for (const name of path.slice(current.length + 1).split('/')) {
      current = `${current}/${name}`;
      const next = directory.openDirectory(name);
      directory.close();
      directory = next;
      const expected = known.get(current);
      if (expected !== undefined && (expected.dev !== directory.dev || expected.ino !== directory.ino)) throw new SearchOpenError('directory');
    }
    return directory;
  } catch (error) {
    directory.close();
    throw error;
  }
}
