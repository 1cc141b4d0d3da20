// deleted-pod-stops (extension, runtime: simulated): a pod gone from the apiserver leaves no running
// container on its node. The apiserver is consistent when an object is gone; the node may not be —
// BZ-25 (#113145): a force-deleted pod whose SyncTerminatingPod failed is never tried again, and its
// containers run on, with no pod to show for them, until the kubelet restarts.
//
// Judged like deletion-completes (liveness.ts): tracked from the watch's DELETED; due after the
// later of the removal and the start of its node's quiet, plus 2 × syncPeriod and the grace the
// kubelet kills with (a force deletion still gets the pod's own terminationGracePeriodSeconds:
// calculateEffectiveGracePeriod; at least the 2 s of minimumGracePeriodInSeconds); a container of
// the pod (by UID) still running in its node's runtime when due is a violation. A fault in force
// holds quiet back (a partitioned kubelet cannot know of the deletion; a runtime that cannot signal
// cannot stop); a kubelet started since the removal kills an orphaned runtime pod with a grace of
// 1 s. Only pods this run's kubelet is responsible for count: bound to one of the run's nodes, not
// `only: apiserver`, and not mirror pods (their static pod runs on).
import { isMirrorPod, podKey, type Pod, type UID } from '../model/pod.js';
import { Checker, type Feeds } from './checker.js';
import type { QuietClock } from './liveness.js';

const MIN_KILL_GRACE_MS = 2_000;
const DEFAULT_TERMINATION_GRACE_MS = 30_000;

export class DeletedPodStops extends Checker {
  /** Pods gone from the apiserver whose containers may still run, by UID, with when they went. */
  private readonly gone = new Map<UID, { pod: Pod; goneMs: number }>();

  constructor(private readonly feeds: Feeds, private readonly quiet: QuietClock) {
    super('deleted-pod-stops', feeds.w);
    feeds.onApiChange(({ type, next }) => {
      if (type !== 'DELETED' || isMirrorPod(next) || this.w.foreignKeys.has(podKey(next))) return;
      this.gone.set(next.metadata?.uid ?? '', { pod: next, goneMs: this.w.engine.nowMs });
    });
  }

  endOfInstant(t: number): void {
    if (this.gone.size === 0) return;
    const since = this.quiet.quietSince(t);
    if (since === undefined || t - since < this.quiet.minSettleMs) return;
    for (const [uid, g] of this.gone) {
      const node = this.feeds.nodeNamed(g.pod.spec?.nodeName ?? '') ?? (this.w.nodes.length === 1 ? this.feeds.defaultNode : undefined);
      if (node === undefined || node.runtime === null) {
        this.gone.delete(uid);
        continue;
      }
      const nodeSince = this.quiet.nodeQuietSince(since, node);
      const specGrace = g.pod.spec?.terminationGracePeriodSeconds;
      const graceMs = Math.max(MIN_KILL_GRACE_MS, specGrace === undefined || specGrace === null ? DEFAULT_TERMINATION_GRACE_MS : specGrace * 1000);
      if (nodeSince === undefined || Math.max(g.goneMs, nodeSince) + this.quiet.settleOf(node) + graceMs > t) continue;
      const running = node.runtime.runningContainers(uid);
      this.gone.delete(uid);
      if (running.length === 0 || this.hasReported(podKey(g.pod))) continue;
      const names = running.map((c) => c.name).join(', ');
      this.violation(podKey(g.pod), `gone from the apiserver since ${g.goneMs}ms, but its node still runs ${names} (uid ${uid}) ${t - g.goneMs}ms later`, node);
    }
    this.flush();
  }

  override end(): void {
    const e = this.w.engine;
    this.endOfInstant(e.pending === 0 ? Math.max(e.nowMs, this.w.untilMs) : e.nowMs);
  }
}
