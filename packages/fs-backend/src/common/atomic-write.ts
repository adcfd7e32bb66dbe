import type { CheckedPath } from '@openwork/path-guard';
import { ToolError } from '@openwork/tool-contract';
import type { WriteFileOptions, WriteResult } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { baseOf, writableInternals } from './checked.ts';
import { digestOf, type ContentDigest } from './digest.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import type { DirectoryHandle, Host, HostStat, WriteHandle } from './host.ts';
import { prepareDirectory } from './parents.ts';
import { tempName } from './temp-name.ts';

const tempAttempts = 5;

/**
 * docs/design.md §8/§9 write: the new content goes to a temp file created exclusively in
 * the target's directory (opened by the walk from the root, never through a
 * symlink), is flushed, then renamed over the target within that directory.
 * The target is never opened for writing, so a hard link or a symlink swapped
 * in at the target is replaced, not written through. No temp file survives a
 * failure.
 */
export async function writeAtomically(host: Host, path: CheckedPath, data: Uint8Array, options: WriteFileOptions = {}): Promise<WriteResult> {
  const internals = writableInternals(path);
  const displayPath = path.displayPath;
  const { signal } = options;
  const what = `writing ${displayPath}`;
  throwIfAborted(signal, what);
  let directory: DirectoryHandle | undefined;
  let temp: { name: string; handle: WriteHandle } | undefined;
  let committed = false;
  try {
    if (internals.realPath === internals.root) throw new ToolError('is_directory', `${displayPath} is a directory; give a file path`);
    // Every later step names entries of this open directory: a swap of any directory above it cannot redirect them (docs/decisions/0009).
    directory = await prepareDirectory(host, internals, displayPath, options);
    const target = baseOf(internals.realPath);
    temp = await createTemp(directory, target);
    throwIfAborted(signal, what);
    await temp.handle.write(data);
    if (options.expectedSha256 !== undefined) {
      // docs/design.md §9 edit: verify the digest again right before the commit.
      requireExpected(await digestOf(directory, target, signal, what), options.expectedSha256, displayPath);
    }
    const existing = await lstatOrNull(directory, target);
    if (existing?.kind === 'directory') throw new ToolError('is_directory', `${displayPath} is a directory; give a file path`);
    if (existing?.kind === 'other') throw new ToolError('not_a_file', `${displayPath} is a FIFO, socket or device, not a regular file; it cannot be written`);
    if (existing?.kind === 'file') {
      await temp.handle.chmod(existing.mode);
      await temp.handle.chown(existing.uid, existing.gid);
    } else {
      await temp.handle.chmod(host.newFileMode(options.mode));
    }
    await temp.handle.sync();
    await temp.handle.close();
    throwIfAborted(signal, what);
    await directory.rename(temp.name, target);
    committed = true;
    // The rename is done; a failed directory fsync does not undo it.
    await directory.sync().catch(() => undefined);
    return { created: existing === null, bytes: data.byteLength };
  } catch (error) {
    throw toolErrorFromErrno(error, { operation: 'writing', displayPath });
  } finally {
    if (directory && temp && !committed) {
      await temp.handle.close();
      await directory.discardTemp(temp.name).catch(() => undefined);
    }
    await directory?.close();
  }
}

async function createTemp(directory: DirectoryHandle, base: string): Promise<{ name: string; handle: WriteHandle }> {
  for (let attempt = 1; ; attempt += 1) {
    const name = tempName(base);
    try {
      return { name, handle: await directory.createExclusive(name) };
    } catch (error) {
      // Another writer's temp name: pick another; never touch a file we did not create.
      if (errnoCode(error) !== 'EEXIST' || attempt >= tempAttempts) throw error;
    }
  }
}

async function lstatOrNull(directory: DirectoryHandle, name: string): Promise<HostStat | null> {
  try {
    return await directory.lstat(name);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}

function requireExpected(current: ContentDigest, expected: string | null, displayPath: string): void {
  if (expected === null) {
    if (current.state === 'absent') return;
    throw new ToolError('stale', `${displayPath} exists now but was expected not to; read it and decide again`);
  }
  if (current.state === 'file' && current.sha256 === expected.toLowerCase()) return;
  const now = current.state === 'absent' ? 'it no longer exists' : current.state === 'other' ? `it is now a ${current.kind}` : 'its content changed';
  throw new ToolError('stale', `${displayPath} changed since it was read (${now}); read it again and retry`);
}
