// deleted-pod-reaches-terminal (current generation): a pod deleted through the apiserver is given a
// terminal phase (Succeeded or Failed) before it goes, finalizers or not.
//
// Since v1.27 (#115331, BZ-19) the kubelet writes a terminal phase for every pod it stops for good,
// so a controller that holds the pod with a finalizer (the Job controller's job-tracking) learns how
// it ended. Judged like deletion-completes (liveness.ts): tracked from the write that sets the
// deletionTimestamp until the object is gone or shows a terminal phase; due 2 × syncPeriod of quiet
// after the later of the grace deadline and the start of quiet (a kubelet that starts during the
// deletion kills with the whole grace again); still non-terminal when due is a violation. Only pods
// this run's kubelet is responsible for count: on its node, not `only: apiserver`, not mirror pods
// (their deletion is the static pod's mirror upkeep). With `runtime: none` nothing stops containers,
// so a pod counts once the scenario ran `terminatePod` for it (what the pod worker does when it
// is done). Classic (v1.19–v1.26) never promised this: the checker is inert there. Per node
// (spec.nodes): a pod is its own node's kubelet's (that node's runtime and kubelet start decide).
import { isMirrorPod, isPodPhaseTerminal, podKey, type Pod, type UID } from '../model/pod.js';
import { parseRfc3339 } from '../model/time.js';
import { Checker, type Feeds } from './checker.js';
import type { QuietClock } from './liveness.js';
import type { NodeView } from '../model/world-view.js';

export class DeletedPodReachesTerminal extends Checker {
  /** Objects being deleted and not terminal yet, by UID, with their grace deadline (virtual ms). */
  private readonly deleting = new Map<UID, { pod: Pod; deadlineMs: number }>();
  /** When each node's current kubelet started, by node name. */
  private readonly kubeletStartMs = new Map<string, number>();
  /** Pod keys a `terminatePod` step ran for (runtime: none). */
  private readonly terminated = new Set<string>();

  constructor(private readonly feeds: Feeds, private readonly quiet: QuietClock) {
    super('deleted-pod-reaches-terminal', feeds.w);
    if (feeds.w.variant !== 'current') return;
    feeds.onTrace(['kubelet.start'], (r) => {
      this.kubeletStartMs.set(feeds.nodeOfRecord(r).name, r.t);
    });
    feeds.onTrace(['step'], (r) => {
      if (r.action === 'terminatePod' && r.pod !== undefined) this.terminated.add(r.pod);
    });
    for (const p of feeds.w.apiserver.list()) this.track(p);
    feeds.onApiChange(({ type, next }) => {
      if (type === 'DELETED' || isPodPhaseTerminal(next.status?.phase)) this.deleting.delete(next.metadata?.uid ?? '');
      else this.track(next);
    });
  }

  private track(p: Pod): void {
    const ts = p.metadata?.deletionTimestamp;
    if (!ts || isPodPhaseTerminal(p.status?.phase)) return;
    const ms = parseRfc3339(ts);
    this.deleting.set(p.metadata?.uid ?? '', { pod: p, deadlineMs: ms === undefined ? this.w.engine.nowMs : ms - this.w.epochMs });
  }

  /** Whether the kubelet of `node` (the pod's node, undefined: none of the run's) must end `p`. */
  private responsible(p: Pod, node: NodeView | undefined): boolean {
    if (node === undefined || this.w.foreignKeys.has(podKey(p)) || isMirrorPod(p)) return false;
    return node.runtime !== null || this.terminated.has(podKey(p));
  }

  endOfInstant(t: number): void {
    if (this.deleting.size === 0) return;
    const since = this.quiet.quietSince(t);
    if (since === undefined || t - since < this.quiet.minSettleMs) return;
    for (const [uid, d] of this.deleting) {
      const node = this.feeds.nodeNamed(d.pod.spec?.nodeName ?? '');
      const on = node ?? this.feeds.defaultNode;
      const graceMs = (d.pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
      const startMs = this.kubeletStartMs.get(on.name) ?? 0;
      const deadlineMs = startMs > d.deadlineMs - graceMs ? Math.max(d.deadlineMs, startMs + graceMs) : d.deadlineMs;
      const nodeSince = this.quiet.nodeQuietSince(since, on);
      if (nodeSince === undefined || Math.max(deadlineMs, nodeSince) + this.quiet.settleOf(on) > t) continue;
      const key = podKey(d.pod);
      if (this.hasReported(key) || !this.responsible(d.pod, node)) continue;
      this.violation(key, `deleted (deletionTimestamp ${d.pod.metadata?.deletionTimestamp}) but still ${d.pod.status?.phase ?? 'without a phase'} in the apiserver ${t - d.deadlineMs}ms after it (uid ${uid})`, on);
    }
    this.flush();
  }

  override end(): void {
    const e = this.w.engine;
    this.endOfInstant(e.pending === 0 ? Math.max(e.nowMs, this.w.untilMs) : e.nowMs);
  }
}
