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
 * The system calls the shared algorithms need. Both file systems implement
 * it (node:fs, or the in-memory tree), so atomic write, bounded read and
 * locking are written once. Failures are Node-style errno errors.
 */
export interface Host {
  lstat(path: string): Promise<HostStat>;
  readlink(path: string): Promise<string>;
  readdir(path: string): Promise<HostDirectoryEntry[]>;
  /** One level, not recursive. */
  mkdir(path: string): Promise<void>;
  /** O_RDONLY | O_NOFOLLOW | O_NONBLOCK: a final symlink is ELOOP, a FIFO does not block. */
  openRead(path: string): Promise<ReadHandle>;
  /** O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, mode 0o600. */
  createExclusive(path: string): Promise<WriteHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Makes a rename or unlink in the directory durable. */
  syncDirectory(path: string): Promise<void>;
  /** The mode a new file gets (the requested or default mode, less the host's umask). */
  newFileMode(requested: number | undefined): number;
}
