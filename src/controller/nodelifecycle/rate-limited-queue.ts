// pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go: the zone's NoExecute tainter, a
// queue of node names behind a token-bucket limiter (client-go flowcontrol, burst
// EvictionRateLimiterBurst = 1), tried every NodeEvictionPeriod. Each Try takes one token per
// item it looks at: with no token it stops; an item whose action fails is tried again later. A
// limiter of QPS 0 accepts nothing (NewFakeNeverRateLimiter). SwapLimiter installs a new bucket,
// full, unless the old one had no token to give: then the new one is drained too ("a good
// approach when Burst value is 1"). With burst 1 the bucket is one instant: when it is full again.
// UniqueQueue: a node done with (RemoveFromQueue) stays in the set, so it is not queued again until
// Remove takes it out (markNodeAsReachable, or markNodeForTainting when its taint is off).
// The virtual clock needs no tick while no token can come: nextTryMs says when the next Try can
// do anything, so the controller schedules only that one.

/** One queued node: when it was added (it is due at once: ProcessAt = AddedAt). */
interface Queued {
  name: string;
  processAtMs: number;
  seq: number;
}

export class RateLimitedTimedQueue {
  private readonly items = new Map<string, Queued>();
  /** UniqueQueue's set: every node queued, or done with and not Removed since. */
  private readonly set = new Set<string>();
  private seq = 0;
  /** The limiter's QPS; 0: never accepts. */
  private qps: number;
  /** When the bucket holds its token again (virtual ms). */
  private fullAtMs = 0;

  constructor(qps: number) {
    this.qps = qps;
  }

  get size(): number {
    return this.items.size;
  }

  /** Add: false when the node is in the set (queued, or done with and not removed since). */
  add(name: string, nowMs: number): boolean {
    if (this.set.has(name)) return false;
    this.set.add(name);
    this.items.set(name, { name, processAtMs: nowMs, seq: this.seq++ });
    return true;
  }

  /** Remove: out of the queue and the set (it may be added again); whether it was in the set. */
  remove(name: string): boolean {
    this.items.delete(name);
    return this.set.delete(name);
  }

  /** TryAccept: take the token if the bucket has it. */
  private tryAccept(nowMs: number): boolean {
    if (this.qps <= 0 || nowMs < this.fullAtMs) return false;
    this.fullAtMs = nowMs + 1000 / this.qps;
    return true;
  }

  /** SwapLimiter(newQPS). */
  swapLimiter(newQps: number, nowMs: number): void {
    if (this.qps === newQps) return;
    const oldHadToken = this.tryAccept(nowMs);
    this.qps = newQps;
    this.fullAtMs = nowMs;
    if (newQps > 0 && !oldHadToken) this.tryAccept(nowMs);
  }

  /** Try: while a token comes, act on the earliest item due; an action that fails (false) leaves
   *  the item to be tried again at the next pass. */
  try(nowMs: number, act: (name: string) => boolean): void {
    for (let head = this.head(); head !== undefined; head = this.head()) {
      if (!this.tryAccept(nowMs)) break;
      if (nowMs < head.processAtMs) break;
      if (act(head.name)) this.items.delete(head.name); // RemoveFromQueue: still in the set
      else head.processAtMs = nowMs + 1; // (ProcessAt = now + wait + 1)
    }
  }

  /** The instant from which a Try can act (the bucket full and an item due), or undefined: nothing
   *  queued, or a limiter that never accepts. */
  nextTryMs(): number | undefined {
    const head = this.head();
    if (head === undefined || this.qps <= 0) return undefined;
    return Math.max(this.fullAtMs, head.processAtMs);
  }

  /** The queue's head: the earliest processAt, then the earliest added. */
  private head(): Queued | undefined {
    let best: Queued | undefined;
    for (const q of this.items.values()) if (best === undefined || q.processAtMs < best.processAtMs || (q.processAtMs === best.processAtMs && q.seq < best.seq)) best = q;
    return best;
  }
}
