import { abortedError } from '@openwork/tree-search';

export { abortedError } from '@openwork/tree-search';
export { throwIfAborted } from '@openwork/tree-search';

/** Waits `ms`, or rejects as soon as the signal aborts; leaves no timer or listener behind. */
export function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(signal, what));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal as AbortSignal, what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
