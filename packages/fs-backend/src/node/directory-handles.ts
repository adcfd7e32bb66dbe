import { closeSync, fstatSync, openSync, statSync } from 'node:fs';
import { errnoCode } from '../common/errno.ts';
import { directoryFlags } from './node-file-handles.ts';

/** How the Node file system walks the last mile from a root to a file, and why (docs/decisions/0009). */
export interface DirectoryHandleSupport {
  /**
   * `handles`: every directory is held open and names are resolved under
   * /proc/self/fd, so a swap after the check cannot redirect a call.
   * `paths`: each level is checked with lstat just before use; a swap in
   * between can still redirect a call.
   */
  readonly mode: 'handles' | 'paths';
  readonly reason: string;
}

let detected: DirectoryHandleSupport | undefined;

/** Whether this process can resolve names under /proc/self/fd/N; probed once. */
export function detectDirectoryHandles(): DirectoryHandleSupport {
  detected ??= probe();
  return detected;
}

function probe(): DirectoryHandleSupport {
  if (process.platform !== 'linux') {
    return { mode: 'paths', reason: `${process.platform} has no /proc/self/fd to resolve a name under an open directory` };
  }
  let fd: number | undefined;
  try {
    fd = openSync('/', directoryFlags);
    const opened = fstatSync(fd);
    const through = statSync(`/proc/self/fd/${fd}/.`);
    if (opened.dev === through.dev && opened.ino === through.ino) {
      return { mode: 'handles', reason: 'Linux: names are resolved under /proc/self/fd/N of directories opened with O_DIRECTORY | O_NOFOLLOW' };
    }
    return { mode: 'paths', reason: '/proc/self/fd/N does not lead to the directory open as N (a /proc of another process or host?)' };
  } catch (error) {
    return { mode: 'paths', reason: `/proc/self/fd cannot be used here (${errnoCode(error) ?? String(error)})` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
