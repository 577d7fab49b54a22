/**
 * The best `limit` of the items offered, by `before` (a strict order: whether `a` ranks above
 * `b`), kept in a heap with the worst kept at its top: each offer costs a comparison with it, and
 * the few that make the cut a logarithm more — not a sort of everything a common word finds.
 */
export class TopRanked<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly limit: number,
    private readonly before: (a: T, b: T) => boolean,
  ) {}

  /** Whether `item` would make the cut as things stand (so a costly check of it can be skipped when not). */
  wouldKeep(item: T): boolean {
    return this.heap.length < this.limit || (this.heap.length > 0 && this.before(item, this.heap[0] as T));
  }

  offer(item: T): void {
    if (this.heap.length < this.limit) {
      this.heap.push(item);
      this.siftUp(this.heap.length - 1);
    } else if (this.wouldKeep(item)) {
      this.heap[0] = item;
      this.siftDown(0);
    }
  }

  /** The items kept, best first. */
  sorted(): T[] {
    return [...this.heap].sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
  }

  /** Moves item `at` up while it ranks below its parent (the worst stays on top). */
  private siftUp(at: number): void {
    const heap = this.heap;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(heap[parent] as T, heap[at] as T)) return;
      this.swap(at, parent);
      at = parent;
    }
  }

  private siftDown(at: number): void {
    const heap = this.heap;
    for (;;) {
      let worst = at;
      for (const child of [2 * at + 1, 2 * at + 2]) if (child < heap.length && this.before(heap[worst] as T, heap[child] as T)) worst = child;
      if (worst === at) return;
      this.swap(at, worst);
      at = worst;
    }
  }

  private swap(a: number, b: number): void {
    const item = this.heap[a] as T;
    this.heap[a] = this.heap[b] as T;
    this.heap[b] = item;
  }
}
