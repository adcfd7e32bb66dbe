import { closeSync, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import { ListingCache, openTarget, SearchCache, SearchOpenError, type SearchCacheOptions, type SearchDirectory, type SearchHost, type WireTarget } from '@openwork/tree-search/worker';
import { codeOf, ReadBuffer } from './search-file-read.ts';
import { DIRECTORY_FLAGS, PathDirectory, ProcDirectory, type KeptBetweenCalls } from './search-directories.ts';

/**
 * The search's host on Linux with /proc (docs/decisions/0009): every
 * directory is a descriptor opened with O_DIRECTORY | O_NOFOLLOW, and a name
 * is looked up under /proc/self/fd/N/, which is openat(2) without an addon.
 * Without /proc (`handles` false) each level is lstat-checked by path just
 * before it is used, the fallback of the main thread. With `cache`, the
 * walker keeps file summaries between calls, and with `listingBytes` its
 * directory listings, up to that many bytes (docs/decisions/0036).
 */
export function nodeSearchHost(options: { handles: boolean; cache?: SearchCacheOptions; listingBytes?: number }): SearchHost {
  const cache = options.cache?.budget.shared === undefined ? undefined : new SearchCache(options.cache);
  const listingBytes = cache === undefined ? 0 : (options.listingBytes ?? 0);
  const kept: KeptBetweenCalls = {
    buffer: new ReadBuffer({ identities: cache !== undefined }),
    listings: listingBytes > 0 ? new ListingCache({ maxBytes: listingBytes, ...(options.cache?.racyMs === undefined ? {} : { racyMs: options.cache.racyMs }) }) : undefined,
  };
  return { open: (target, path) => openTarget(target, path, () => openRoot(target, options.handles, kept)), ...(cache === undefined ? {} : { cache }) };
}

function openRoot(target: WireTarget, handles: boolean, kept: KeptBetweenCalls): SearchDirectory {
  // The identity is compared by the shared walk; here only what a descriptor cannot tell: by path, a symlink is not the root.
  if (!handles) {
    let stat: Stats;
    try {
      stat = lstatSync(target.root);
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes(codeOf(error) ?? '')) throw new SearchOpenError('root');
      throw error;
    }
    if (!stat.isDirectory()) throw new SearchOpenError('root');
    return new PathDirectory(target.root, stat, kept);
  }
  let fd: number;
  try {
    fd = openSync(target.root, DIRECTORY_FLAGS);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(codeOf(error) ?? '')) throw new SearchOpenError('root');
    throw error;
  }
  try {
    return new ProcDirectory(fd, fstatSync(fd), kept, target.root);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
