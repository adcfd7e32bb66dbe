import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, type Dirent, type Stats } from 'node:fs';
import type { DirectoryEntry } from '../../file-system.ts';
import type { EntryKind } from '@openwork/path-guard';
import { REPLY_BYTES, type FileTarget, type ListRequest, type ListResult, type ListTarget, type ReadRequest, type ReadResult } from './protocol.ts';

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const WINDOW = 256 * 1024;

type Fail = { readonly fail: ReadResult & ListResult };
interface Level {
  readonly path: string;
  readonly self: string;
  at(name: string): string;
}
type Found = Level | Fail;

const rootChanged: Fail = { fail: { ok: false, rootChanged: true } };
const changed: Fail = { fail: { ok: false, changed: true } };

function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'EIO';
}

const failed = (error: unknown, stage: 'lstat' | 'open' | 'read'): Fail => ({ fail: { ok: false, errno: codeOf(error), stage } });
const kindOf = (entry: Dirent | Stats): EntryKind => (entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'other');
const inside = (root: string, path: string) => path === root || path.startsWith(root === '/' ? '/' : `${root}/`);
const isFail = (found: Found): found is Fail => 'fail' in found;

/**
 * The directories of one batch, each entered once from its root down, as the
 * main thread's last mile does (docs/decisions/0009): the root compared with
 * the identity the session began with, each level opened with O_DIRECTORY |
 * O_NOFOLLOW and compared with what the guard saw, names resolved under
 * /proc/self/fd/N. Without /proc, lstat-checked paths. `close` closes every
 * descriptor before the reply.
 */
function directories(request: ReadRequest | ListRequest, handles: boolean): { get: (root: string, path: string) => Found; close: () => void } {
  const roots = new Map(request.roots.map(([path, dev, ino]) => [path, { dev, ino }]));
  const seen = new Map(request.directories.map(([path, dev, ino]) => [path, { dev, ino }]));
  const opened = new Map<string, Found>();
  const descriptors: number[] = [];
  const level = (path: string, fd?: number): Level => ({
    path,
    self: handles ? `/proc/self/fd/${fd}` : path,
    at: handles ? (name) => `/proc/self/fd/${fd}/${name}` : (name) => `${path === '/' ? '' : path}/${name}`,
  });
  const sameAs = (expected: { dev: number; ino: number } | undefined, stat: Stats) => expected === undefined || (stat.dev === expected.dev && stat.ino === expected.ino);
  const openRoot = (root: string): Found => {
    const expected = roots.get(root);
    if (expected === undefined) return rootChanged;
    if (!handles) {
      let stat: Stats;
      try {
        stat = lstatSync(root);
      } catch (error) {
        return ['ENOENT', 'ENOTDIR'].includes(codeOf(error)) ? rootChanged : failed(error, 'lstat');
      }
      return stat.isDirectory() && sameAs(expected, stat) ? level(root) : rootChanged;
    }
    let fd: number;
    try {
      fd = openSync(root, DIRECTORY_FLAGS);
    } catch (error) {
      return ['ENOENT', 'ENOTDIR', 'ELOOP'].includes(codeOf(error)) ? rootChanged : failed(error, 'open');
    }
    descriptors.push(fd);
    return sameAs(expected, fstatSync(fd)) ? level(root, fd) : rootChanged;
  };
  const enter = (parent: Level, path: string, name: string): Found => {
    const at = parent.at(name);
    if (!handles) {
      let stat: Stats;
      try {
        stat = lstatSync(at);
      } catch (error) {
        return failed(error, 'lstat');
      }
      if (stat.isSymbolicLink() || !sameAs(seen.get(path), stat)) return changed;
      if (!stat.isDirectory()) return { fail: { ok: false, errno: 'ENOTDIR', stage: 'open' } };
      return level(at);
    }
    let fd: number;
    try {
      fd = openSync(at, DIRECTORY_FLAGS);
    } catch (error) {
      // With O_DIRECTORY, Linux reports a symlink as ENOTDIR. A symlink there now, or a directory again, means it was swapped.
      let swapped = codeOf(error) === 'ELOOP';
      if (codeOf(error) === 'ENOTDIR') {
        try {
          const now = lstatSync(at);
          swapped = now.isSymbolicLink() || now.isDirectory();
        } catch {
          swapped = false;
        }
      }
      return swapped ? changed : failed(error, 'open');
    }
    descriptors.push(fd);
    return sameAs(seen.get(path), fstatSync(fd)) ? level(path, fd) : changed;
  };
  const get = (root: string, path: string): Found => {
    const key = `${root}\u0000${path}`;
    let found = opened.get(key);
    if (found !== undefined) return found;
    if (!inside(root, path)) found = rootChanged;
    else if (path === root) found = openRoot(root);
    else {
      const cut = path.lastIndexOf('/');
      const parent = get(root, cut === 0 ? '/' : path.slice(0, cut));
      found = isFail(parent) ? parent : enter(parent, path, path.slice(cut + 1));
    }
    opened.set(key, found);
    return found;
  };
  const close = () => {
    for (const fd of descriptors) {
      try {
        closeSync(fd);
      } catch {
        // Already closed: nothing to release.
      }
    }
  };
  return { get, close };
}

interface Filter {
  readonly sniff: number;
  readonly containing: Buffer | undefined;
  readonly folded: RegExp | undefined;
  readonly foldedLength: number;
}

/** In windows of 256 KiB that overlap by the literal's length: small strings, whatever the file's size. */
function containsFolded(view: Buffer, pattern: RegExp, length: number): boolean {
  for (let start = 0; start < view.length; start += WINDOW) {
    const end = Math.min(view.length, start + WINDOW + length - 1);
    if (pattern.test(view.toString('latin1', start, end))) return true;
    if (end === view.length) break;
  }
  return false;
}

function readOne(file: FileTarget, found: ReturnType<typeof directories>, maxBytes: number, filter: Filter): ReadResult {
  if (file.directory === null) return { ok: false, kind: 'directory' };
  const directory = found.get(file.root, file.directory);
  if (isFail(directory)) return directory.fail;
  const path = directory.at(file.name);
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch (error) {
    return { ok: false, errno: codeOf(error), stage: 'lstat' };
  }
  if (!stat.isFile()) return { ok: false, kind: kindOf(stat) as Exclude<EntryKind, 'file'> };
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (error) {
    return { ok: false, errno: codeOf(error), stage: 'open' };
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return { ok: false, kind: kindOf(opened) as Exclude<EntryKind, 'file'> };
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
      const count = readSync(fd, buffer, length, buffer.length - length, length);
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
    return { ok: false, errno: codeOf(error), stage: 'read' };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing to release.
    }
  }
}

function listOne(target: ListTarget, found: ReturnType<typeof directories>, sizes: boolean, handles: boolean): ListResult {
  const directory = found.get(target.root, target.path);
  if (isFail(directory)) return directory.fail;
  const same = (): ListResult | undefined => {
    // Checked paths only: readdir follows a symlink, so one swapped in meanwhile must not be listed through.
    if (handles) return undefined;
    let stat: Stats;
    try {
      stat = lstatSync(directory.path);
    } catch (error) {
      return { ok: false, errno: codeOf(error), stage: 'lstat' };
    }
    if (stat.isSymbolicLink() || (target.ino !== 0 && (stat.dev !== target.dev || stat.ino !== target.ino))) return { ok: false, changed: true };
    if (!stat.isDirectory()) return { ok: false, kind: kindOf(stat) };
    return undefined;
  };
  let listed: Dirent[];
  try {
    listed = readdirSync(directory.self, { withFileTypes: true });
  } catch (error) {
    return { ok: false, errno: codeOf(error), stage: 'read' };
  }
  const after = same();
  if (after) return after;
  const entries: DirectoryEntry[] = [];
  for (const entry of listed) {
    const kind = kindOf(entry);
    if (kind !== 'file' || !sizes) {
      entries.push({ name: entry.name, kind });
      continue;
    }
    let stat: Stats;
    try {
      stat = lstatSync(directory.at(entry.name));
    } catch (error) {
      if (codeOf(error) === 'ENOENT') continue;
      return { ok: false, errno: codeOf(error), stage: 'read' };
    }
    entries.push(stat.isFile() ? { name: entry.name, kind: 'file', size: stat.size } : { name: entry.name, kind: kindOf(stat) });
  }
  return { ok: true, entries };
}

const escape = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/**
 * A batch read or listing (AsyncFileSystem.readFiles, readDirectories): the
 * same steps as the shared last mile and bounded read, as synchronous
 * system calls. A reply carries at most REPLY_BYTES of content: the rest of
 * the batch is deferred to the next request. Returns the results and the
 * buffers to transfer.
 */
export function runBatch(request: ReadRequest | ListRequest, handles: boolean): { results: ReadResult[] | ListResult[]; transfer: ArrayBuffer[] } {
  const found = directories(request, handles);
  try {
    if (request.op === 'list') return { results: request.files.map((target) => listOne(target, found, request.sizes, handles)), transfer: [] };
    const filter: Filter = {
      sniff: request.sniff,
      containing: request.containing === undefined || request.containing.length === 0 ? undefined : Buffer.from(request.containing),
      folded: request.folded === undefined || request.folded === '' ? undefined : new RegExp(escape(request.folded), 'i'),
      foldedLength: request.folded === undefined ? 0 : request.folded.length,
    };
    let held = 0;
    const results = request.files.map((file): ReadResult => {
      if (held >= REPLY_BYTES) return { ok: true, deferred: true };
      const result = readOne(file, found, request.maxBytes, filter);
      if ('buffer' in result) held += result.length;
      return result;
    });
    return { results, transfer: results.flatMap((result) => ('buffer' in result ? [result.buffer] : [])) };
  } finally {
    found.close();
  }
}
