import { lstat, readlink } from 'node:fs/promises';
import type { Host } from '../shared/host.ts';
import { hostStat } from './node-file-handles.ts';
import { PathDirectory } from './path-directory.ts';
import { ProcDirectory } from './proc-directory.ts';

/** The host's system calls, node:fs/promises only; the last mile through open directories or, without /proc, checked paths. */
export function nodeHost(mode: 'handles' | 'paths'): Host {
  return {
    lstat: async (path) => hostStat(await lstat(path)),
    readlink: (path) => readlink(path),
    openRoot: mode === 'handles' ? (path) => ProcDirectory.open(path) : (path) => PathDirectory.open(path),
    // process.umask() only reads the mask here; a new file gets the mode open(2) would give it.
    newFileMode: (requested) => (requested ?? 0o644) & ~process.umask() & 0o7777,
  };
}
