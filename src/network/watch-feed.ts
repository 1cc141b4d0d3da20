// The kubelet's watch over the network: the apiserver's watch events reach a kubelet-side
// listener (the pod manager) after a delay drawn from the `get` latency range (stream
// 'network/watch'). Order is kept: an event is never delivered before an earlier one, so a
// delivery time is max(raised + delay, previous delivery time). While the link is partitioned
// nothing is delivered; on repair the held events travel again, each after a fresh delay, in
// order. Each delivery is traced as `api.watch`.
import type { Engine, Timer } from '../engine/engine.js';
import type { ApiServer, WatchEvent, WatchListener } from '../apiserver/index.js';
import { podKey, type Pod } from '../model/pod.js';
import { emitsNothing, type Tracer } from '../model/trace.js';

/** What a feed reads of the link it travels over (the Network satisfies it): declared here, below
 *  network.ts, so that network.ts imports watch-feed.ts and not the reverse. */
export interface WatchLink {
  readonly engine: Engine;
  readonly apiserver: ApiServer;
  readonly partitioned: boolean;
  readonly tracer: Tracer;
  drawWatchLatency(): number;
  detach(feed: WatchFeed): void;
}

export interface WatchFeedOptions {
  /** Only events whose object passes (a field selector such as spec.nodeName). */
  filter?: (pod: Pod) => boolean;
  /** The field selector spec.nodeName=<node> of a kubelet's pod informer: the apiserver raises only
   *  the events of that node's objects on this feed (no per-event filter over every feed). */
  nodeName?: string;
  /** Start with an ADDED event for every object already stored (the informer's list), by "ns/name". */
  replay?: boolean;
}

interface InFlight {
  readonly event: WatchEvent;
  readyAt: number;
}

export class WatchFeed {
  private queue: InFlight[] = [];
  private head = 0;
  private lastReadyAt = Number.NEGATIVE_INFINITY;
  private timer: Timer | null = null;
  private timerAt = 0;
  private stopped = false;
  private readonly filter: ((pod: Pod) => boolean) | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly network: WatchLink, private readonly listener: WatchListener, opts: WatchFeedOptions = {}) {
    this.filter = opts.filter;
    if (opts.replay) for (const pod of network.apiserver.list()) this.raise({ type: 'ADDED', object: pod });
    const raise = (ev: WatchEvent) => this.raise(ev);
    this.unsubscribe = opts.nodeName === undefined ? network.apiserver.watch(raise) : network.apiserver.watchNode(opts.nodeName, raise);
  }

  /** Events raised but not yet delivered (in flight or held by a partition). */
  get pending(): number {
    return this.queue.length - this.head;
  }

  /** Stop watching: nothing more is delivered, held events are dropped. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe();
    this.timer?.cancel();
    this.timer = null;
    this.queue = [];
    this.head = 0;
    this.network.detach(this);
  }

  /** @internal The link healed: held and in-flight events get a fresh delay from now, in order. */
  onRepair(): void {
    if (this.stopped) return;
    const now = this.network.engine.nowMs;
    let last = Number.NEGATIVE_INFINITY;
    for (let i = this.head; i < this.queue.length; i++) {
      const q = this.queue[i];
      q.readyAt = Math.max(q.readyAt, now + this.network.drawWatchLatency(), last);
      last = q.readyAt;
    }
    if (last > this.lastReadyAt) this.lastReadyAt = last;
    this.arm();
  }

  private raise(event: WatchEvent): void {
    if (this.stopped) return;
    if (this.filter !== undefined && !this.filter(event.object)) return;
    const readyAt = Math.max(this.network.engine.nowMs + this.network.drawWatchLatency(), this.lastReadyAt);
    this.lastReadyAt = readyAt;
    this.queue.push({ event, readyAt });
    this.arm();
  }

  /** Keep one timer, at the head's delivery time. */
  private arm(): void {
    if (this.stopped || this.network.partitioned || this.head >= this.queue.length) return;
    const at = this.queue[this.head].readyAt;
    if (this.timer !== null) {
      if (this.timerAt === at) return;
      this.timer.cancel();
    }
    this.timerAt = at;
    this.timer = this.network.engine.at(at, () => this.pump());
  }

  private pump(): void {
    this.timer = null;
    if (this.stopped || this.network.partitioned) return;
    const now = this.network.engine.nowMs;
    const tracer = this.network.tracer;
    while (this.head < this.queue.length && this.queue[this.head].readyAt <= now) {
      const { event } = this.queue[this.head];
      this.head++;
      const o = event.object;
      if (emitsNothing(tracer)) tracer.skip!('api.watch');
      else tracer.emit({ type: 'api.watch', actor: 'apiserver', pod: podKey(o), uid: o.metadata?.uid ?? '', event: event.type, resourceVersion: o.metadata?.resourceVersion ?? '' });
      this.listener(event);
      if (this.stopped || this.network.partitioned) return;
    }
    if (this.head > 64 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.arm();
  }
}
