import { posix } from 'node:path';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { CheckedPath, PathGuard } from '@openwork/path-guard';
import { abortKind, isToolError, ToolError, type ToolProgress } from '@openwork/tool-contract';
import { checkIgnored, IGNORE_FILES, parseIgnoreFile, type IgnoreLevel } from './ignore-rules.ts';
import { BatchLister } from './batch-reader.ts';
import { repositoryIgnoreCase } from './repository-config.ts';
import { KeyedMinHeap } from './task-queue.ts';

/** A file the walk reached: a regular file, or a symlink that resolved to one inside the roots. */
export interface WalkFile {
  readonly path: CheckedPath;
  /** The path for results (CONTRACT.md §2); results sort by it. */
  readonly displayPath: string;
  /** `/`-separated, relative to the walk root; '' when the root itself is the file. */
  readonly relativePath: string;
}

export interface WalkOptions {
  readonly paths: PathGuard;
  readonly filesystem: AsyncFileSystem;
  /** A checked directory or file. */
  readonly root: CheckedPath;
  /** true: `.gitignore` / `.ignore` are not read. `.git/` is skipped regardless. */
  readonly includeIgnored: boolean;
  /** Directory reads and file visits in flight at most (the walk takes fewer when `maxResults` needs fewer). */
  readonly concurrency: number;
  /** The result bound: no more visits in flight than it needs (a search for the first 100 does not read 256 files first). */
  readonly maxResults: number;
  readonly signal: AbortSignal;
  /** Which files to visit, by walk-relative path; default all. */
  readonly includeFile?: (relativePath: string) => boolean;
  /** Which directories may hold an included file; default all. */
  readonly enterDirectory?: (relativePath: string) => boolean;
  /**
   * True when nothing whose display path sorts at or after this key can
   * still enter the result: the walk drops such work (seed §9: stop at the
   * bound rather than collect the whole tree).
   */
  readonly beyondBound?: (sortKey: string) => boolean;
  readonly visitFile: (file: WalkFile) => Promise<void> | void;
  /** Where a progress message goes every `PROGRESS_EVERY` files, with `results()` kept so far. */
  readonly progress?: { readonly send: (event: ToolProgress) => void; readonly results: () => number };
}

/** Files between two progress reports of a walk. */
export const PROGRESS_EVERY = 1000;

export interface WalkReport {
  /** Directories that could not be listed. */
  readonly unreadableDirectories: number;
}

interface DirectoryTask {
  readonly kind: 'directory';
  readonly key: Buffer;
  readonly path: CheckedPath;
  readonly displayPath: string;
  readonly relativePath: string;
  readonly levels: readonly IgnoreLevel[];
}

interface FileTask {
  readonly kind: 'file' | 'symlink';
  readonly key: Buffer;
  /** The parent directory and the entry name, for a symlink still to resolve. */
  readonly parent: CheckedPath;
  readonly name: string;
  readonly displayPath: string;
  readonly relativePath: string;
}

type Task = DirectoryTask | FileTask;

/** What the walk learns once, before the first directory: how its ignore files match letter case. */
interface WalkState extends WalkOptions {
  readonly ignoreCase: boolean;
}

/** Ignore files are small; one larger than this is not read as rules. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
const decoder = new TextDecoder('utf-8');
const YIELD_EVERY_TASKS = 128;

export function throwIfAborted(signal: AbortSignal, what: string): void {
  const kind = abortKind(signal);
  if (kind === undefined) return;
  throw new ToolError(kind, kind === 'timed_out' ? `the deadline passed while ${what}; narrow the search with path or glob` : `cancelled while ${what}`, {
    cause: signal.reason,
  });
}

function joinDisplay(parent: string, name: string): string {
  return parent === '.' ? name : `${parent}/${name}`;
}

/**
 * The one walk behind grep and glob (seed §9, CONTRACT.md §2): streaming,
 * bounded concurrency, never into `.git/`, never through a symlinked
 * directory, `.gitignore` / `.ignore` at every level. Work runs smallest
 * display path first, so the bound is usually reached early and the rest is
 * pruned; the result itself never depends on that order.
 */
export async function walk(options: WalkOptions): Promise<WalkReport> {
  const { root, signal } = options;
  throwIfAborted(signal, 'searching');
  if (root.kind !== 'directory') {
    await options.visitFile({ path: root, displayPath: root.displayPath, relativePath: '' });
    return { unreadableDirectories: 0 };
  }
  const state: WalkState = {
    ...options,
    ignoreCase: options.includeIgnored ? false : await repositoryIgnoreCase({ paths: options.paths, filesystem: options.filesystem, signal }, root.displayPath),
  };
  const levels = options.includeIgnored ? [] : await ancestorLevels(state);
  const queue = new KeyedMinHeap<Task>();
  const lister = new BatchLister(options.filesystem, signal, Math.max(1, Math.floor(options.concurrency / 4)));
  queue.push({ kind: 'directory', key: Buffer.from(`${root.displayPath}/`), path: root, displayPath: root.displayPath, relativePath: '', levels });
  let unreadableDirectories = 0;
  let files = 0;
  let directories = 0;
  const runTask = async (task: Task): Promise<void> => {
    if (task.kind === 'directory') {
      const listed = await listDirectory(state, lister, task);
      directories += 1;
      if (listed === undefined) unreadableDirectories += 1;
      else for (const child of listed) queue.push(child);
    } else {
      const file = await resolveFile(options, task);
      if (file !== undefined) await options.visitFile(file);
      files += 1;
      if (files % PROGRESS_EVERY === 0 && options.progress) {
        const results = Math.min(options.progress.results(), options.maxResults);
        options.progress.send({ kind: 'message', message: `searched ${files} files in ${directories} directories; ${results} results so far` });
      }
    }
  };
  const concurrency = Math.min(Math.max(1, Math.floor(options.concurrency)), Math.max(16, options.maxResults + 1));
  await runPool({ queue, concurrency, signal, runTask, beyondBound: options.beyondBound });
  return { unreadableDirectories };
}

/** Runs tasks, smallest key first, at most `concurrency` at once; rejects as soon as the signal aborts. */
function runPool(pool: {
  queue: KeyedMinHeap<Task>;
  concurrency: number;
  signal: AbortSignal;
  runTask: (task: Task) => Promise<void>;
  beyondBound: ((sortKey: string) => boolean) | undefined;
}): Promise<void> {
  const { queue, signal } = pool;
  return new Promise<void>((resolve, reject) => {
    let active = 0;
    let settled = false;
    let startedSinceYield = 0;
    let yielding = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error('the search failed', { cause: error }));
    };
    const onAbort = () => {
      try {
        throwIfAborted(signal, 'searching');
      } catch (error) {
        finish(error);
      }
    };
    const pump = () => {
      if (settled || yielding) return;
      // seed §9: cancellation is checked before every directory read and file visit.
      if (signal.aborted) {
        onAbort();
        return;
      }
      while (active < pool.concurrency) {
        // A file system that answers from memory never leaves the microtask queue:
        // yield now and then so a deadline timer can fire.
        if (startedSinceYield >= YIELD_EVERY_TASKS) {
          startedSinceYield = 0;
          yielding = true;
          setImmediate(() => {
            yielding = false;
            pump();
          });
          return;
        }
        const task = queue.pop();
        if (task === undefined) break;
        if (pool.beyondBound?.(task.key.toString('utf8'))) continue;
        active += 1;
        startedSinceYield += 1;
        pool.runTask(task).then(
          () => {
            active -= 1;
            pump();
          },
          (error: unknown) => finish(error),
        );
      }
      if (active === 0 && queue.size === 0) finish();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    pump();
  });
}

/** The children worth visiting, or undefined when the directory cannot be listed. */
async function listDirectory(options: WalkState, lister: BatchLister, task: DirectoryTask): Promise<Task[] | undefined> {
  const isRoot = task.relativePath === '';
  const { paths, signal } = options;
  let entries;
  try {
    entries = await lister.list(task.path);
  } catch (error) {
    throwIfAborted(signal, 'searching');
    if (isRoot || !isToolError(error)) throw error;
    return undefined;
  }
  let levels = task.levels;
  if (!options.includeIgnored) {
    const base = task.relativePath === '' ? '' : `${task.relativePath}/`;
    const found: IgnoreLevel[] = [];
    for (const name of IGNORE_FILES) {
      if (!entries.some((entry) => entry.name === name && entry.kind === 'file')) continue;
      const text = await readSmallText(options, paths.child(task.path, name, 'file'));
      const level = text === undefined ? undefined : parseIgnoreFile(text, { base, prefix: '', ignoreCase: options.ignoreCase });
      if (level) found.push(level);
    }
    if (found.length > 0) levels = [...levels, ...found];
  }
  const children: Task[] = [];
  for (const entry of entries) {
    // CONTRACT.md §2: never into .git, whatever includeIgnored says (a worktree's .git is a file).
    if (entry.name === '.git') continue;
    const relativePath = task.relativePath === '' ? entry.name : `${task.relativePath}/${entry.name}`;
    const displayPath = joinDisplay(task.displayPath, entry.name);
    const isDirectory = entry.kind === 'directory';
    const verdict = checkIgnored(levels, relativePath, isDirectory);
    if (verdict.ignored) continue;
    if (isDirectory) {
      if (options.enterDirectory && !options.enterDirectory(relativePath)) continue;
      const childLevels = verdict.overridden.length === 0 ? levels : levels.filter((level) => !verdict.overridden.includes(level));
      children.push({ kind: 'directory', key: Buffer.from(`${displayPath}/`), path: paths.child(task.path, entry.name, 'directory'), displayPath, relativePath, levels: childLevels });
    } else if (entry.kind === 'file' || entry.kind === 'symlink') {
      if (options.includeFile && !options.includeFile(relativePath)) continue;
      children.push({ kind: entry.kind, key: Buffer.from(displayPath), parent: task.path, name: entry.name, displayPath, relativePath });
    }
    // Devices, FIFOs and sockets are not text to search.
  }
  return children;
}

/** A file task as a WalkFile; a symlink is resolved through the guard and kept only when it is a file inside the roots. */
async function resolveFile(options: WalkOptions, task: FileTask): Promise<WalkFile | undefined> {
  const { paths, signal } = options;
  if (task.kind === 'file') {
    return { path: paths.child(task.parent, task.name, 'file'), displayPath: task.displayPath, relativePath: task.relativePath };
  }
  let target: CheckedPath;
  try {
    // The display form of a path is one the guard resolves back to the same entry.
    target = await paths.resolvePath(task.displayPath, 'read', 'must_exist', { signal });
  } catch (error) {
    throwIfAborted(signal, 'searching');
    if (isToolError(error)) return undefined; // outside the roots, dangling or a loop: not followed
    throw error;
  }
  // A symlinked directory is never entered (no cycles, no duplicates); devices are not text.
  if (target.kind !== 'file') return undefined;
  return { path: target, displayPath: task.displayPath, relativePath: task.relativePath };
}

async function readSmallText(options: WalkOptions, path: CheckedPath): Promise<string | undefined> {
  try {
    return decoder.decode(await options.filesystem.readFile(path, { maxBytes: MAX_IGNORE_FILE_BYTES, signal: options.signal }));
  } catch (error) {
    throwIfAborted(options.signal, 'searching');
    if (isToolError(error)) return undefined;
    throw error;
  }
}

/**
 * The ignore files between the working directory and a walk root below it
 * (ripgrep reads the parents' rules too). A level that ignores the root
 * itself is left out: a root named explicitly is searched.
 */
async function ancestorLevels(options: WalkState): Promise<IgnoreLevel[]> {
  const display = options.root.displayPath;
  if (display === '.' || posix.isAbsolute(display) || display.startsWith('..')) return [];
  const parts = display.split('/');
  const levels: IgnoreLevel[] = [];
  for (let depth = 0; depth < parts.length; depth += 1) {
    const ancestor = depth === 0 ? '.' : parts.slice(0, depth).join('/');
    const prefix = `${parts.slice(depth).join('/')}/`;
    let directory: CheckedPath;
    try {
      directory = await options.paths.resolvePath(ancestor, 'read', 'must_exist', { signal: options.signal });
    } catch (error) {
      throwIfAborted(options.signal, 'searching');
      if (isToolError(error)) continue;
      throw error;
    }
    if (directory.kind !== 'directory') continue;
    let entries;
    try {
      entries = await options.filesystem.readDirectory(directory, { signal: options.signal, sizes: false });
    } catch (error) {
      throwIfAborted(options.signal, 'searching');
      if (isToolError(error)) continue;
      throw error;
    }
    for (const name of IGNORE_FILES) {
      if (!entries.some((entry) => entry.name === name && entry.kind === 'file')) continue;
      const text = await readSmallText(options, options.paths.child(directory, name, 'file'));
      const level = text === undefined ? undefined : parseIgnoreFile(text, { base: '', prefix, ignoreCase: options.ignoreCase });
      if (level && !level.rules.test(prefix).ignored) levels.push(level);
    }
  }
  return levels;
}
