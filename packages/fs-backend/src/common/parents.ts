import type { CheckedPathInternals } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import type { WriteFileOptions } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { openCheckedDirectory } from './directory-walk.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import type { DirectoryHandle, Host } from './host.ts';

/**
 * The open directory the target goes in, made if asked. docs/design.md §9 write:
 * parents are created one level at a time from the checked existing parent,
 * each made and then opened from the one above it without following a
 * symlink (docs/decisions/0009), never recursively first and checked after.
 */
export async function prepareDirectory(
  host: Host,
  internals: CheckedPathInternals,
  displayPath: string,
  options: WriteFileOptions,
): Promise<DirectoryHandle> {
  const { missing, existingParent } = internals;
  if (missing.length > 1 && options.createParents !== true) {
    throw new ToolError('not_found', `the directory for ${displayPath} does not exist; create its parent directories first`);
  }
  let directory = await openCheckedDirectory(host, internals, existingParent, displayPath);
  try {
    for (const name of missing.slice(0, -1)) {
      throwIfAborted(options.signal, `creating the directories for ${displayPath}`);
      try {
        await directory.mkdir(name);
      } catch (error) {
        // Someone else made it meanwhile: fine, if it is a real directory (the open below refuses anything else).
        if (errnoCode(error) !== 'EEXIST') throw toolErrorFromErrno(error, { operation: 'creating a directory for', displayPath });
      }
      const next = await directory.openDirectory(name).catch((error: unknown) => {
        const code = errnoCode(error);
        if (code === 'ELOOP' || code === 'ENOTDIR') {
          throw new ToolError(
            code === 'ELOOP' ? 'stale' : 'not_a_directory',
            `${name}, on the way to ${displayPath}, is ${code === 'ELOOP' ? 'a symlink' : 'not a directory'}; check the path and retry`,
          );
        }
        throw toolErrorFromErrno(error, { operation: 'creating a directory for', displayPath });
      });
      await directory.close();
      directory = next;
    }
    return directory;
  } catch (error) {
    await directory.close();
    throw error;
  }
}
