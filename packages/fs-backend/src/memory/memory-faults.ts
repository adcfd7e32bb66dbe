import { baseOf, joinPath, parentOf } from '../common/checked.ts';
import { errnoError } from '../common/errno.ts';
import { tempTargetName } from '../common/temp-name.ts';

/** The system calls a fault can be injected into. `write` and `sync` are on the temp file of a write; `rename` matches its source or destination. */
export type FaultOperation = 'lstat' | 'readlink' | 'readdir' | 'mkdir' | 'open' | 'read' | 'write' | 'sync' | 'rename' | 'unlink';

/** The errno an injected fault fails with; mapped to contract kinds exactly as Node's are. */
export type FaultCode = 'ENOSPC' | 'EDQUOT' | 'EACCES' | 'EPERM' | 'EROFS' | 'EIO' | 'ENOENT' | 'ENOTDIR' | 'EISDIR' | 'ELOOP' | 'ENAMETOOLONG';

interface Fault {
  readonly path: string;
  readonly operation: FaultOperation;
  readonly code: FaultCode;
}

/**
 * Injected failures. A fault on a path applies to the operation on that
 * path, on anything below it (a full disk under a directory), and on the
 * temp file of a write to it, so a test can fail a write whose temp name it
 * cannot know.
 */
export class FaultTable {
  readonly #faults: Fault[] = [];

  add(path: string, operation: FaultOperation, code: FaultCode): void {
    this.#faults.push({ path: path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path, operation, code });
  }

  clear(): void {
    this.#faults.length = 0;
  }

  /** Throws the injected errno when a fault matches. */
  check(operation: FaultOperation, ...paths: string[]): void {
    for (const fault of this.#faults) {
      if (fault.operation !== operation) continue;
      if (paths.some((path) => matches(fault.path, path))) throw errnoError(fault.code, operation, paths[0] ?? fault.path);
    }
  }
}

function matches(faultPath: string, path: string): boolean {
  if (path === faultPath || path.startsWith(faultPath === '/' ? '/' : `${faultPath}/`)) return true;
  const target = tempTargetName(baseOf(path));
  return target !== undefined && joinPath(parentOf(path), target) === faultPath;
}
