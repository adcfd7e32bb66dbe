import { lstatSync } from 'node:fs';
import { readlink } from 'node:fs/promises';
import type { Host } from '../common/host.ts';
import { hostStat, onCallingThread } from './node-file-handles.ts';
import { PathDirectory } from './path-directory.ts';
import { ProcDirectory } from './proc-directory.ts';

/**
 * The host's system calls; the last mile through open directories or, without /proc, checked paths.
 * An lstat is made on the calling thread (docs/decisions/0042): it answers from the kernel's caches in
 * microseconds, where a trip through the thread pool costs tens.
 */
export function nodeHost(mode: 'handles' | 'paths'): Host {
  return {
    lstat: (path) => onCallingThread(() => hostStat(lstatSync(path))),
    readlink: (path) => readlink(path),
    openRoot: mode === 'handles' ? (path) => ProcDirectory.open(path) : (path) => PathDirectory.open(path),
    // process.umask() only reads the mask here; a new file gets the mode open(2) would give it.
    newFileMode: (requested) => (requested ?? 0o644) & ~process.umask() & 0o7777,
  };
}
