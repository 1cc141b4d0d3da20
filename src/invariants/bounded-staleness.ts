// bounded-staleness: a status the kubelet's status manager accepted reaches the apiserver within a
// bound, and the bound accounts for the client's QPS.
//
// A version is accepted by a `status.set`; it has reached the apiserver when a sync of it, or of a
// later version (the status manager sends only the newest), ends in a kubelet PATCH the apiserver
// served, or in a `status.skip` that finds the apiserver already holding it (`up-to-date`,
// `unchanged`). The bound is
//
//     spec.kubelet.stalenessBound past the later of the acceptance and the instant by which the
//     kubelet's client, at apiQPS, could have sent every request queued to it so far
//
// (each `api.request` is traced as it enters the client's token bucket, before the bucket holds it
// back: a status sync is a GET and a PATCH, a starting pod's token one more; the burst is ignored,
// which only makes the bound looser). So a queue of writes at a low QPS (BZ-16's 5 QPS) stretches the
// bound as far as the queue reaches, while a version the kubelet leaves unsent with an idle client
// (a dropped channel request, a missed wake-up) is stale after `stalenessBound`. It is judged at the
// first instant past the bound and at the end of the run, once per pod. A pod that leaves the
// apiserver (removed, or a sync's GET finds none) owes nothing; a kubelet that stops loses what it
// had not sent (its successor accepts its statuses afresh; the restart's staleness is
// status-converges's). Without `stalenessBound` the invariant judges nothing: a partition or a down
// apiserver delays every write by design, so the bound is the scenario's to state.
import { Checker, type Feeds } from './checker.js';

interface Unsent {
  version: number;
  sinceMs: number;
}

export class BoundedStaleness extends Checker {
  private readonly unsent = new Map<string, Unsent>();
  /** The version of each pod's sync in flight (its status.sync). */
  private readonly syncing = new Map<string, number>();
  private readonly baseMs: number | undefined;
  private readonly qps: number;
  /** When the client could have sent every request queued to it so far, at qps. */
  private drainAtMs = 0;
  private requests = 0;

  constructor(feeds: Feeds) {
    super('bounded-staleness', feeds.w);
    this.baseMs = feeds.w.config.stalenessBoundMs;
    this.qps = feeds.w.config.apiQPS ?? 5;
    if (this.baseMs === undefined) return;
    feeds.onTrace(['status.set', 'status.sync', 'status.skip', 'api.request', 'api.patch', 'api.delete', 'kubelet.stop'], (r) => this.observe(r));
  }

  private observe(r: { type: string; actor: string; t: number; pod?: string; [k: string]: unknown }): void {
    if (r.type === 'kubelet.stop') {
      this.unsent.clear();
      this.syncing.clear();
      return;
    }
    const pod = r.pod;
    if (pod === undefined || (r.actor !== 'kubelet' && r.type !== 'api.delete')) return;
    const version = typeof r.version === 'number' ? r.version : undefined;
    switch (r.type) {
      case 'api.request':
        this.requests++;
        this.drainAtMs = Math.max(this.drainAtMs, r.t) + 1000 / this.qps;
        return;
      case 'status.set':
        if (version !== undefined && !this.unsent.has(pod)) this.unsent.set(pod, { version, sinceMs: r.t });
        return;
      case 'status.sync':
        if (version !== undefined) this.syncing.set(pod, version);
        return;
      case 'status.skip':
        if (r.reason === 'not found') this.unsent.delete(pod);
        else if ((r.reason === 'up-to-date' || r.reason === 'unchanged') && version !== undefined) this.reached(pod, version);
        return;
      case 'api.patch': {
        const v = this.syncing.get(pod);
        if (r.code === 200 && v !== undefined) this.reached(pod, v);
        return;
      }
      case 'api.delete':
        if (r.removed === true) this.unsent.delete(pod);
    }
  }

  private reached(pod: string, version: number): void {
    const p = this.unsent.get(pod);
    if (p !== undefined && version >= p.version) this.unsent.delete(pod);
  }

  endOfInstant(t: number): void {
    if (this.unsent.size === 0) return;
    for (const [pod, p] of this.unsent) {
      const from = Math.max(p.sinceMs, Math.ceil(this.drainAtMs));
      const due = from + this.baseMs!;
      if (t <= due || this.hasReported(pod)) continue;
      const queue = from > p.sinceMs ? `the client's queue (${this.requests} requests so far at ${this.qps} QPS) drained by ${from}ms` : `the client idle`;
      this.violation(pod, `status version ${p.version}, accepted at ${p.sinceMs}ms, had not reached the apiserver at ${t}ms: due at ${due}ms (${queue}, + stalenessBound ${this.baseMs}ms)`);
    }
    this.flush();
  }

  override end(): void {
    const e = this.w.engine;
    this.endOfInstant(e.pending === 0 ? Math.max(e.nowMs, this.w.untilMs) : e.nowMs);
  }
}
