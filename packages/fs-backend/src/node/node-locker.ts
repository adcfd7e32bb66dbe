import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '@openwork/tool-contract';
import { lock } from 'proper-lockfile';
import { sleep, throwIfAborted } from '../common/abort.ts';
import type { Locker } from '../common/checked-file-system.ts';
import { errnoCode } from '../common/errno.ts';
import { KeyedMutex } from '../common/keyed-mutex.ts';

export interface NodeLockerOptions {
  readonly directory: string;
  readonly staleMs: number;
}

/** Where lock files live by default: outside every user tree, so a write leaves nothing beside the file. */
export function defaultLockDirectory(): string {
  return join(tmpdir(), 'openwork-tools-locks');
}

const firstDelayMs = 5;
const maxDelayMs = 100;

/**
 * docs/design.md §9 edit: one lock per canonical path, across this process (an async
 * mutex, so only one local waiter polls the lock file) and across processes
 * (proper-lockfile: an atomic mkdir, refreshed while held, taken over when stale).
 */
export class NodeLocker implements Locker {
  readonly #mutex = new KeyedMutex();
  readonly #options: NodeLockerOptions;

  constructor(options: NodeLockerOptions) {
    this.#options = options;
  }

  async acquire(realPath: string, signal: AbortSignal | undefined, what: string): Promise<() => Promise<void>> {
    const releaseLocal = await this.#mutex.acquire(realPath, signal, what);
    try {
      const releaseFile = await this.#lockFile(realPath, signal, what);
      return async () => {
        try {
          await releaseFile();
        } finally {
          releaseLocal();
        }
      };
    } catch (error) {
      releaseLocal();
      throw error;
    }
  }

  async #lockFile(realPath: string, signal: AbortSignal | undefined, what: string): Promise<() => Promise<void>> {
    const directory = this.#options.directory;
    const file = join(directory, createHash('sha256').update(realPath).digest('hex'));
    try {
      await mkdir(directory, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw lockFailure(error, what);
    }
    let delay = firstDelayMs;
    for (;;) {
      throwIfAborted(signal, what);
      try {
        const release = await lock(file, {
          realpath: false,
          stale: this.#options.staleMs,
          retries: 0,
          // Throwing here would crash the process from a timer; the action already runs, and release reports nothing.
          onCompromised: () => undefined,
        });
        return async () => {
          await release().catch(() => undefined);
        };
      } catch (error) {
        if (errnoCode(error) !== 'ELOCKED') throw lockFailure(error, what);
      }
      await sleep(delay + Math.floor(Math.random() * delay), signal, what);
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }
}

function lockFailure(error: unknown, what: string): ToolError {
  const detail = error instanceof Error ? error.message : String(error);
  return new ToolError('io', `could not take the lock file while ${what} (${errnoCode(error) ?? 'error'}: ${detail}); retry`, { cause: error });
}
