import type { EntryKind } from '@openwork/path-guard';

/** What an lstat or fstat tells the shared algorithms. */
export interface HostStat {
  readonly kind: EntryKind;
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  /** Permission bits (mode & 0o7777). */
  readonly mode: number;
  readonly mtimeMs: number;
  readonly uid: number;
  readonly gid: number;
}

export interface HostDirectoryEntry {
  readonly name: string;
  readonly kind: EntryKind;
}

/** An open regular-file candidate: opened without following a final symlink and without blocking. */
export interface ReadHandle {
  stat(): Promise<HostStat>;
  /** Reads up to `length` bytes into `into` at `offset`, from file position `position`; 0 at end of file. */
  read(into: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  /** Idempotent; never throws. */
  close(): Promise<void>;
}

/** A temp file we created exclusively, mode 0o600. */
export interface WriteHandle {
  write(data: Uint8Array): Promise<void>;
  chmod(mode: number): Promise<void>;
  /** Best effort: keeps an existing file's owner when the process may. */
  chown(uid: number, gid: number): Promise<void>;
  sync(): Promise<void>;
  /** Idempotent; never throws. */
  close(): Promise<void>;
}

/**
 * A directory opened without following a symlink (O_DIRECTORY | O_NOFOLLOW),
 * in which later calls look names up, as openat(2) and its kin do: a name is
 * found in this very directory even if it was moved or its path now leads
 * elsewhere (docs/decisions/0009). Names are single components, never `.`,
 * `..` or anything with a `/`.
 */
export interface DirectoryHandle {
  /** fstat of the directory itself. */
  stat(): Promise<HostStat>;
  /** The entry opened as a directory: ELOOP for a symlink, ENOTDIR for anything else that is not a directory. */
  openDirectory(name: string): Promise<DirectoryHandle>;
  lstat(name: string): Promise<HostStat>;
  readdir(): Promise<HostDirectoryEntry[]>;
  /** One level. */
  mkdir(name: string): Promise<void>;
  /** O_RDONLY | O_NOFOLLOW | O_NONBLOCK: a symlink is ELOOP, a FIFO does not block. */
  openRead(name: string): Promise<ReadHandle>;
  /** O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, mode 0o600. */
  createExclusive(name: string): Promise<WriteHandle>;
  /** Both names in this directory. */
  rename(from: string, to: string): Promise<void>;
  unlink(name: string): Promise<void>;
  /**
   * Removes a temp file this call made with createExclusive. Its random name
   * is what makes it ours, so nothing is re-checked first: a temp file left
   * behind is worse than an unlink that finds nothing.
   */
  discardTemp(name: string): Promise<void>;
  /** Makes a rename or unlink in the directory durable. */
  sync(): Promise<void>;
  /** Idempotent; never throws. */
  close(): Promise<void>;
}

/**
 * The system calls the shared algorithms need. Both file systems implement
 * it (node:fs, or the in-memory tree), so atomic write, bounded read and
 * locking are written once. Failures are Node-style errno errors.
 */
export interface Host {
  /** The path guard's probe: lstat by absolute path. */
  lstat(path: string): Promise<HostStat>;
  /** The path guard's probe: the raw target of a symlink. */
  readlink(path: string): Promise<string>;
  /** A canonical root, where every last mile starts: O_DIRECTORY | O_NOFOLLOW (the caller compares its identity). */
  openRoot(path: string): Promise<DirectoryHandle>;
  /** The mode a new file gets (the requested or default mode, less the host's umask). */
  newFileMode(requested: number | undefined): number;
}
