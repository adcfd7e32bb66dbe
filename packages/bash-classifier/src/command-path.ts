import { isToolError } from '@openwork/tool-contract';
import type { PathGuard } from '@openwork/path-guard';

const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * PATH when no entry is left: a file, not a directory, so no name resolves.
 * An empty PATH would not do: bash reads an empty entry as the current
 * directory.
 */
const NO_PROGRAMS = '/dev/null';

/**
 * PATH without relative or empty entries: an empty entry or `.` would let a
 * file in the repository named `git` or `ls` run instead of the program
 * the classifier approved. Unset, bash's own default would end in `.`.
 */
export function absolutePath(path: string | undefined): string {
  const entries = (path ?? '').split(':').filter((entry) => entry.startsWith('/'));
  return entries.length === 0 ? SAFE_PATH : entries.join(':');
}

/**
 * PATH for a command that runs without approval (docs/security.md): the
 * absolute entries of `path` that lie, once every symlink on the way is
 * followed, outside every root of the session, writable or read-only. A
 * repository's `node_modules/.bin` (which `pnpm exec` puts first) holds
 * whatever the repository, or an earlier command, put there: a `ls` in it
 * must not run in place of the system's. An entry the guard cannot place
 * (a loop, an I/O error) is left out too.
 */
export async function pathOutsideRoots(path: string | undefined, paths: PathGuard, signal?: AbortSignal): Promise<string> {
  const kept: string[] = [];
  for (const entry of absolutePath(path).split(':')) {
    if (kept.includes(entry)) continue;
    try {
      // Every symlink followed, outside the roots too: an entry outside that leads into a root is not outside.
      await paths.resolvePath(entry, 'read', 'may_create', { followOutside: true, ...(signal === undefined ? {} : { signal }) });
    } catch (error) {
      if (signal?.aborted === true || !isToolError(error)) throw error;
      if (error.kind === 'outside_root') kept.push(entry);
    }
  }
  return kept.length === 0 ? NO_PROGRAMS : kept.join(':');
}
