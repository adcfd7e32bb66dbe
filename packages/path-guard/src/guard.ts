import type { PathAccess, PathIntent } from './access.ts';
import type { CheckedPath, RootKind } from './checked-path.ts';
import type { EntryKind, PathProbe } from './probe.ts';

export interface PathGuardOptions {
  /** Absolute; always a writable root. */
  readonly workingDirectory: string;
  /** More writable roots (`--root`). */
  readonly writableRoots?: readonly string[];
  /** Readable, never writable (`--read-root`): a write there is `protected`. */
  readonly readOnlyRoots?: readonly string[];
  /** Readable by read/grep/glob/list, never writable (the skill root). */
  readonly protectedRoots?: readonly string[];
  readonly probe: PathProbe;
  /** Symlinks followed in one resolution before `symlink_loop`; default 40 as in Linux. */
  readonly maxSymlinks?: number;
}

export interface Root {
  readonly path: string;
  readonly kind: RootKind;
}

/**
 * The single entry through which every file tool gets a path (seed §8).
 * Created once per session: the roots are canonicalized then.
 */
export class PathGuard {
  private constructor() {
    throw new Error('implemented in the path-guard issue');
  }

  /** Canonicalizes every root; a root that does not exist or is not a directory is a programmer error. */
  static create(_options: PathGuardOptions): Promise<PathGuard> {
    throw new Error('implemented in the path-guard issue');
  }

  /** The canonical working directory. */
  get workingDirectory(): string {
    throw new Error('implemented in the path-guard issue');
  }

  get roots(): readonly Root[] {
    throw new Error('implemented in the path-guard issue');
  }

  /** Resolves and checks; throws ToolError (outside_root, protected, not_found, symlink_loop, name_too_long, not_a_directory, invalid_input). */
  resolvePath(_input: string, _access: PathAccess, _intent: PathIntent, _options?: { signal?: AbortSignal }): Promise<CheckedPath> {
    throw new Error('implemented in the path-guard issue');
  }

  /**
   * The CheckedPath of an entry listed inside an already checked directory,
   * without resolving again; only for `file`, `directory` and `other` entries
   * (a symlink goes through resolvePath). Used by list and the walker.
   */
  child(_parent: CheckedPath, _name: string, _kind: EntryKind): CheckedPath {
    throw new Error('implemented in the path-guard issue');
  }

  /** The display form of a canonical absolute path (CONTRACT.md §2). */
  displayPath(_absolutePath: string): string {
    throw new Error('implemented in the path-guard issue');
  }
}
