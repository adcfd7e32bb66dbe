import type { CheckedPath } from '@openwork/path-guard';
import { ToolError } from '@openwork/tool-contract';
import type { RemoveFileOptions } from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { writableInternals } from './checked.ts';
import { digestOf, type ContentDigest } from './digest.ts';
import { openContainer, type Container } from './directory-walk.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import type { Host } from './host.ts';

/**
 * Removes a file only if it still has the expected content (undo of a
 * create, docs/design.md §10). The caller holds withLock on the path, so the digest and
 * the unlink see the same file as far as this process tree is concerned; both
 * happen in the directory the walk opened (docs/decisions/0009).
 */
export async function removeIfUnchanged(host: Host, path: CheckedPath, options: RemoveFileOptions): Promise<void> {
  const internals = writableInternals(path);
  const displayPath = path.displayPath;
  const what = `removing ${displayPath}`;
  throwIfAborted(options.signal, what);
  let container: Container | undefined;
  try {
    container = await openContainer(host, internals, displayPath).catch((error: unknown) => {
      // A directory on the way is gone: so is the file.
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    });
    const name = container?.name ?? null;
    const current: ContentDigest =
      container === undefined ? { state: 'absent' } : name === null ? { state: 'other', kind: 'directory' } : await digestOf(container.directory, name, options.signal, what);
    if (current.state === 'other' && current.kind === 'directory') {
      throw new ToolError('is_directory', `${displayPath} is a directory now; it was left alone`);
    }
    if (container === undefined || name === null || current.state !== 'file' || current.sha256 !== options.expectedSha256.toLowerCase()) {
      const now = current.state === 'absent' ? 'it no longer exists' : current.state === 'other' ? `it is now a ${current.kind}` : 'its content changed';
      throw new ToolError('conflict', `${displayPath} is not the file expected (${now}); it was left alone`);
    }
    throwIfAborted(options.signal, what);
    await container.directory.unlink(name);
    await container.directory.sync().catch(() => undefined);
  } catch (error) {
    throw toolErrorFromErrno(error, { operation: 'removing', displayPath });
  } finally {
    await container?.directory.close();
  }
}
