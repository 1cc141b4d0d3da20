// bounded-staleness: a status the kubelet's status manager accepted reaches the apiserver within a
// bound, and the bound accounts for the client's QPS.
//
// A version is accepted by a `status.set`; it has reached the apiserver when a sync of it, or of a
// later version (the status manager sends only the newest), ends in a kubelet PATCH the apiserver
// served, or in a `status.skip` that finds the apiserver already holding it (`up-to-date`,
// `unchanged`). The bound of a version is
//
//     spec.kubelet.stalenessBound + 2 × (pods with a version not yet sent, itself included) / apiQPS
//
// seconds: each of those syncs is a GET and a PATCH through the client's token bucket (BZ-16's
// window: at 5 QPS, 100 pods queue 40 s of requests). It is judged when the bound is passed — at
// the first instant after it, and at the end of the run — once per pod. A pod that leaves the
// apiserver (removed, or a sync's GET finds none) owes nothing; a kubelet that stops loses what it
// had not sent (its successor accepts its statuses afresh: that is the restart's staleness, which
// `status-converges` judges). Without `stalenessBound` the invariant has no bound and judges
// nothing: a partition or a down apiserver delays every write by design, so the bound is the
// scenario's to state.
import { Checker, type Feeds } from './checker.js';

interface Pending {
  version: number;
  sinceMs: number;
  boundMs: number;
  queued: number;
}

export class BoundedStaleness extends Checker {
  private readonly unsent = new Map<string, Pending>();
  /** The version of each pod's sync in flight (its status.sync). */
  private readonly syncing = new Map<string, number>();
  private readonly baseMs: number | undefined;
  private readonly qps: number;

  constructor(feeds: Feeds) {
    super('bounded-staleness', feeds.w);
    this.baseMs = feeds.w.config.stalenessBoundMs;
    this.qps = feeds.w.config.apiQPS ?? 5;
    if (this.baseMs === undefined) return;
    feeds.onTrace(['status.set', 'status.sync', 'status.skip', 'api.patch', 'api.delete', 'kubelet.stop'], (r) => {
      const pod = r.pod;
      if (r.type === 'kubelet.stop') {
        this.unsent.clear();
        this.syncing.clear();
        return;
      }
      if (pod === undefined || r.actor !== 'kubelet' && r.type !== 'api.delete') return;
      const version = typeof r.version === 'number' ? r.version : undefined;
      switch (r.type) {
        case 'status.set':
          if (version !== undefined && !this.unsent.has(pod)) this.accept(pod, version, r.t);
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
    });
  }

  private accept(pod: string, version: number, t: number): void {
    const queued = this.unsent.size + 1;
    const boundMs = this.baseMs! + Math.ceil((2 * queued * 1000) / this.qps);
    this.unsent.set(pod, { version, sinceMs: t, boundMs, queued });
  }

  private reached(pod: string, version: number): void {
    const p = this.unsent.get(pod);
    if (p !== undefined && version >= p.version) this.unsent.delete(pod);
  }

  endOfInstant(t: number): void {
    if (this.unsent.size === 0) return;
    for (const [pod, p] of this.unsent) {
      if (t - p.sinceMs <= p.boundMs || this.hasReported(pod)) continue;
      const q = `${this.baseMs}ms + 2 × ${p.queued} pod(s) queued / ${this.qps} QPS`;
      this.violation(pod, `status version ${p.version}, accepted at ${p.sinceMs}ms, had not reached the apiserver at ${t}ms: ${t - p.sinceMs}ms, over the bound of ${p.boundMs}ms (${q})`);
    }
    this.flush();
  }

  override end(): void {
    const e = this.w.engine;
    this.endOfInstant(e.pending === 0 ? Math.max(e.nowMs, this.w.untilMs) : e.nowMs);
  }
}
