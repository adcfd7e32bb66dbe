import { createHash } from 'node:crypto';
import type { EntryKind } from '@openwork/path-guard';
import { throwIfAborted } from './abort.ts';
import { errnoCode } from './errno.ts';
import type { DirectoryHandle, ReadHandle } from './host.ts';

/** What is at a path right now, for the expectedSha256 checks. */
export type ContentDigest =
  | { readonly state: 'absent' }
  | { readonly state: 'file'; readonly sha256: string }
  | { readonly state: 'other'; readonly kind: EntryKind };

const chunkBytes = 64 * 1024;

/** Hashes the current content of `name` in an open directory in chunks (never the whole file in memory), without following a symlink. */
export async function digestOf(directory: DirectoryHandle, name: string, signal: AbortSignal | undefined, what: string): Promise<ContentDigest> {
  let handle: ReadHandle;
  try {
    handle = await directory.openRead(name);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'absent' };
    if (code === 'ELOOP') return { state: 'other', kind: 'symlink' };
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (stat.kind !== 'file') return { state: 'other', kind: stat.kind };
    const hash = createHash('sha256');
    const buffer = new Uint8Array(chunkBytes);
    let position = 0;
    for (;;) {
      throwIfAborted(signal, what);
      const count = await handle.read(buffer, 0, buffer.length, position);
      if (count === 0) break;
      hash.update(buffer.subarray(0, count));
      position += count;
    }
    return { state: 'file', sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}
