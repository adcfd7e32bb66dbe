import { posix } from 'node:path';
import type { CheckedPath, PathGuard } from '@openwork/path-guard';

/** The absolute form of a checked path, for records such as artifacts; never for opening. */
export function absoluteOf(guard: PathGuard, path: CheckedPath): string {
  return posix.isAbsolute(path.displayPath) ? path.displayPath : posix.join(guard.workingDirectory, path.displayPath);
}
