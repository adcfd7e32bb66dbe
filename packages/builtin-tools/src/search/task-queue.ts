/** A min-heap of walk tasks by the UTF-8 bytes of their sort key, so the walk goes roughly in result order. */
export class KeyedMinHeap<Task extends { readonly key: Buffer }> {
  readonly #heap: Task[] = [];

  get size(): number {
    return this.#heap.length;
  }

  push(task: Task): void {
    const heap = this.#heap;
    heap.push(task);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >>> 1;
      if (Buffer.compare((heap[parent] as Task).key, task.key) <= 0) break;
      heap[index] = heap[parent] as Task;
      index = parent;
    }
    heap[index] = task;
  }

  pop(): Task | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const tail = heap.pop();
    if (top === undefined || tail === undefined || heap.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const smaller = right < heap.length && Buffer.compare((heap[right] as Task).key, (heap[left] as Task).key) < 0 ? right : left;
      if (Buffer.compare((heap[smaller] as Task).key, tail.key) >= 0) break;
      heap[index] = heap[smaller] as Task;
      index = smaller;
    }
    heap[index] = tail;
    return top;
  }
}
