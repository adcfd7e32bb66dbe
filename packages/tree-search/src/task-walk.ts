import { compareUtf8 } from './compare.ts';
import type { CompiledSpec } from './compiled-spec.ts';
import { headDecision, matchFile } from './file-matcher.ts';
import { utf16AsUtf8 } from './utf16-text.ts';
import { compileLevels, directoryLevels, type WalkLevel } from './directory-levels.ts';
import { join, newFrame, partOf, type Frame, type SortedEntry } from './walk-frame.ts';
import { hitWeight } from './hit-weight.ts';
import { SearchOpenError, type SearchDirectory, type SearchEntry, type SearchHost } from './search-directory.ts';
import type { IgnoreSource, TreeSearchHit } from './search-types.ts';
import type { SearchCache } from './search-cache.ts';
import type { MarkKind, TaskBatch, WireFailure, WireItem, WireMark, WireSplit, WireTask } from './search-wire.ts';

/** A part given away must be worth a walker's trip from the root: a directory, or this many files. */
const WORTH_GIVING_FILES = 16;

function errnoOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : 'EIO';
}

function failureOf(error: unknown): WireFailure {
  if (error instanceof SearchOpenError) return { code: 'ESTALE', changed: error.changed };
  return { code: errnoOf(error) };
}

/**
 * One task of a search, walked in sorted order (docs/design.md §9, docs/contract.md §2):
 * depth first, each directory's entries in byte order of their paths, so
 * hits come out sorted and the walk can stop at the first entry past the
 * bound. Never into `.git/`, never through a symlinked directory; a symlink
 * that may be a file is handed to the coordinator, which resolves it
 * through the path guard. The walk runs in steps, so that its walker can
 * look at its messages (a new bound, a request to give work away, a
 * cancel) between them.
 */
export class TaskWalk {
  readonly #spec: CompiledSpec;
  readonly #task: WireTask;
  readonly #frames: Frame[] = [];
  #items: WireItem[] = [];
  #marks: WireMark[] = [];
  #splits: WireSplit[] = [];
  #files = 0;
  #directories = 0;
  #held = 0;
  /** Results still to drop unheld (the task's `skip`), and those dropped since the last batch. */
  #skip: number;
  #dropped = 0;
  #weight = 0;
  #bound: string | undefined;
  #finished = false;
  #failure: WireFailure | undefined;
  readonly #decide: ((head: Buffer) => boolean) | undefined;
  readonly #cache: SearchCache | undefined;

  constructor(spec: CompiledSpec, host: SearchHost, task: WireTask, bound: string | undefined) {
    this.#spec = spec;
    this.#cache = host.cache;
    this.#task = task;
    this.#bound = bound;
    this.#skip = task.skip ?? 0;
    this.#decide = spec.matcher === undefined ? undefined : headDecision(spec.matcher, spec.wire.binarySniffBytes);
    try {
      if (task.kind === 'file') {
        this.#startFile(host);
        return;
      }
      const directory = host.open(task.target, task.target.path);
      const levels = compileLevels(this.#spec, task.levels);
      if (task.entries !== undefined) {
        this.#frames.push(newFrame({ directory, fromTask: '', relative: task.relative, display: task.display, levels }, task.entries.map(([name, kind]) => ({ name, kind })), { sorted: true }));
      } else {
        this.#enter(directory, '', task.relative, task.display, levels, task.walkRoot);
      }
    } catch (error) {
      if (task.kind === 'directory' && task.walkRoot && task.entries === undefined) this.#failure = failureOf(error);
      else this.#mark(task.kind === 'directory' ? `${task.display}/` : task.display, 'unreadable');
      this.#finish();
    }
  }

  get finished(): boolean {
    return this.#finished;
  }

  get taskId(): number {
    return this.#task.id;
  }

  /** Hits kept so far by this task: the coordinator's bound can only be tighter. */
  setBound(key: string): void {
    if (this.#bound === undefined || compareUtf8(key, this.#bound) < 0) this.#bound = key;
  }

  /** Visits up to `budget` entries; true once the task is done. */
  step(budget: number): boolean {
    let left = budget;
    while (!this.#finished && left > 0) {
      const frame = this.#frames.at(-1);
      if (frame === undefined) {
        this.#finish();
        break;
      }
      if (frame.index >= frame.end) {
        frame.directory.close();
        this.#frames.pop();
        continue;
      }
      const entry = frame.entries[frame.index] as SortedEntry;
      frame.index += 1;
      left -= 1;
      this.#visit(frame, entry);
    }
    return this.#finished;
  }

  /** Gives away the tail of the task: the later half of the shallowest directory with work left that is worth a trip. */
  split(): WireSplit | undefined {
    if (this.#finished) return undefined;
    for (let depth = 0; depth < this.#frames.length; depth += 1) {
      const frame = this.#frames[depth] as Frame;
      const remaining = frame.end - frame.index;
      // The frame being walked keeps at least its next entry; one below it can give all it has left.
      const give = depth === this.#frames.length - 1 ? Math.floor(remaining / 2) : Math.ceil(remaining / 2);
      if (give === 0) continue;
      const part = frame.entries.slice(frame.end - give, frame.end);
      if (part.length < WORTH_GIVING_FILES && !part.some((entry) => entry.kind === 'directory')) continue;
      frame.end -= give;
      const split = partOf(this.#frames, depth, part);
      this.#splits.push(split);
      return split;
    }
    return undefined;
  }

  /**
   * Gives all the task's remaining work away, one part per directory on the
   * stack, and ends the task: what a walker does when others take over. The
   * parts go out deepest last, as the coordinator puts each right after
   * this task, so they end up in key order.
   */
  surrender(): void {
    if (this.#finished) return;
    this.#frames.forEach((frame, depth) => {
      if (frame.end <= frame.index) return;
      this.#splits.push(partOf(this.#frames, depth, frame.entries.slice(frame.index, frame.end)));
      frame.end = frame.index;
    });
    this.#finish();
  }

  /** Stops the task: every directory it holds is closed. */
  abort(): void {
    this.#finish();
  }

  /** What the task found since the last batch. */
  takeBatch(): TaskBatch {
    const batch: TaskBatch = {
      taskId: this.#task.id,
      items: this.#items,
      marks: this.#marks,
      files: this.#files,
      directories: this.#directories,
      splits: this.#splits,
      done: this.#finished,
      ...(this.#dropped === 0 ? {} : { dropped: this.#dropped }),
      ...(this.#failure === undefined ? {} : { failure: this.#failure }),
    };
    this.#items = [];
    this.#marks = [];
    this.#splits = [];
    this.#files = 0;
    this.#directories = 0;
    this.#dropped = 0;
    return batch;
  }

  /** Whether a batch would carry anything. */
  get pending(): number {
    return this.#items.length + this.#marks.length + this.#splits.length + this.#files + this.#directories + this.#dropped;
  }

  #finish(): void {
    this.#finished = true;
    for (const frame of this.#frames) frame.directory.close();
    this.#frames.length = 0;
  }

  #mark(key: string, kind: MarkKind, source?: IgnoreSource): void {
    this.#marks.push(source === undefined ? { key, kind } : { key, kind, source });
  }

  #beyond(key: string): boolean {
    return this.#bound !== undefined && compareUtf8(key, this.#bound) > 0;
  }

  /** Keeps a hit; false once this task alone holds as many results as the search keeps, so nothing later in it can be kept. */
  #add(hit: TreeSearchHit): boolean {
    if (this.#skip > 0) {
      this.#skip -= 1;
      this.#dropped += 1;
      return true;
    }
    const weight = hitWeight(hit);
    this.#items.push({ hit, weight });
    this.#held += 1;
    // A hit among this task's first `offset` may still sort past the search's first `offset`: not weighing it only keeps more.
    if (this.#held > this.#spec.wire.offset) this.#weight += weight;
    if (this.#held >= this.#spec.wire.capacity || this.#weight >= this.#spec.wire.maxResultBytes) {
      this.#finish();
      return false;
    }
    return true;
  }

  #visit(frame: Frame, entry: SortedEntry): void {
    // docs/contract.md §2: never into .git, whatever includeIgnored says (a worktree's .git is a file).
    if (entry.name === '.git') return;
    const display = join(frame.display, entry.name);
    const isDirectory = entry.kind === 'directory';
    const key = isDirectory ? `${display}/` : display;
    if (this.#beyond(key)) {
      // Everything after this entry, here and in every directory below on the stack, sorts after it too.
      this.#finish();
      return;
    }
    const relative = join(frame.relative, entry.name);
    const spec = this.#spec;
    let levels = frame.levels;
    if (frame.compiledLevels.length > 0) {
      const verdict = spec.check(frame.compiledLevels, relative, isDirectory);
      if (verdict.ignored) {
        this.#mark(key, isDirectory ? 'ignoredDirectory' : 'ignoredFile', verdict.source);
        return;
      }
      if (verdict.overridden.length > 0) levels = levels.filter((level) => !verdict.overridden.includes(level.compiled));
    }
    if (isDirectory) {
      if (spec.filter !== undefined && !spec.filter.enterDirectory(relative)) return;
      let directory: SearchDirectory;
      try {
        directory = frame.directory.openDirectory(entry.name);
      } catch {
        this.#mark(key, 'unreadable');
        return;
      }
      this.#enter(directory, join(frame.fromTask, entry.name), relative, display, levels, false);
      return;
    }
    if (entry.kind !== 'file' && entry.kind !== 'symlink') return; // devices, FIFOs and sockets are not text to search
    if (spec.filter !== undefined && !spec.filter.includeFile(relative)) return;
    this.#files += 1;
    if (entry.kind === 'symlink') {
      // Most symlinks of a package tree lead to directories, which are never entered: only one that may be a file goes to the guard.
      if (frame.directory.linkTarget(entry.name) === 'file') {
        this.#items.push({ symlink: { display, relative } });
        // Its results, still unknown, come before the rest: what is left goes back to be walked once they are counted.
        if (this.#skip > 0) this.surrender();
      }
    }
    else if (spec.matcher === undefined) this.#add({ path: display });
    else this.#searchFile(frame.directory, entry.name, display);
  }

  #searchFile(directory: SearchDirectory, name: string, display: string): void {
    const spec = this.#spec.wire;
    const cache = this.#cache;
    if (cache !== undefined && cache.worthAsking(this.#spec) && this.#cachedVerdict(cache, directory, name, display)) return;
    const readAt = cache?.now() ?? 0;
    const read = directory.readFile(name, spec.maxFileBytes, this.#decide);
    if (!read.ok) {
      if (read.reason !== 'gone') this.#mark(display, read.reason === 'tooLarge' ? 'tooLarge' : 'unreadable');
      return;
    }
    if (read.settled === true) {
      this.#add({ path: display });
      return;
    }
    // UTF-16 with a BOM is searched as its text (as read decodes it), binary only when that text holds a NUL.
    const bytes = utf16AsUtf8(read.bytes) ?? read.bytes;
    if (cache !== undefined && read.identity !== undefined) cache.record(read.identity, bytes, readAt);
    const sniff = spec.binarySniffBytes;
    if (sniff > 0 && bytes.subarray(0, sniff).includes(0)) {
      this.#mark(display, 'binary');
      return;
    }
    matchFile(bytes, display, this.#spec.matcher as NonNullable<CompiledSpec['matcher']>, (hit) => this.#add(hit));
  }

  /**
   * Whether the cache settles the file without a read: its entry, checked
   * against the file's identity now, says the bytes cannot hold the
   * pattern's trigrams, or are binary. Never past the size limit, which
   * the read decides.
   */
  #cachedVerdict(cache: SearchCache, directory: SearchDirectory, name: string, display: string): boolean {
    const trigrams = this.#spec.matcher?.pattern.trigrams ?? [];
    if (trigrams.length === 0 || directory.identify === undefined) return false;
    const identity = directory.identify(name);
    if (identity === undefined || identity.size > this.#spec.wire.maxFileBytes) return false;
    const verdict = cache.verdict(identity, trigrams, this.#spec.wire.binarySniffBytes);
    if (verdict === 'binary') this.#mark(display, 'binary');
    return verdict !== 'unknown';
  }

  /** A file task: a symlink the coordinator resolved to a file inside the roots, searched under the symlink's path. */
  #startFile(host: SearchHost): void {
    const { target, display } = this.#task;
    const cut = target.path.lastIndexOf('/');
    const directory = host.open(target, cut <= 0 ? '/' : target.path.slice(0, cut));
    try {
      this.#files += 1;
      if (this.#spec.matcher === undefined) this.#add({ path: display });
      else this.#searchFile(directory, target.path.slice(cut + 1), display);
    } finally {
      directory.close();
    }
    this.#finish();
  }

  /** Lists an opened directory, reads its ignore files, and puts it on the stack. */
  #enter(directory: SearchDirectory, fromTask: string, relative: string, display: string, inherited: readonly WalkLevel[], walkRoot: boolean): void {
    let entries: readonly SearchEntry[];
    try {
      entries = directory.list();
    } catch (error) {
      directory.close();
      if (walkRoot) throw error;
      this.#mark(display === '.' ? './' : `${display}/`, 'unreadable');
      return;
    }
    this.#directories += 1;
    const levels = this.#spec.wire.ignoreCase === undefined ? inherited : directoryLevels(this.#spec, { directory, entries, relative, inherited, walkRoot });
    this.#frames.push(newFrame({ directory, fromTask, relative, display, levels }, entries, { sorted: false }));
  }

}
