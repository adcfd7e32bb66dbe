import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CheckedPath, EntryKind } from '@openwork/path-guard';
import { readCheckedPath } from '@openwork/path-guard/backend';
import type { DirectoryEntry, ListDirectoryOptions, ReadDirectoriesEntry, ReadFilesEntry, ReadFilesOptions } from '../file-system.ts';
import { directoryChanged, notADirectory } from '../shared/read-directory.ts';
import { foldedPattern } from '../shared/content-filter.ts';
import { throwIfAborted } from '../shared/abort.ts';
import { changedSinceChecked, knownIdentity } from '../shared/checked.ts';
import { toolErrorFromErrno } from '../shared/errno.ts';
import { notRegularFile, tooLarge } from '../shared/read-file.ts';

/** What a worker sends back for one file. */
type WorkerResult =
  | { readonly ok: true; readonly buffer: ArrayBuffer; readonly length: number }
  | { readonly ok: true; readonly excluded: 'binary' | 'absent' }
  | { readonly ok: true; readonly deferred: true }
  | { readonly ok: false; readonly errno: string; readonly stage: 'lstat' | 'open' | 'read' }
  | { readonly ok: false; readonly kind: Exclude<EntryKind, 'file'> }
  | { readonly ok: false; readonly changed: true }
  | { readonly ok: false; readonly size: number }
  | { readonly ok: false; readonly grew: true };

type ListResult =
  | { readonly ok: true; readonly entries: DirectoryEntry[] }
  | { readonly ok: false; readonly errno: string; readonly stage: 'lstat' | 'read' }
  | { readonly ok: false; readonly kind: EntryKind }
  | { readonly ok: false; readonly changed: true };

interface ListRequest {
  readonly op: 'list';
  readonly id: number;
  readonly sizes: boolean;
  readonly files: ReadonlyArray<{ readonly path: string; readonly dev: number; readonly ino: number }>;
}

interface WorkerRequest {
  readonly op: 'read';
  readonly id: number;
  readonly maxBytes: number;
  readonly sniff: number;
  readonly containing: Uint8Array | undefined;
  readonly folded: string | undefined;
  readonly files: ReadonlyArray<{ readonly path: string; readonly dev: number; readonly ino: number }>;
}

/**
 * The worker: the same steps as the shared bounded read (lstat, open with
 * O_NOFOLLOW | O_NONBLOCK, fstat, identity, size, read at most maxBytes + 1),
 * as synchronous system calls, so a batch costs no thread-pool round trips.
 * Evaluated from source: it needs only Node's own modules.
 */
/** Bytes of file content one worker reply carries at most (plus the file that crosses it). */
const REPLY_BYTES = 8 * 1024 * 1024;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY;
const kindOf = (stat) => stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other';
function readOne(file, maxBytes, filter) {
  let stat;
  try { stat = fs.lstatSync(file.path); } catch (error) { return { ok: false, errno: String(error.code), stage: 'lstat' }; }
  if (!stat.isFile()) return { ok: false, kind: kindOf(stat) };
  let fd;
  try { fd = fs.openSync(file.path, FLAGS); } catch (error) { return { ok: false, errno: String(error.code), stage: 'open' }; }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return { ok: false, kind: kindOf(opened) };
    if (file.ino !== 0 && (opened.dev !== file.dev || opened.ino !== file.ino)) return { ok: false, changed: true };
    if (opened.size > maxBytes) return { ok: false, size: opened.size };
    const limit = maxBytes + 1;
    let buffer = new Uint8Array(Math.min(opened.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (buffer.length >= limit) break;
        const grown = new Uint8Array(Math.min(limit, buffer.length * 2));
        grown.set(buffer);
        buffer = grown;
      }
      const count = fs.readSync(fd, buffer, length, buffer.length - length, length);
      if (count === 0) break;
      length += count;
    }
    if (length > maxBytes) return { ok: false, grew: true };
    const view = Buffer.from(buffer.buffer, 0, length);
    if (filter.sniff > 0 && view.subarray(0, filter.sniff).includes(0)) return { ok: true, excluded: 'binary' };
    if (filter.containing !== undefined && view.indexOf(filter.containing) === -1) return { ok: true, excluded: 'absent' };
    if (filter.folded !== undefined && !containsFolded(view, filter.folded, filter.foldedLength)) return { ok: true, excluded: 'absent' };
    return { ok: true, buffer: buffer.buffer, length };
  } catch (error) {
    return { ok: false, errno: String(error.code), stage: 'read' };
  } finally {
    try { fs.closeSync(fd); } catch {}
  }
}
function listOne(directory, sizes) {
  const same = () => {
    let stat;
    try { stat = fs.lstatSync(directory.path); } catch (error) { return { ok: false, errno: String(error.code), stage: 'lstat' }; }
    if (stat.isSymbolicLink() || (directory.ino !== 0 && (stat.dev !== directory.dev || stat.ino !== directory.ino))) return { ok: false, changed: true };
    if (!stat.isDirectory()) return { ok: false, kind: kindOf(stat) };
    return undefined;
  };
  const before = same();
  if (before) return before;
  let found;
  try { found = fs.readdirSync(directory.path, { withFileTypes: true }); } catch (error) { return { ok: false, errno: String(error.code), stage: 'read' }; }
  const after = same();
  if (after) return after;
  const entries = [];
  for (const entry of found) {
    const kind = kindOf(entry);
    if (kind !== 'file' || !sizes) { entries.push({ name: entry.name, kind }); continue; }
    let stat;
    try { stat = fs.lstatSync(directory.path + '/' + entry.name); } catch (error) { if (error.code === 'ENOENT') continue; return { ok: false, errno: String(error.code), stage: 'read' }; }
    entries.push(stat.isFile() ? { name: entry.name, kind: 'file', size: stat.size } : { name: entry.name, kind: kindOf(stat) });
  }
  return { ok: true, entries };
}
// In windows of 256 KiB that overlap by the literal's length: small strings, whatever the file's size.
function containsFolded(view, pattern, length) {
  const WINDOW = 262144;
  for (let start = 0; start < view.length; start += WINDOW) {
    const end = Math.min(view.length, start + WINDOW + length - 1);
    if (pattern.test(view.toString('latin1', start, end))) return true;
    if (end === view.length) break;
  }
  return false;
}
const escape = (text) => text.replace(/[\\\\^$.*+?()[\\]{}|/]/g, '\\\\$&');
parentPort.on('message', (request) => {
  if (request.op === 'list') {
    parentPort.postMessage({ id: request.id, results: request.files.map((directory) => listOne(directory, request.sizes)) });
    return;
  }
  const filter = {
    sniff: request.sniff,
    containing: request.containing === undefined || request.containing.length === 0 ? undefined : Buffer.from(request.containing),
    folded: request.folded === undefined || request.folded === '' ? undefined : new RegExp(escape(request.folded), 'i'),
    foldedLength: request.folded === undefined ? 0 : request.folded.length,
  };
  // Bounded memory: once a reply holds this many bytes, the rest of the batch is deferred to the next request.
  let held = 0;
  const results = request.files.map((file) => {
    if (held >= ${REPLY_BYTES}) return { ok: true, deferred: true };
    const result = readOne(file, request.maxBytes, filter);
    if (result.buffer !== undefined) held += result.length;
    return result;
  });
  parentPort.postMessage({ id: request.id, results }, results.filter((result) => result.buffer !== undefined).map((result) => result.buffer));
});
`;

interface Pending {
  readonly resolve: (results: never[]) => void;
  readonly reject: (error: Error) => void;
}

class ReadWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #failed: Error | undefined;

  constructor() {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true });
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

/** Reads batches of files on a few worker threads (seed §9 grep: reading off the main thread). */
export class ReadPool {
  readonly #size: number;
  #workers: ReadWorker[] = [];
  #next = 0;
  #ids = 0;

  constructor(size = Math.min(4, Math.max(1, availableParallelism()))) {
    this.#size = size;
  }

  async readFiles(paths: readonly CheckedPath[], options: ReadFilesOptions): Promise<ReadFilesEntry[]> {
    const { maxBytes, signal } = options;
    if (options.containingIgnoringCase !== undefined) foldedPattern(options.containingIgnoringCase);
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
    throwIfAborted(signal, 'reading files');
    if (paths.length === 0) return [];
    const files = paths.map(locate);
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
            files: (slices[index] ?? []).map((at) => files[at] as (typeof files)[number]),
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
    return results.map((result, index) => toEntry(result as WorkerResult, paths[index] as CheckedPath, maxBytes));
  }

  async readDirectories(paths: readonly CheckedPath[], options: ListDirectoryOptions = {}): Promise<ReadDirectoriesEntry[]> {
    const { signal } = options;
    throwIfAborted(signal, 'listing directories');
    if (paths.length === 0) return [];
    const files = paths.map(locate);
    const workers = this.#take(Math.min(this.#size, Math.ceil(paths.length / 4)));
    const slice = Math.ceil(files.length / workers.length);
    const parts = workers.map((worker, index) =>
      worker.read({ op: 'list', id: (this.#ids += 1), sizes: options.sizes ?? true, files: files.slice(index * slice, (index + 1) * slice) }),
    );
    const results = (await Promise.all(parts)).flat();
    throwIfAborted(signal, 'listing directories');
    return results.map((result, index) => toListEntry(result, (paths[index] as CheckedPath).displayPath));
  }

  /** Stops the workers; a later read starts new ones. */
  async close(): Promise<void> {
    const workers = this.#workers;
    this.#workers = [];
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  #take(count: number): ReadWorker[] {
    this.#workers = this.#workers.filter((worker) => !worker.failed);
    while (this.#workers.length < this.#size) this.#workers.push(new ReadWorker());
    const taken: ReadWorker[] = [];
    for (let index = 0; index < count; index += 1) {
      taken.push(this.#workers[this.#next % this.#workers.length] as ReadWorker);
      this.#next += 1;
    }
    return taken;
  }
}

/** Where a worker finds a checked path, and the dev/ino it must still have (0 when the guard did not learn them). */
function locate(path: CheckedPath): { path: string; dev: number; ino: number } {
  const { realPath, identity } = readCheckedPath(path);
  return knownIdentity(identity) ? { path: realPath, dev: identity.dev, ino: identity.ino } : { path: realPath, dev: 0, ino: 0 };
}

/** The same errors the shared bounded read throws, as entries. */
function toEntry(result: WorkerResult, path: CheckedPath, maxBytes: number): ReadFilesEntry {
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
    if ('size' in result) return tooLarge(displayPath, `is ${result.size} bytes`, maxBytes);
    return tooLarge(displayPath, 'grew while being read', maxBytes);
  })();
  return { ok: false, error };
}

/** The same errors the shared listing throws, as entries. */
function toListEntry(result: ListResult, displayPath: string): ReadDirectoriesEntry {
  if (result.ok) return { ok: true, entries: result.entries };
  if ('errno' in result) {
    return { ok: false, error: toolErrorFromErrno(Object.assign(new Error(result.errno), { code: result.errno }), { operation: 'listing', displayPath }) };
  }
  if ('changed' in result) return { ok: false, error: directoryChanged(displayPath) };
  return { ok: false, error: notADirectory(displayPath) };
}
