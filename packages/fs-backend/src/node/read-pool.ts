import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CheckedPath, EntryKind } from '@openwork/path-guard';
import { readCheckedPath, type CheckedPathInternals } from '@openwork/path-guard/backend';
import type { DirectoryEntry, ListDirectoryOptions, ReadDirectoriesEntry, ReadFilesEntry, ReadFilesOptions } from '../file-system.ts';
import { directoryChanged, notADirectory } from '../shared/read-directory.ts';
import { foldedPattern } from '../shared/content-filter.ts';
import { throwIfAborted } from '../shared/abort.ts';
import { baseOf, changedSinceChecked, knownIdentity, parentOf } from '../shared/checked.ts';
import { rootChanged } from '../shared/directory-walk.ts';
import { toolErrorFromErrno } from '../shared/errno.ts';
import { notRegularFile, tooLarge } from '../shared/read-file.ts';
import { WORKER_SOURCE } from './read-worker-source.ts';

/** What a worker sends back for one file. */
type WorkerResult =
  | { readonly ok: true; readonly buffer: ArrayBuffer; readonly length: number }
  | { readonly ok: true; readonly excluded: 'binary' | 'absent' }
  | { readonly ok: true; readonly deferred: true }
  | { readonly ok: false; readonly errno: string; readonly stage: 'lstat' | 'open' | 'read' }
  | { readonly ok: false; readonly kind: Exclude<EntryKind, 'file'> }
  | { readonly ok: false; readonly changed: true }
  | { readonly ok: false; readonly rootChanged: true }
  | { readonly ok: false; readonly size: number }
  | { readonly ok: false; readonly grew: true };

type ListResult =
  | { readonly ok: true; readonly entries: DirectoryEntry[] }
  | { readonly ok: false; readonly errno: string; readonly stage: 'lstat' | 'open' | 'read' }
  | { readonly ok: false; readonly kind: EntryKind }
  | { readonly ok: false; readonly changed: true }
  | { readonly ok: false; readonly rootChanged: true };

/** A file to read: its root, the directory that holds it (null when it is the root itself), its name, and the identity it must still have (0: unknown). */
interface FileTarget {
  readonly root: string;
  readonly directory: string | null;
  readonly name: string;
  readonly dev: number;
  readonly ino: number;
}

/** A directory to list: its root and its own canonical path (its identity, when known, is in the batch's directories). */
interface ListTarget {
  readonly root: string;
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/** The identities a batch's walks compare with: each root's from the session's start, each directory's as the guard saw it. */
interface BatchIdentities {
  readonly roots: ReadonlyArray<readonly [string, number, number]>;
  readonly directories: ReadonlyArray<readonly [string, number, number]>;
}

interface ListRequest extends BatchIdentities {
  readonly op: 'list';
  readonly id: number;
  readonly sizes: boolean;
  readonly files: readonly ListTarget[];
}

interface WorkerRequest extends BatchIdentities {
  readonly op: 'read';
  readonly id: number;
  readonly maxBytes: number;
  readonly sniff: number;
  readonly containing: Uint8Array | undefined;
  readonly folded: string | undefined;
  readonly files: readonly FileTarget[];
}

interface Pending {
  readonly resolve: (results: never[]) => void;
  readonly reject: (error: Error) => void;
}

class ReadWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #failed: Error | undefined;

  constructor(handles: boolean) {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { handles } });
    this.#worker.unref();
    this.#worker.on('message', (message: { id: number; results: never[] }) => {
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      this.#settled();
      pending?.resolve(message.results);
    });
    const fail = (error: Error) => {
      this.#failed = error;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`the file reading worker exited (${code})`)));
  }

  get failed(): boolean {
    return this.#failed !== undefined;
  }

  read(request: WorkerRequest): Promise<WorkerResult[]>;
  read(request: ListRequest): Promise<ListResult[]>;
  read(request: WorkerRequest | ListRequest): Promise<WorkerResult[] | ListResult[]> {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise<never[]>((resolve, reject) => {
      // A pending read keeps the process alive; an idle pool does not.
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(request.id, { resolve, reject });
      this.#worker.postMessage(request);
    });
  }

  #settled(): void {
    if (this.#pending.size === 0) this.#worker.unref();
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

export interface ReadPoolOptions {
  /** Worker threads; default the available parallelism, at most 4. */
  readonly size?: number | undefined;
  /** The last mile the workers walk: under /proc/self/fd, or lstat-checked paths (docs/decisions/0009). */
  readonly mode: 'handles' | 'paths';
}

/** Reads batches of files on a few worker threads (seed §9 grep: reading off the main thread). */
export class ReadPool {
  readonly #size: number;
  readonly #handles: boolean;
  #workers: ReadWorker[] = [];
  #next = 0;
  #ids = 0;

  constructor(options: ReadPoolOptions) {
    this.#size = options.size ?? Math.min(4, Math.max(1, availableParallelism()));
    this.#handles = options.mode === 'handles';
  }

  async readFiles(paths: readonly CheckedPath[], options: ReadFilesOptions): Promise<ReadFilesEntry[]> {
    const { maxBytes, signal } = options;
    if (options.containingIgnoringCase !== undefined) foldedPattern(options.containingIgnoringCase);
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
    throwIfAborted(signal, 'reading files');
    if (paths.length === 0) return [];
    const internals = paths.map((path) => readCheckedPath(path));
    const files = internals.map(fileTarget);
    const results: Array<WorkerResult | undefined> = new Array<WorkerResult | undefined>(files.length).fill(undefined);
    let todo = files.map((_, index) => index);
    while (todo.length > 0) {
      // Contiguous slices, one per worker, so each does one round trip.
      const workers = this.#take(Math.min(this.#size, Math.ceil(todo.length / 16)));
      const slice = Math.ceil(todo.length / workers.length);
      const slices = workers.map((_, index) => todo.slice(index * slice, (index + 1) * slice));
      const replies = await Promise.all(
        workers.map((worker, index) =>
          worker.read({
            op: 'read',
            id: (this.#ids += 1),
            maxBytes,
            sniff: options.binarySniffBytes ?? 0,
            containing: options.containing,
            folded: options.containingIgnoringCase,
            files: (slices[index] ?? []).map((at) => files[at] as FileTarget),
            ...identitiesOf((slices[index] ?? []).map((at) => internals[at] as CheckedPathInternals), { withTargets: false }),
          }),
        ),
      );
      // A batch of small files takes milliseconds: the signal is checked when it returns.
      throwIfAborted(signal, 'reading files');
      const next: number[] = [];
      replies.forEach((reply, part) => {
        const indexes = slices[part] ?? [];
        reply.forEach((result, offset) => {
          const at = indexes[offset] as number;
          if (result.ok && 'deferred' in result) next.push(at);
          else results[at] = result;
        });
      });
      todo = next;
    }
    return results.map((result, index) => toEntry(result as WorkerResult, paths[index] as CheckedPath, (internals[index] as CheckedPathInternals).root, maxBytes));
  }

  async readDirectories(paths: readonly CheckedPath[], options: ListDirectoryOptions = {}): Promise<ReadDirectoriesEntry[]> {
    const { signal } = options;
    throwIfAborted(signal, 'listing directories');
    if (paths.length === 0) return [];
    const internals = paths.map((path) => readCheckedPath(path));
    const workers = this.#take(Math.min(this.#size, Math.ceil(paths.length / 4)));
    const slice = Math.ceil(internals.length / workers.length);
    const parts = workers.map((worker, index) => {
      const part = internals.slice(index * slice, (index + 1) * slice);
      return worker.read({ op: 'list', id: (this.#ids += 1), sizes: options.sizes ?? true, files: part.map(listTarget), ...identitiesOf(part, { withTargets: true }) });
    });
    const results = (await Promise.all(parts)).flat();
    throwIfAborted(signal, 'listing directories');
    return results.map((result, index) => toListEntry(result, (paths[index] as CheckedPath).displayPath, (internals[index] as CheckedPathInternals).root));
  }

  /** Stops the workers; a later read starts new ones. */
  async close(): Promise<void> {
    const workers = this.#workers;
    this.#workers = [];
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  #take(count: number): ReadWorker[] {
    this.#workers = this.#workers.filter((worker) => !worker.failed);
    while (this.#workers.length < this.#size) this.#workers.push(new ReadWorker(this.#handles));
    const taken: ReadWorker[] = [];
    for (let index = 0; index < count; index += 1) {
      taken.push(this.#workers[this.#next % this.#workers.length] as ReadWorker);
      this.#next += 1;
    }
    return taken;
  }
}

function fileTarget(internals: CheckedPathInternals): FileTarget {
  const { realPath, identity, root } = internals;
  const { dev, ino } = knownIdentity(identity) ? identity : { dev: 0, ino: 0 };
  return realPath === root ? { root, directory: null, name: '', dev, ino } : { root, directory: parentOf(realPath), name: baseOf(realPath), dev, ino };
}

function listTarget(internals: CheckedPathInternals): ListTarget {
  const { realPath, identity, root } = internals;
  const { dev, ino } = knownIdentity(identity) ? identity : { dev: 0, ino: 0 };
  return { root, path: realPath, dev, ino };
}

/**
 * The identity tables of one batch, each path once. Entries of one listed
 * directory share their chain (the same frozen array), so it is read once.
 */
function identitiesOf(batch: readonly CheckedPathInternals[], options: { withTargets: boolean }): BatchIdentities {
  const roots = new Map<string, readonly [string, number, number]>();
  const directories = new Map<string, readonly [string, number, number]>();
  let previous: CheckedPathInternals['directories'] | undefined;
  for (const internals of batch) {
    if (!roots.has(internals.root)) roots.set(internals.root, [internals.root, internals.rootIdentity.dev, internals.rootIdentity.ino]);
    if (internals.directories !== previous) {
      for (const directory of internals.directories) {
        if (!directories.has(directory.path)) directories.set(directory.path, [directory.path, directory.dev, directory.ino]);
      }
      previous = internals.directories;
    }
    const { identity, realPath } = internals;
    if (options.withTargets && knownIdentity(identity) && !directories.has(realPath)) directories.set(realPath, [realPath, identity.dev, identity.ino]);
  }
  return { roots: [...roots.values()], directories: [...directories.values()] };
}

/** The same errors the shared bounded read throws, as entries. */
function toEntry(result: WorkerResult, path: CheckedPath, root: string, maxBytes: number): ReadFilesEntry {
  const displayPath = path.displayPath;
  if (result.ok) {
    if ('excluded' in result) return { ok: true, excluded: result.excluded };
    if ('deferred' in result) throw new Error('a deferred read was not retried');
    return { ok: true, bytes: new Uint8Array(result.buffer, 0, result.length) };
  }
  const error = (() => {
    if ('errno' in result) {
      if (result.stage === 'open' && result.errno === 'ELOOP') return changedSinceChecked(displayPath);
      return toolErrorFromErrno(Object.assign(new Error(result.errno), { code: result.errno }), { operation: 'reading', displayPath });
    }
    if ('kind' in result) return notRegularFile(result.kind, displayPath);
    if ('changed' in result) return changedSinceChecked(displayPath);
    if ('rootChanged' in result) return rootChanged(displayPath, root);
    if ('size' in result) return tooLarge(displayPath, `is ${result.size} bytes`, maxBytes);
    return tooLarge(displayPath, 'grew while being read', maxBytes);
  })();
  return { ok: false, error };
}

/** The same errors the shared listing throws, as entries. */
function toListEntry(result: ListResult, displayPath: string, root: string): ReadDirectoriesEntry {
  if (result.ok) return { ok: true, entries: result.entries };
  if ('errno' in result) {
    if (result.errno === 'ENOTDIR') return { ok: false, error: notADirectory(displayPath) };
    return { ok: false, error: toolErrorFromErrno(Object.assign(new Error(result.errno), { code: result.errno }), { operation: 'listing', displayPath }) };
  }
  if ('changed' in result) return { ok: false, error: directoryChanged(displayPath) };
  if ('rootChanged' in result) return { ok: false, error: rootChanged(displayPath, root) };
  return { ok: false, error: notADirectory(displayPath) };
}
