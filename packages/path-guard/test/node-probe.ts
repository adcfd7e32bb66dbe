import { lstat, readlink } from 'node:fs/promises';
import type { PathProbe } from '../src/index.ts';

/** A test-only probe on the real file system. */
export const nodeProbe: PathProbe = {
  async lstat(path) {
    try {
      const stat = await lstat(path);
      const kind = stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
      return { kind, dev: stat.dev, ino: stat.ino };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw error;
    }
  },
  readlink: (path) => readlink(path),
};
