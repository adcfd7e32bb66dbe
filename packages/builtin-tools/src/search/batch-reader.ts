import type { AsyncFileSystem, DirectoryEntry, ReadDirectoriesEntry, ReadFilesEntry, ReadFilesOptions } from '@openwork/fs-backend';
import type { CheckedPath } from '@openwork/path-guard';

interface Waiting<Out> {
  readonly path: CheckedPath;
  readonly resolve: (entry: Out) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gathers the single requests of concurrent walk tasks into batches: a task
 * asks for one path and gets its entry, while the file system sees a few
 * large batches (the Node one serves them on worker threads).
 */
class Batcher<Out> {
  readonly #run: (paths: CheckedPath[]) => Promise<Out[]>;
  readonly #batchSize: number;
  #waiting: Waiting<Out>[] = [];
  #scheduled = false;

  constructor(run: (paths: CheckedPath[]) => Promise<Out[]>, batchSize: number) {
    this.#run = run;
    this.#batchSize = Math.max(1, batchSize);
  }

  request(path: CheckedPath): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ path, resolve, reject });
      if (this.#waiting.length >= this.#batchSize) this.#flush();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        // After the walk has started every task it can: they go out together.
        setImmediate(() => {
          this.#scheduled = false;
          this.#flush();
        });
      }
    });
  }

  #flush(): void {
    const batch = this.#waiting;
    if (batch.length === 0) return;
    this.#waiting = [];
    this.#run(batch.map((waiting) => waiting.path)).then(
      (entries) => {
        batch.forEach((waiting, index) => {
          const entry = entries[index];
          if (entry) waiting.resolve(entry);
          else waiting.reject(new Error('the file system returned fewer entries than paths'));
        });
      },
      (error: unknown) => {
        for (const waiting of batch) waiting.reject(error);
      },
    );
  }
}

/** File reads of a search, in readFiles batches with the search's content filter. */
export class BatchReader {
  readonly #batcher: Batcher<ReadFilesEntry>;

  constructor(filesystem: AsyncFileSystem, options: ReadFilesOptions, batchSize = 64) {
    this.#batcher = new Batcher((paths) => filesystem.readFiles(paths, options), batchSize);
  }

  read(path: CheckedPath): Promise<ReadFilesEntry> {
    return this.#batcher.request(path);
  }
}

/** Directory listings of a walk, in readDirectories batches, without sizes. */
export class BatchLister {
  readonly #batcher: Batcher<ReadDirectoriesEntry>;

  constructor(filesystem: AsyncFileSystem, signal: AbortSignal, batchSize = 64) {
    this.#batcher = new Batcher((paths) => filesystem.readDirectories(paths, { signal, sizes: false }), batchSize);
  }

  /** The entries, or throws the error readDirectory would have thrown. */
  async list(path: CheckedPath): Promise<DirectoryEntry[]> {
    const entry = await this.#batcher.request(path);
    if (!entry.ok) throw entry.error;
    return entry.entries;
  }
}
