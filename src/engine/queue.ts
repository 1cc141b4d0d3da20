// A binary min-heap of events keyed (atMs, seq). seq comes from a counter, so every tie is broken
// by scheduling order and the queue is a total order.

export interface QueueEntry {
  atMs: number;
  seq: number;
}

export class EventQueue<E extends QueueEntry> {
  private heap: E[] = [];

  get size(): number {
    return this.heap.length;
  }

  peek(): E | undefined {
    return this.heap[0];
  }

  push(e: E): void {
    const h = this.heap;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const q = h[p];
      if (q.atMs < e.atMs || (q.atMs === e.atMs && q.seq < e.seq)) break;
      h[i] = q;
      i = p;
    }
    h[i] = e;
  }

  pop(): E | undefined {
    const h = this.heap;
    const n = h.length;
    if (n === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (n > 1) {
      const m = n - 1;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= m) break;
        const r = c + 1;
        if (r < m) {
          const a = h[c], b = h[r];
          if (b.atMs < a.atMs || (b.atMs === a.atMs && b.seq < a.seq)) c = r;
        }
        const x = h[c];
        if (last.atMs < x.atMs || (last.atMs === x.atMs && last.seq < x.seq)) break;
        h[i] = x;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}
