import { abortedError } from './abort.ts';

interface Waiter {
  readonly grant: () => void;
}

interface Entry {
  readonly waiters: Waiter[];
}

/**
 * One async mutex per key (a canonical path), FIFO. A key's entry exists only
 * while someone holds or waits for it, so the map never grows with history.
 */
export class KeyedMutex {
  readonly #entries = new Map<string, Entry>();

  /** Resolves with the release function once the key is ours; a signal abort while waiting rejects and leaves the queue intact. */
  acquire(key: string, signal: AbortSignal | undefined, what: string): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortedError(signal, what));
    const entry = this.#entries.get(key);
    if (!entry) {
      this.#entries.set(key, { waiters: [] });
      return Promise.resolve(this.#releaser(key));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#releaser(key));
        },
      };
      const onAbort = () => {
        const index = entry.waiters.indexOf(waiter);
        if (index >= 0) entry.waiters.splice(index, 1);
        reject(abortedError(signal as AbortSignal, what));
      };
      entry.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Keys held or waited for right now. */
  get size(): number {
    return this.#entries.size;
  }

  #releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const entry = this.#entries.get(key);
      const next = entry?.waiters.shift();
      if (next) next.grant();
      else this.#entries.delete(key);
    };
  }
}
