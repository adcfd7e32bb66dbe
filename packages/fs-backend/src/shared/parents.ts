import type { CheckedPathInternals } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import type { WriteFileOptions } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { joinPath, parentOf, verifyDirectory } from './checked.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import type { Host } from './host.ts';

/**
 * The directory the target goes in, made if asked. seed §9 write: parents are
 * created one level at a time from the checked existing parent, each verified
 * to be a real directory inside the root before the next, never recursively
 * first and checked after.
 */
export async function prepareDirectory(
  host: Host,
  internals: CheckedPathInternals,
  displayPath: string,
  options: WriteFileOptions,
): Promise<string> {
  const { missing, existingParent, realPath, root } = internals;
  if (missing.length <= 1) return missing.length === 1 ? existingParent : parentOf(realPath);
  if (options.createParents !== true) {
    throw new ToolError('not_found', `the directory for ${displayPath} does not exist; create its parent directories first`);
  }
  let directory = existingParent;
  for (const name of missing.slice(0, -1)) {
    throwIfAborted(options.signal, `creating the directories for ${displayPath}`);
    // mkdir follows the path, so the level it goes in is verified first; the writer verifies the last.
    await verifyDirectory(host, directory, root, displayPath);
    const next = joinPath(directory, name);
    try {
      await host.mkdir(next);
    } catch (error) {
      // Someone else made it meanwhile: fine, if it is a real directory (checked below).
      if (errnoCode(error) !== 'EEXIST') throw toolErrorFromErrno(error, { operation: 'creating a directory for', displayPath });
    }
    const stat = await host.lstat(next).catch((error: unknown) => {
      throw toolErrorFromErrno(error, { operation: 'creating a directory for', displayPath });
    });
    if (stat.kind !== 'directory') {
      throw new ToolError(
        stat.kind === 'symlink' ? 'stale' : 'not_a_directory',
        `${name}, on the way to ${displayPath}, is a ${stat.kind}, not a directory; check the path and retry`,
      );
    }
    directory = next;
  }
  return directory;
}
