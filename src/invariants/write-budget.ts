// write-budget: the kubelet spends its apiserver writes on changes.
//
// Two budgets, per pod:
//  - no no-op PATCH: a status PATCH from the kubelet that the apiserver served without changing the
//    object (the patch carried only the pod's UID, or values it already had). Since #88591 (v1.19)
//    syncPod does not send a patch that is exactly {metadata: {uid}} (BZ-24; BZ-18's churn on pods
//    that finalizers hold);
//  - at most WRITES_PER_POD_PER_MINUTE status PATCHes sent for one pod within any minute of virtual
//    time (what the client sends, answered or not: BZ-24's LastProbeTime churn, a reconcile loop).
// Counted per pod, whichever node's kubelet sends (spec.nodes: every node's pods).
import { Checker, type Feeds } from './checker.js';

export const WRITES_PER_POD_PER_MINUTE = 30;
const MINUTE_MS = 60_000;

export class WriteBudget extends Checker {
  /** Per pod: the instants of its recent kubelet PATCH requests (the last minute's). */
  private readonly recent = new Map<string, number[]>();

  constructor(feeds: Feeds) {
    super('write-budget', feeds.w);
    feeds.onTrace(['api.patch'], (r) => {
      if (r.actor !== 'kubelet' || r.pod === undefined || r.noop !== true || this.hasReported(r.pod)) return;
      this.violation(r.pod, `a no-op status PATCH (the apiserver's object did not change; uid ${String(r.uid)}, resourceVersion ${String(r.resourceVersion)})`, feeds.nodeOfRecord(r));
    });
    feeds.onTrace(['api.request'], (r) => {
      if (r.actor !== 'kubelet' || r.verb !== 'patch' || r.pod === undefined || this.hasReported(r.pod)) return;
      let ts = this.recent.get(r.pod);
      if (ts === undefined) this.recent.set(r.pod, (ts = []));
      ts.push(r.t);
      while (ts.length > 0 && ts[0] <= r.t - MINUTE_MS) ts.shift();
      if (ts.length > WRITES_PER_POD_PER_MINUTE) {
        this.violation(r.pod, `${ts.length} status PATCHes within a minute (${ts[0]}ms..${r.t}ms), over the budget of ${WRITES_PER_POD_PER_MINUTE}`, feeds.nodeOfRecord(r));
      }
    });
  }
}
