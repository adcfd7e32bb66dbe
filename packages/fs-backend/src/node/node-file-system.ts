import { CheckedFileSystem } from '../shared/checked-file-system.ts';
import { nodeHost } from './node-host.ts';
import { defaultLockDirectory, NodeLocker } from './node-locker.ts';

export interface NodeFileSystemOptions {
  /** Where cross-process lock files live; default `os.tmpdir()/openwork-tools-locks`. Keep it outside every root. */
  readonly lockDirectory?: string;
  /** A lock not refreshed for this long is taken over (its holder died); default 10000, at least 2000. */
  readonly lockStaleMs?: number;
}

/**
 * The host file system (node:fs/promises). The only code that turns a
 * CheckedPath into real I/O (CONTRACT.md §1).
 */
export class NodeFileSystem extends CheckedFileSystem {
  readonly name = 'node';

  constructor(options: NodeFileSystemOptions = {}) {
    super(
      nodeHost,
      new NodeLocker({ directory: options.lockDirectory ?? defaultLockDirectory(), staleMs: Math.max(2000, options.lockStaleMs ?? 10_000) }),
    );
  }
}
