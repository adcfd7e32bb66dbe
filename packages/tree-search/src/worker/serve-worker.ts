import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { compileSpec, type CompiledSpec } from '../compiled-spec.ts';
import type { SearchHost } from '../search-directory.ts';
import { TaskWalk } from '../task-walk.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

/** Entries walked between two looks at the message port. */
const STEP_ENTRIES = 32;
/** A batch goes out once it holds this many hits and marks, or this long after the last one. */
const FLUSH_ITEMS = 256;
const FLUSH_MS = 12;

/**
 * A search worker thread's loop, on the port to the file system that started
 * it, walking through `host`: it runs one task at a time, synchronously, and
 * between steps reads the messages that concern that task (a bound, a split,
 * a cancel). The file system's worker entry calls it once.
 */
export function serveSearchWorker(port: MessagePort, host: SearchHost): void {
  const specs = new Map<number, CompiledSpec>();
  let running: { search: number; walk: TaskWalk; cancelled: boolean } | undefined;
  const deferred: ToWorker[] = [];

  function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
    port.postMessage(message, transfer);
  }

  function flush(search: number, walk: TaskWalk): void {
    post({ op: 'batch', search, batch: walk.takeBatch() });
  }

  /** The messages that may arrive while a task runs; a new task waits for the current one to end. */
  function control(message: ToWorker): void {
    switch (message.op) {
      case 'begin':
        specs.set(message.search, compileSpec(message.spec));
        return;
      case 'end':
        specs.delete(message.search);
        return;
      case 'bound':
        if (running?.search === message.search) running.walk.setBound(message.key);
        return;
      case 'split':
        if (running?.search === message.search && running.walk.taskId === message.taskId) {
          running.walk.split();
          // The answer goes out now, split or not: the coordinator asks again later.
          flush(running.search, running.walk);
        }
        return;
      case 'cancel':
        if (running?.search === message.search) {
          running.cancelled = true;
          running.walk.abort();
        } else {
          post({ op: 'idle', search: message.search });
        }
        return;
      case 'task':
        deferred.push(message);
        return;
    }
  }

  function runTask(message: Extract<ToWorker, { op: 'task' }>): void {
    const spec = specs.get(message.search);
    if (spec === undefined) return;
    const walk = new TaskWalk(spec, host, message.task, message.bound);
    const current = { search: message.search, walk, cancelled: false };
    running = current;
    let flushed = performance.now();
    try {
      while (!walk.step(STEP_ENTRIES)) {
        for (let received = receiveMessageOnPort(port); received !== undefined; received = receiveMessageOnPort(port)) control(received.message as ToWorker);
        if (walk.finished) break;
        const now = performance.now();
        if (walk.pending >= FLUSH_ITEMS || (walk.pending > 0 && now - flushed >= FLUSH_MS)) {
          flush(message.search, walk);
          flushed = now;
        }
      }
    } finally {
      walk.abort();
      running = undefined;
      flush(message.search, walk);
      if (current.cancelled) post({ op: 'idle', search: message.search });
    }
  }

  // Loaded and listening: the pool may hand this worker a search's tasks.
  post({ op: 'ready' });

  port.on('message', (message: ToWorker) => {
    if (message.op !== 'task') {
      control(message);
      return;
    }
    runTask(message);
    while (deferred.length > 0) {
      const next = deferred.shift() as Extract<ToWorker, { op: 'task' }>;
      runTask(next);
    }
  });
}
