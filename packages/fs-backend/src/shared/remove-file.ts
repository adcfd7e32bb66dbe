import type { CheckedPath } from '@openwork/path-guard';
import { ToolError } from '@openwork/tool-contract';
import type { RemoveFileOptions } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { parentOf, verifyDirectory, writableInternals } from './checked.ts';
import { digestOf } from './digest.ts';
import { toolErrorFromErrno } from './errno.ts';
import type { Host } from './host.ts';

/**
 * Removes a file only if it still has the expected content (undo of a
 * create, seed §10). The caller holds withLock on the path, so the digest and
 * the unlink see the same file as far as this process tree is concerned.
 */
export async function removeIfUnchanged(host: Host, path: CheckedPath, options: RemoveFileOptions): Promise<void> {
  const internals = writableInternals(path);
  const displayPath = path.displayPath;
  const what = `removing ${displayPath}`;
  throwIfAborted(options.signal, what);
  const directory = parentOf(internals.realPath);
  try {
    const current = await digestOf(host, internals.realPath, options.signal, what);
    if (current.state === 'other' && current.kind === 'directory') {
      throw new ToolError('is_directory', `${displayPath} is a directory now; it was left alone`);
    }
    if (current.state !== 'file' || current.sha256 !== options.expectedSha256.toLowerCase()) {
      const now = current.state === 'absent' ? 'it no longer exists' : current.state === 'other' ? `it is now a ${current.kind}` : 'its content changed';
      throw new ToolError('conflict', `${displayPath} is not the file expected (${now}); it was left alone`);
    }
    throwIfAborted(options.signal, what);
    await verifyDirectory(host, directory, internals.root, displayPath);
    await host.unlink(internals.realPath);
  } catch (error) {
    throw toolErrorFromErrno(error, { operation: 'removing', displayPath });
  }
  await host.syncDirectory(directory).catch(() => undefined);
}
