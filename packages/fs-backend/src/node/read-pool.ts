import type { CheckedPath } from '@openwork/path-guard';
import { readCheckedPath, type CheckedPathInternals } from '@openwork/path-guard/backend';
import type { ListDirectoryOptions, ReadDirectoriesEntry, ReadFilesEntry, ReadFilesOptions } from '../file-system.ts';
import { directoryChanged, notADirectory } from '../shared/read-directory.ts';
import { foldedPattern } from '../shared/content-filter.ts';
import { throwIfAborted } from '../shared/abort.ts';
import { baseOf, changedSinceChecked, knownIdentity, parentOf } from '../shared/checked.ts';
import { rootChanged } from '../shared/directory-walk.ts';
import { toolErrorFromErrno } from '../shared/errno.ts';
import { notRegularFile, tooLarge } from '../shared/read-file.ts';
import type { BatchIdentities, FileTarget, ListResult, ListTarget, ReadResult } from '../search/worker/protocol.ts';
import type { WorkerPool } from './worker-pool.ts';

/** Reads and lists batches of paths on the file system's worker threads (docs/design.md §9 grep: reading off the main thread; docs/decisions/0007). */
export class ReadPool {
  readonly #pool: WorkerPool;

  constructor(pool: WorkerPool) {
    this.#pool = pool;
  }

  async readFiles(paths: readonly CheckedPath[], options: ReadFilesOptions): Promise<ReadFilesEntry[]> {
    const { maxBytes, signal } = options;
    if (options.containingIgnoringCase !== undefined) foldedPattern(options.containingIgnoringCase);
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
    throwIfAborted(signal, 'reading files');
    if (paths.length === 0) return [];
    const internals = paths.map((path) => readCheckedPath(path));
    const files = internals.map(fileTarget);
    const results: Array<ReadResult | undefined> = new Array<ReadResult | undefined>(files.length).fill(undefined);
    let todo = files.map((_, index) => index);
    while (todo.length > 0) {
      // Contiguous slices, one per worker, so each does one round trip.
      const parts = Math.min(this.#pool.size, Math.ceil(todo.length / 16));
      const slice = Math.ceil(todo.length / parts);
      const slices = Array.from({ length: parts }, (_, index) => todo.slice(index * slice, (index + 1) * slice));
      const replies = await Promise.all(
        slices.map(
          (indexes) =>
            this.#pool.request((id) => ({
              op: 'read',
              id,
              maxBytes,
              sniff: options.binarySniffBytes ?? 0,
              containing: options.containing,
              folded: options.containingIgnoringCase,
              files: indexes.map((at) => files[at] as FileTarget),
              ...identitiesOf(indexes.map((at) => internals[at] as CheckedPathInternals), { withTargets: false }),
            })) as Promise<readonly ReadResult[]>,
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
    return results.map((result, index) => toEntry(result as ReadResult, paths[index] as CheckedPath, (internals[index] as CheckedPathInternals).root, maxBytes));
  }

  async readDirectories(paths: readonly CheckedPath[], options: ListDirectoryOptions = {}): Promise<ReadDirectoriesEntry[]> {
    const { signal } = options;
    throwIfAborted(signal, 'listing directories');
    if (paths.length === 0) return [];
    const internals = paths.map((path) => readCheckedPath(path));
    const count = Math.min(this.#pool.size, Math.ceil(paths.length / 4));
    const slice = Math.ceil(internals.length / count);
    const parts = Array.from({ length: count }, (_, index) => {
      const part = internals.slice(index * slice, (index + 1) * slice);
      return this.#pool.request((id) => ({ op: 'list', id, sizes: options.sizes ?? true, files: part.map(listTarget), ...identitiesOf(part, { withTargets: true }) })) as Promise<readonly ListResult[]>;
    });
    const results = (await Promise.all(parts)).flat();
    throwIfAborted(signal, 'listing directories');
    return results.map((result, index) => toListEntry(result, (paths[index] as CheckedPath).displayPath, (internals[index] as CheckedPathInternals).root));
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
function toEntry(result: ReadResult, path: CheckedPath, root: string, maxBytes: number): ReadFilesEntry {
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
