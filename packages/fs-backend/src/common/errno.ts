import { isToolError, ToolError } from '@openwork/tool-contract';

/** What the failing operation was doing, for the message the model reads. */
export interface ErrnoContext {
  /** A verb phrase: `reading`, `writing`, `listing`, `creating the directory`, … */
  readonly operation: string;
  /** The display path of the CheckedPath (never a real path the model did not give). */
  readonly displayPath: string;
}

/** The errno code of a Node-style error (`error.code`), or undefined. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The one errno → contract kind map, shared by the Node and in-memory file
 * systems so both fail the same way (docs/contract.md §3 error kinds). A
 * ToolError passes through unchanged.
 */
export function toolErrorFromErrno(error: unknown, context: ErrnoContext): ToolError {
  if (isToolError(error)) return error;
  const path = context.displayPath;
  const code = errnoCode(error);
  const options = { cause: error };
  switch (code) {
    case 'ENOENT':
      return new ToolError('not_found', `${path} does not exist (while ${context.operation}); check the path or list its directory`, options);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ToolError(
        'permission_denied',
        `permission denied while ${context.operation} ${path} (${code}); the file system does not allow it, choose another path`,
        options,
      );
    case 'EISDIR':
      return new ToolError('is_directory', `${path} is a directory; give a file path, or use list to see its entries`, options);
    case 'ENOTDIR':
      return new ToolError('not_a_directory', `a component of ${path} is not a directory; check the path`, options);
    case 'ENAMETOOLONG':
      return new ToolError('name_too_long', `a name in ${path} is too long for the file system; use a shorter name`, options);
    case 'ELOOP':
      return new ToolError('symlink_loop', `${path} has too many levels of symbolic links; give the real path`, options);
    case 'ESTALE':
      // The checked-path fallback's own code: a level on the way changed between its check and the call.
      return new ToolError('stale', `a directory on the way to ${path} changed while ${context.operation} it (it was moved or replaced by a symlink); retry`, options);
    case 'ENOSPC':
    case 'EDQUOT':
      return new ToolError('io', `no space left on device while ${context.operation} ${path}; free some space and retry`, options);
    default: {
      const detail = error instanceof Error ? error.message : String(error);
      return new ToolError('io', `${context.operation} ${path} failed (${code ?? 'unknown error'}: ${detail}); retry, or check the file system`, options);
    }
  }
}

/** A Node-style errno error, for the in-memory file system and injected faults. */
export function errnoError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
}
