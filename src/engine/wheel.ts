// The engine's event queue for integer-millisecond keys, ordered (atMs, seq): a timing wheel of
// 4096 one-millisecond FIFO buckets with an overflow heap for events beyond its horizon.
//
// Entries live in parallel arrays (structure of arrays) and are recycled through a free list, so
// an event allocates nothing. Every entry in the wheel has atMs in [cur, cur + SLOTS), so a bucket
// holds one instant only; and since seq grows with every push, appending to a bucket keeps it in
// seq order. Entries at or beyond the horizon wait in a binary heap keyed (atMs, seq); whenever
// the wheel turns, the ones the new horizon covers move into their (still empty) buckets in heap
// order, before any later push can reach those buckets, so the FIFO order stays the seq order.
// A bitmap of non-empty buckets finds the next instant with a few clz32.

const SLOTS = 4096;
const MASK = SLOTS - 1;
const WORDS = SLOTS >>> 5;

export class EventWheel<P, F> {
  private cap = 1024;
  atMs = new Float64Array(this.cap);
  seq = new Float64Array(this.cap);
  token = new Float64Array(this.cap);
  next = new Int32Array(this.cap);
  readonly proc: Array<P | null> = new Array<P | null>(this.cap).fill(null);
  readonly value: unknown[] = new Array<unknown>(this.cap).fill(undefined);
  readonly fn: Array<F | null> = new Array<F | null>(this.cap).fill(null);

  private used = 0;
  private freeHead = -1;
  private seqCounter = 0;
  private readonly head = new Int32Array(SLOTS).fill(-1);
  private readonly tail = new Int32Array(SLOTS).fill(-1);
  private readonly bits = new Int32Array(WORDS);
  /** The wheel's base instant and its bucket: every wheel entry has atMs in [cur, cur + SLOTS). */
  private cur = 0;
  private curSlot = 0;
  private inWheel = 0;
  /** Binary heap of entry indices beyond the horizon, keyed (atMs, seq). */
  private readonly over: number[] = [];

  get size(): number {
    return this.inWheel + this.over.length;
  }

  /** Queue an entry at atMs (an integer, ≥ every instant already popped); returns its index, whose
   *  payload (proc, token, value, fn) the caller fills. */
  push(atMs: number): number {
    let i = this.freeHead;
    if (i >= 0) this.freeHead = this.next[i];
    else {
      if (this.used === this.cap) this.grow();
      i = this.used++;
    }
    this.atMs[i] = atMs;
    this.seq[i] = this.seqCounter++;
    const d = atMs - this.cur;
    if (d < SLOTS) this.append((this.curSlot + d) & MASK, i);
    else this.overPush(i);
    return i;
  }

  /** The seq of entry i (identifies it against reuse). */
  seqOf(i: number): number {
    return this.seq[i];
  }

  /** The earliest queued instant, or -1 when nothing is queued. */
  peekTime(): number {
    if (this.inWheel > 0) {
      const s = this.curSlot;
      if (this.head[s] >= 0) return this.cur;
      return this.cur + this.distance(s);
    }
    return this.over.length > 0 ? this.atMs[this.over[0]] : -1;
  }

  /** Turn the wheel to t, the earliest queued instant (peekTime). */
  advance(t: number): void {
    const d = t - this.cur;
    if (d === 0) return;
    // With d ≥ SLOTS the wheel is empty, and any bucket can be the base.
    if (d < SLOTS) this.curSlot = (this.curSlot + d) & MASK;
    this.cur = t;
    const o = this.over;
    if (o.length > 0 && this.atMs[o[0]] < t + SLOTS) this.migrate();
  }

  /** Take the first entry of the current instant (after advance). */
  pop(): number {
    const s = this.curSlot;
    const i = this.head[s];
    const n = this.next[i];
    this.head[s] = n;
    if (n < 0) {
      this.tail[s] = -1;
      this.bits[s >>> 5] &= ~(1 << (s & 31));
    }
    this.inWheel--;
    return i;
  }

  /** The entries of the current instant, in order (for a tie choice). */
  current(out: number[]): void {
    out.length = 0;
    for (let i = this.head[this.curSlot]; i >= 0; i = this.next[i]) out.push(i);
  }

  /** Take entry i out of the current instant's bucket (it must be there). */
  unlink(i: number): void {
    const s = this.curSlot;
    if (this.head[s] === i) {
      this.pop();
      return;
    }
    let p = this.head[s];
    while (this.next[p] !== i) p = this.next[p];
    this.next[p] = this.next[i];
    if (this.tail[s] === i) this.tail[s] = p;
    this.inWheel--;
  }

  /** Return a popped entry to the pool (its payload already cleared by the caller). */
  release(i: number): void {
    this.next[i] = this.freeHead;
    this.freeHead = i;
  }

  private append(s: number, i: number): void {
    this.next[i] = -1;
    const t = this.tail[s];
    if (t < 0) {
      this.head[s] = i;
      this.bits[s >>> 5] |= 1 << (s & 31);
    } else this.next[t] = i;
    this.tail[s] = i;
    this.inWheel++;
  }

  /** Buckets from s to the next non-empty one (the wheel holds at least one entry). */
  private distance(s: number): number {
    const bits = this.bits;
    let w = s >>> 5;
    let word = bits[w] & (-1 << (s & 31));
    for (let k = 0; k <= WORDS; k++) {
      if (word !== 0) return (((w << 5) | (31 - Math.clz32(word & -word))) - s) & MASK;
      w = (w + 1) & (WORDS - 1);
      word = bits[w];
    }
    throw new Error('event wheel: no bucket set although entries are queued');
  }

  private migrate(): void {
    const o = this.over;
    const horizon = this.cur + SLOTS;
    while (o.length > 0 && this.atMs[o[0]] < horizon) {
      const i = this.overPop();
      this.append((this.curSlot + (this.atMs[i] - this.cur)) & MASK, i);
    }
  }

  private less(a: number, b: number): boolean {
    const x = this.atMs[a], y = this.atMs[b];
    return x < y || (x === y && this.seq[a] < this.seq[b]);
  }

  private overPush(e: number): void {
    const h = this.over;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(h[p], e)) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = e;
  }

  private overPop(): number {
    const h = this.over;
    const top = h[0];
    const last = h.pop()!;
    const m = h.length;
    if (m > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= m) break;
        if (c + 1 < m && this.less(h[c + 1], h[c])) c++;
        if (this.less(last, h[c])) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }

  private grow(): void {
    const cap = this.cap * 2;
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    this.atMs = f64(this.atMs);
    this.seq = f64(this.seq);
    this.token = f64(this.token);
    const n = new Int32Array(cap);
    n.set(this.next);
    this.next = n;
    for (let i = this.cap; i < cap; i++) {
      this.proc.push(null);
      this.value.push(undefined);
      this.fn.push(null);
    }
    this.cap = cap;
  }
}
