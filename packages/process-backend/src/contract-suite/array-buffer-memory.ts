import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** A full garbage collection, so that what is still counted is what something still holds. */
function fullCollection(): () => void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  return collect;
}

/**
 * The bytes of array buffers still reachable, after a full collection: the
 * memory a byte stream's chunks take, whoever holds them. A weak reference
 * made in this job keeps its target until the job ends, so the collection
 * waits for the next turn.
 */
export async function retainedArrayBufferBytes(): Promise<number> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  fullCollection()();
  return process.memoryUsage().arrayBuffers;
}
