import type { CheckedPath } from '@openwork/path-guard';
import { ToolError } from '@openwork/tool-contract';
import type { WriteFileOptions, WriteResult } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { baseOf, joinPath, verifyDirectory, writableInternals } from './checked.ts';
import { digestOf, type ContentDigest } from './digest.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import type { Host, HostStat, WriteHandle } from './host.ts';
import { prepareDirectory } from './parents.ts';
import { tempName } from './temp-name.ts';

const tempAttempts = 5;

/**
 * seed §8/§9 write: the new content goes to a temp file created exclusively in
 * the verified directory, is flushed, then renamed over the target. The
 * target is never opened for writing, so a hard link or a symlink swapped in
 * at the target is replaced, not written through. No temp file survives a
 * failure.
 */
export async function writeAtomically(host: Host, path: CheckedPath, data: Uint8Array, options: WriteFileOptions = {}): Promise<WriteResult> {
  const internals = writableInternals(path);
  const displayPath = path.displayPath;
  const { signal } = options;
  const what = `writing ${displayPath}`;
  throwIfAborted(signal, what);
  let temp: { path: string; handle: WriteHandle } | undefined;
  let committed = false;
  try {
    const directory = await prepareDirectory(host, internals, displayPath, options);
    const target = joinPath(directory, baseOf(internals.realPath));
    // Checked before the temp is made, too, so it is never created through a swapped-in symlink.
    await verifyDirectory(host, directory, internals.root, displayPath);
    temp = await createTemp(host, directory, baseOf(target));
    throwIfAborted(signal, what);
    await temp.handle.write(data);
    if (options.expectedSha256 !== undefined) {
      // seed §9 edit: verify the digest again right before the commit.
      requireExpected(await digestOf(host, target, signal, what), options.expectedSha256, displayPath);
    }
    const existing = await lstatOrNull(host, target);
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
    await verifyDirectory(host, directory, internals.root, displayPath);
    await host.rename(temp.path, target);
    committed = true;
    // The rename is done; a failed directory fsync does not undo it.
    await host.syncDirectory(directory).catch(() => undefined);
    return { created: existing === null, bytes: data.byteLength };
  } catch (error) {
    throw toolErrorFromErrno(error, { operation: 'writing', displayPath });
  } finally {
    if (temp && !committed) {
      await temp.handle.close();
      await host.unlink(temp.path).catch(() => undefined);
    }
  }
}

async function createTemp(host: Host, directory: string, base: string): Promise<{ path: string; handle: WriteHandle }> {
  for (let attempt = 1; ; attempt += 1) {
    const path = joinPath(directory, tempName(base));
    try {
      return { path, handle: await host.createExclusive(path) };
    } catch (error) {
      // Another writer's temp name: pick another; never touch a file we did not create.
      if (errnoCode(error) !== 'EEXIST' || attempt >= tempAttempts) throw error;
    }
  }
}

async function lstatOrNull(host: Host, path: string): Promise<HostStat | null> {
  try {
    return await host.lstat(path);
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
