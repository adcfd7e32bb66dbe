import type { PathGuard } from '@openwork/path-guard';
import { isToolError } from '@openwork/tool-contract';

/** The first path whose real location is inside a `.git` directory, wherever a symlink leads. */
export async function gitDirectoryPath(effectPaths: readonly string[], paths: PathGuard | undefined, signal: AbortSignal): Promise<string | undefined> {
  for (const path of effectPaths) {
    if (path.split('/').includes('.git')) return path;
    if (paths === undefined) continue;
    try {
      if (paths.passesThrough(await paths.resolvePath(path, 'write', 'may_create', { signal }), '.git')) return path;
    } catch (error) {
      // The tool reports a path it cannot write with its own error.
      if (!isToolError(error)) throw error;
    }
  }
  return undefined;
}
