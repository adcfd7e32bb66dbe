import type { CheckedPath, ProbeStat } from '@openwork/path-guard';
import { readCheckedPath } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import type { DirectoryEntry } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { joinPath, knownIdentity, sameIdentity } from './checked.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import type { Host } from './host.ts';

/** One level, kinds from lstat: a symlink is listed as a symlink, never followed (seed §9 list). */
export async function listCheckedDirectory(host: Host, path: CheckedPath, signal: AbortSignal | undefined, sizes = true): Promise<DirectoryEntry[]> {
  const { realPath, identity } = readCheckedPath(path);
  const displayPath = path.displayPath;
  const what = `listing ${displayPath}`;
  throwIfAborted(signal, what);
  try {
    // readdir follows a final symlink; one swapped in after the check must not be listed through.
    await requireSameDirectory(host, realPath, identity, displayPath);
    const found = await host.readdir(realPath);
    await requireSameDirectory(host, realPath, identity, displayPath);
    const entries: DirectoryEntry[] = [];
    for (const entry of found) {
      throwIfAborted(signal, what);
      if (entry.kind !== 'file' || !sizes) {
        entries.push({ name: entry.name, kind: entry.kind });
        continue;
      }
      const stat = await host.lstat(joinPath(realPath, entry.name)).catch((error: unknown) => {
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
  }
}

async function requireSameDirectory(host: Host, realPath: string, identity: ProbeStat | null, displayPath: string): Promise<void> {
  const stat = await host.lstat(realPath);
  if (stat.kind === 'symlink' || (knownIdentity(identity) && !sameIdentity(identity, stat))) throw directoryChanged(displayPath);
  if (stat.kind !== 'directory') throw notADirectory(displayPath);
}

export function directoryChanged(displayPath: string): ToolError {
  return new ToolError('stale', `${displayPath} changed since it was checked (replaced or turned into a symlink); retry`);
}

export function notADirectory(displayPath: string): ToolError {
  return new ToolError('not_a_directory', `${displayPath} is not a directory; give a directory path, or read the file`);
}
