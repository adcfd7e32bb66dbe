import type { AsyncFileSystem } from '../file-system.ts';

/**
 * What the contract suite needs from an implementation under test: the file
 * system, an empty canonical directory on it to use as the working root, and
 * ways to build and inspect a tree that do not go through the code under test.
 * Paths are absolute.
 */
export interface FileSystemFixture {
  readonly fs: AsyncFileSystem;
  /** An empty directory, canonical (no symlink on the way), used as the working directory. */
  readonly root: string;
  directory(path: string, options?: { mode?: number }): Promise<void>;
  /** Creates or replaces a file; the mode, when given, is set exactly. */
  file(path: string, content: string | Uint8Array, options?: { mode?: number }): Promise<void>;
  symlink(path: string, target: string): Promise<void>;
  fifo(path: string): Promise<void>;
  /** rename(2): replaces the destination. */
  rename(from: string, to: string): Promise<void>;
  /** Removes an entry and everything under it; nothing when absent. */
  remove(path: string): Promise<void>;
  /** The bytes of a file, or null when there is none. */
  readBytes(path: string): Promise<Uint8Array | null>;
  /** Entry names of a directory, sorted. */
  list(path: string): Promise<string[]>;
  /** Permission bits (lstat). */
  mode(path: string): Promise<number>;
  cleanup(): Promise<void>;
}

/** Makes a fresh fixture for each test. */
export type FileSystemFixtureFactory = () => Promise<FileSystemFixture>;
