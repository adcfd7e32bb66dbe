import { CallAborted, isToolError } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../src/common/keyed-mutex.ts';

describe('KeyedMutex (the in-process half of withLock)', () => {
  it('grants one key in FIFO order, other keys independently, and forgets a key once idle', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    const first = await mutex.acquire('/a', undefined, 'test');
    const other = await mutex.acquire('/b', undefined, 'test');
    const waiters = ['second', 'third'].map((name) =>
      mutex.acquire('/a', undefined, 'test').then((release) => {
        order.push(name);
        release();
      }),
    );
    expect(mutex.size).toBe(2);
    other();
    expect(mutex.size).toBe(1);
    first();
    first();
    await Promise.all(waiters);
    expect(order).toEqual(['second', 'third']);
    expect(mutex.size).toBe(0);
  });

  it('an abort while waiting rejects with the signal’s kind and leaves the queue working', async () => {
    const mutex = new KeyedMutex();
    const held = await mutex.acquire('/a', undefined, 'test');
    const controller = new AbortController();
    const aborted = mutex.acquire('/a', controller.signal, 'waiting for /a');
    const next = mutex.acquire('/a', undefined, 'test');
    controller.abort(new CallAborted('timed_out'));
    const error: unknown = await aborted.catch((caught: unknown) => caught);
    expect(isToolError(error) && error.kind).toBe('timed_out');
    held();
    (await next)();
    expect(mutex.size).toBe(0);
  });
});
