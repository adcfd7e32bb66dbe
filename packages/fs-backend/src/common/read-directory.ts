import type { CheckedPath } from '@openwork/path-guard';
import { readCheckedPath, type CheckedPathInternals } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import type { DirectoryEntry } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { openCheckedDirectory } from './directory-walk.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import type { DirectoryHandle, Host } from './host.ts';

/** One level, kinds from lstat: a symlink is listed as a symlink, never followed (docs/design.md §9 list). */
export async function listCheckedDirectory(host: Host, path: CheckedPath, signal: AbortSignal | undefined, sizes = true): Promise<DirectoryEntry[]> {
  const internals = readCheckedPath(path);
  const displayPath = path.displayPath;
  const what = `listing ${displayPath}`;
  throwIfAborted(signal, what);
  let directory: DirectoryHandle | undefined;
  try {
    // Opened from its (walked) parent with O_NOFOLLOW: one swapped for a symlink, or for another directory, after the check is never listed.
    directory = await openListed(host, internals, displayPath);
    const found = await directory.readdir();
    const entries: DirectoryEntry[] = [];
    for (const entry of found) {
      throwIfAborted(signal, what);
      if (entry.kind !== 'file' || !sizes) {
        entries.push({ name: entry.name, kind: entry.kind });
        continue;
      }
      const stat = await directory.lstat(entry.name).catch((error: unknown) => {
        // Removed between readdir and lstat: it is no longer an entry.
        if (errnoCode(error) === 'ENOENT') return null;
        throw error;
      });
      if (stat === null) continue;
      entries.push(stat.kind === 'file' ? { name: entry.name, kind: 'file', size: stat.size } : { name: entry.name, kind: stat.kind });
    }
    return entries;
  } catch (error) {
    throw toolErrorFromErrno(error, { operation: 'listing', displayPath });
  } finally {
    await directory?.close();
  }
}

/** The directory itself, by the last-mile walk down to it: its identity is checked as every directory's on the way is. */
async function openListed(host: Host, internals: CheckedPathInternals, displayPath: string): Promise<DirectoryHandle> {
  try {
    return await openCheckedDirectory(host, internals, internals.realPath, displayPath);
  } catch (error) {
    if (errnoCode(error) === 'ENOTDIR') throw notADirectory(displayPath);
    throw error;
  }
}

export function directoryChanged(displayPath: string): ToolError {
  return new ToolError('stale', `${displayPath} changed since it was checked (replaced or turned into a symlink); retry`);
}

export function notADirectory(displayPath: string): ToolError {
  return new ToolError('not_a_directory', `${displayPath} is not a directory; give a directory path, or read the file`);
}
