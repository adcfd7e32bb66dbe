import type { CheckedPath, ProbeStat } from '@openwork/path-guard';
import { readCheckedPath } from '@openwork/path-guard/backend';
import { ToolError } from '@openwork/tool-contract';
import type {
  AsyncFileSystem,
  DirectoryEntry,
  FileInfo,
  ListDirectoryOptions,
  LockOptions,
  ReadFileChunksOptions,
  ReadFileOptions,
  RemoveFileOptions,
  WriteFileOptions,
  WriteResult,
} from '../file-system.ts';
import { throwIfAborted } from './abort.ts';
import { writeAtomically } from './atomic-write.ts';
import { openContainer, type Container } from './directory-walk.ts';
import { errnoCode, toolErrorFromErrno } from './errno.ts';
import type { Host } from './host.ts';
import { readCheckedFile, readCheckedFileChunks } from './read-file.ts';
import { listCheckedDirectory } from './read-directory.ts';
import { removeIfUnchanged } from './remove-file.ts';
import { runTreeSearch, type SearchWalkers, type TreeSearchOptions, type TreeSearchRequest, type TreeSearchResult } from '@openwork/tree-search';
import { searchTargets } from './search-targets.ts';

/** Grants the lock on one canonical path; the returned function releases it. */
export interface Locker {
  acquire(realPath: string, signal: AbortSignal | undefined, what: string): Promise<() => Promise<void>>;
}

/**
 * AsyncFileSystem over a Host: the checks, the bounded read, the atomic write
 * and the lock protocol are this one code, so the Node and in-memory file
 * systems differ only in their system calls.
 */
export abstract class CheckedFileSystem implements AsyncFileSystem {
  abstract readonly name: string;
  readonly #host: Host;
  readonly #locker: Locker;
  readonly #walkers: SearchWalkers;

  protected constructor(host: Host, locker: Locker, walkers: SearchWalkers) {
    this.#host = host;
    this.#locker = locker;
    this.#walkers = walkers;
  }

  async lstat(absolutePath: string): Promise<ProbeStat | null> {
    try {
      const stat = await this.#host.lstat(absolutePath);
      return { kind: stat.kind, dev: stat.dev, ino: stat.ino };
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw toolErrorFromErrno(error, { operation: 'looking up', displayPath: absolutePath });
    }
  }

  async readlink(absolutePath: string): Promise<string> {
    try {
      return await this.#host.readlink(absolutePath);
    } catch (error) {
      // The guard asks only after lstat said symlink: EINVAL (not a symlink) means it was swapped meanwhile.
      if (errnoCode(error) === 'EINVAL') {
        throw new ToolError('stale', `${absolutePath} stopped being a symlink while the path was being resolved; retry`, { cause: error });
      }
      throw toolErrorFromErrno(error, { operation: 'reading the link', displayPath: absolutePath });
    }
  }

  async stat(path: CheckedPath, options?: { signal?: AbortSignal }): Promise<FileInfo> {
    const internals = readCheckedPath(path);
    throwIfAborted(options?.signal, `looking up ${path.displayPath}`);
    let container: Container | undefined;
    try {
      container = await openContainer(this.#host, internals, path.displayPath);
      const { directory, name } = container;
      const stat = name === null ? await directory.stat() : await directory.lstat(name);
      return { kind: stat.kind, size: stat.size, mode: stat.mode, mtimeMs: stat.mtimeMs };
    } catch (error) {
      throw toolErrorFromErrno(error, { operation: 'looking up', displayPath: path.displayPath });
    } finally {
      await container?.directory.close();
    }
  }

  readFile(path: CheckedPath, options: ReadFileOptions): Promise<Uint8Array> {
    return readCheckedFile(this.#host, path, options);
  }

  readFileChunks(path: CheckedPath, options: ReadFileChunksOptions): AsyncIterable<Uint8Array> {
    return readCheckedFileChunks(this.#host, path, options);
  }

  writeFile(path: CheckedPath, data: Uint8Array, options?: WriteFileOptions): Promise<WriteResult> {
    return writeAtomically(this.#host, path, data, options);
  }

  removeFile(path: CheckedPath, options: RemoveFileOptions): Promise<void> {
    return removeIfUnchanged(this.#host, path, options);
  }

  readDirectory(path: CheckedPath, options?: ListDirectoryOptions): Promise<DirectoryEntry[]> {
    return listCheckedDirectory(this.#host, path, options?.signal, options?.sizes ?? true);
  }

  searchTree(root: CheckedPath, request: TreeSearchRequest, options: TreeSearchOptions): Promise<TreeSearchResult> {
    return runTreeSearch({ walkers: this.#walkers, targets: searchTargets }, root, request, options);
  }

  /** docs/design.md §9 edit: one write lock per canonical path. Not reentrant: an action must not take the same lock again. */
  async withLock<T>(path: CheckedPath, action: () => Promise<T>, options?: LockOptions): Promise<T> {
    const { realPath } = readCheckedPath(path);
    const release = await this.#locker.acquire(realPath, options?.signal, `waiting for the lock on ${path.displayPath}`);
    try {
      return await action();
    } finally {
      await release();
    }
  }
}
