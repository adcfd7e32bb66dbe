/** The kind of a directory entry as lstat sees it: a symlink is never followed for its kind. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface ProbeStat {
  readonly kind: EntryKind;
  readonly dev: number;
  readonly ino: number;
}

/**
 * The least the guard needs from a file system to find where a path really
 * lives. Both file systems implement it; path-guard itself never touches the
 * host. Paths are absolute and POSIX.
 */
export interface PathProbe {
  /** lstat of the path; null when it does not exist (ENOENT, or ENOTDIR on the way). */
  lstat(absolutePath: string): Promise<ProbeStat | null>;
  /** The raw target of a symlink. */
  readlink(absolutePath: string): Promise<string>;
}
