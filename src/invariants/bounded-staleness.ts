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
//
// Per node (spec.nodes): each node's kubelet has its own client (its QPS, its queue), its own
// stalenessBound and its own restarts; a record is routed to its node (nodeOfRecord: a request the
// apiserver traces without a node, to the node of its pod), and only the nodes with an unsent
// version are looked at when an instant ends.
import type { TraceRecord } from '../model/trace.js';
import type { NodeView } from '../model/world-view.js';
import { Checker, type Feeds } from './checker.js';

interface Unsent {
  version: number;
  sinceMs: number;
}

/** One node's kubelet client and the versions it has not sent. */
class NodeClient {
  readonly unsent = new Map<string, Unsent>();
  /** The version of each pod's sync in flight (its status.sync). */
  readonly syncing = new Map<string, number>();
  readonly qps: number;
  /** When the client could have sent every request queued to it so far, at qps. */
  drainAtMs = 0;
  requests = 0;
  constructor(readonly node: NodeView, readonly baseMs: number) {
    this.qps = node.config.apiQPS ?? 5;
  }
}

export class BoundedStaleness extends Checker {
  /** The nodes with a stalenessBound, by name. */
  private readonly clients = new Map<string, NodeClient>();
  /** The nodes with an unsent version (what an instant's end looks at). */
  private readonly withUnsent = new Set<NodeClient>();

  constructor(feeds: Feeds) {
    super('bounded-staleness', feeds.w);
    for (const node of feeds.w.nodes) {
      const base = node.config.stalenessBoundMs;
      if (base !== undefined) this.clients.set(node.name, new NodeClient(node, base));
    }
    if (this.clients.size === 0) return;
    feeds.onTrace(['status.set', 'status.sync', 'status.skip', 'api.request', 'api.patch', 'api.delete', 'kubelet.stop'], (r) => {
      const c = this.clients.get(feeds.nodeOfRecord(r).name);
      if (c !== undefined) this.observe(c, r);
    });
  }

  private observe(c: NodeClient, r: TraceRecord): void {
    if (r.type === 'kubelet.stop') {
      c.unsent.clear();
      c.syncing.clear();
      return;
    }
    const pod = r.pod;
    if (pod === undefined || (r.actor !== 'kubelet' && r.type !== 'api.delete')) return;
    const version = typeof r.version === 'number' ? r.version : undefined;
    switch (r.type) {
      case 'api.request':
        c.requests++;
        c.drainAtMs = Math.max(c.drainAtMs, r.t) + 1000 / c.qps;
        return;
      case 'status.set':
        if (version !== undefined && !c.unsent.has(pod)) {
          c.unsent.set(pod, { version, sinceMs: r.t });
          this.withUnsent.add(c);
        }
        return;
      case 'status.sync':
        if (version !== undefined) c.syncing.set(pod, version);
        return;
      case 'status.skip':
        if (r.reason === 'not found') c.unsent.delete(pod);
        else if ((r.reason === 'up-to-date' || r.reason === 'unchanged') && version !== undefined) this.reached(c, pod, version);
        return;
      case 'api.patch': {
        const v = c.syncing.get(pod);
        if (r.code === 200 && v !== undefined) this.reached(c, pod, v);
        return;
      }
      case 'api.delete':
        if (r.removed === true) c.unsent.delete(pod);
    }
  }

  private reached(c: NodeClient, pod: string, version: number): void {
    const p = c.unsent.get(pod);
    if (p !== undefined && version >= p.version) c.unsent.delete(pod);
  }

  endOfInstant(t: number): void {
    if (this.withUnsent.size === 0) return;
    for (const c of this.withUnsent) {
      if (c.unsent.size === 0) this.withUnsent.delete(c);
      else this.judge(c, t);
    }
  }

  private judge(c: NodeClient, t: number): void {
    for (const [pod, p] of c.unsent) {
      const from = Math.max(p.sinceMs, Math.ceil(c.drainAtMs));
      const due = from + c.baseMs;
      if (t <= due || this.hasReported(pod)) continue;
      const queue = from > p.sinceMs ? `the client's queue (${c.requests} requests so far at ${c.qps} QPS) drained by ${from}ms` : `the client idle`;
      this.violation(pod, `status version ${p.version}, accepted at ${p.sinceMs}ms, had not reached the apiserver at ${t}ms: due at ${due}ms (${queue}, + stalenessBound ${c.baseMs}ms)`, c.node);
    }
    this.flush();
  }

  override end(): void {
    const e = this.w.engine;
    this.endOfInstant(e.pending === 0 ? Math.max(e.nowMs, this.w.untilMs) : e.nowMs);
  }
}
