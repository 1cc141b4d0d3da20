// The liveness invariants, and the "quiet" they are judged by.
//
// Quiet. The scenario is quiet at instant t when
//   - no timeline step or scheduled create is still to come (t >= the last of them), and
//   - no fault is in force: every `fault.begin` (partition, fail, apiserverDown) has had its
//     `fault.end` (paired by `fault` and `id`), and
//   - the kubelet is up (between `restartKubelet` and the new incarnation it is down).
// It has been quiet since the latest of: the last scheduled step, the last fault.begin/fault.end,
// the last kubelet.start/kubelet.stop. A liveness invariant gives the kubelet 2 × syncPeriod of
// quiet to do its work, counted per pod from what that pod last waited for (below); it is judged
// at the end of the first instant at or after that deadline, and once more at the end of the run
// for deadlines that fell after the last event (a run that went idle is judged at `until`: nothing
// can change any more). A deadline beyond the run's end is never judged: the run ended too early
// to tell. Checkers schedule nothing (they must not change the run); an instant with no event is
// not looked at, but the status manager's ticker makes one at least every syncPeriod.
//
// Many nodes (spec.nodes): quiet is each node's. A fault of the apiserver's (apiserverDown: a
// fault record without `node`) and the timeline hold every node back; a fault on a node's link
// (partition, fail: its records carry `node`) and its kubelet being down hold back that node
// only. A node is quiet when the cluster is and it is; since the latest of the cluster's last
// change and its own. Each pod is judged against its own node's quiet, kubelet, runtime and
// syncPeriod (2 × the node's syncPeriod), so a node partitioned or powered off for good leaves
// the others judged (its own pods never are: the run cannot tell what they would have done). With
// one node this is the quiet above.
import { isMirrorPod, isStaticPod, podKey, type Pod, type UID } from '../model/pod.js';
import { parseRfc3339 } from '../model/time.js';
import { faultKey } from '../model/trace.js';
import { EventQueue } from '../engine/queue.js';
import { CONTAINER_GC_PERIOD_MS, DEFAULT_NODE_TUNING } from '../kubelet/node/node.js';
import { Checker, type Feeds } from './checker.js';
import type { InvariantWorld, NodeView } from '../model/world-view.js';

/** What holds one node's quiet back: the faults in force on its link, its kubelet being down. */
interface NodeQuiet {
  readonly faults: Set<string>;
  down: boolean;
  changedMs: number;
}

export class QuietClock {
  /** The apiserver's faults in force (records without `node`). */
  private readonly faults = new Set<string>();
  /** The cluster's last change: an apiserver fault's begin or end. */
  private changedMs: number;
  /** Each node's own state, by name. */
  private readonly nodes = new Map<string, NodeQuiet>();
  /** The least of the nodes' settle times (quiet shorter than it judges no node). */
  readonly minSettleMs: number;

  constructor(private readonly w: InvariantWorld, feeds: Feeds) {
    this.changedMs = w.engine.nowMs;
    let min = Infinity;
    for (const n of w.nodes) {
      this.nodes.set(n.name, { faults: new Set(), down: n.kubelet() === null, changedMs: w.engine.nowMs });
      min = Math.min(min, this.settleOf(n));
    }
    this.minSettleMs = min;
    feeds.onTrace(['fault.begin', 'fault.end'], (r) => {
      // a fault of a node's link names its node (a one-node run's do not: its link is the cluster's);
      // apiserverDown is the apiserver's, whichever node's network traced it
      const id = faultKey(r);
      const n = typeof r.node === 'string' && r.fault !== 'apiserverDown' ? this.nodes.get(r.node) : undefined;
      const faults = n?.faults ?? this.faults;
      if (r.type === 'fault.begin') faults.add(id);
      else faults.delete(id);
      if (n !== undefined) n.changedMs = r.t;
      else this.changedMs = r.t;
    });
    feeds.onTrace(['kubelet.start', 'kubelet.stop'], (r) => {
      // (a kubelet.stop and its node's kubelet cleared happen in one event, as do the kubelet set
      // and its kubelet.start)
      const n = this.stateOf(feeds.nodeOfRecord(r));
      n.down = r.type === 'kubelet.stop';
      n.changedMs = r.t;
    });
  }

  private stateOf(node: NodeView): NodeQuiet {
    let n = this.nodes.get(node.name);
    if (n === undefined) {
      n = { faults: new Set(), down: false, changedMs: this.w.engine.nowMs };
      this.nodes.set(node.name, n);
    }
    return n;
  }

  /** The instant the cluster's current quiet stretch began (no apiserver fault in force, the
   *  timeline done), or undefined when it is not quiet: no node is quiet before it. */
  quietSince(t: number): number | undefined {
    if (this.faults.size > 0 || t < this.w.lastScheduledMs) return undefined;
    return Math.max(this.changedMs, this.w.lastScheduledMs);
  }

  /** The instant the node's current quiet stretch began, given the cluster's (quietSince(t)), or
   *  undefined when a fault is in force on its link or its kubelet is down. */
  nodeQuietSince(clusterSince: number, node: NodeView): number | undefined {
    const n = this.stateOf(node);
    if (n.down || n.faults.size > 0) return undefined;
    return n.changedMs > clusterSince ? n.changedMs : clusterSince;
  }

  /** 2 × the node's syncPeriod. */
  settleOf(node: NodeView): number {
    return 2 * node.config.syncPeriodMs;
  }
}

/** Base of the two liveness checkers: judge at the end of an instant, and at the end of the run. */
abstract class LivenessChecker extends Checker {
  constructor(name: 'status-converges' | 'deletion-completes', feeds: Feeds, protected readonly quiet: QuietClock) {
    super(name, feeds.w);
  }
  protected abstract judge(t: number, since: number): void;

  endOfInstant(t: number): void {
    const since = this.quiet.quietSince(t);
    if (since === undefined || t - since < this.quiet.minSettleMs) return;
    this.judge(t, since);
    this.flush();
  }

  /** The run's last instant: `until`, or, for a run that went idle before it, `until` as well
   *  (nothing can change any more), else where it stopped. */
  override end(): void {
    const e = this.w.engine;
    this.endOfInstant(e.pending === 0 ? Math.max(e.nowMs, this.w.untilMs) : e.nowMs);
  }
}

// ---- status-converges --------------------------------------------------------------------------

/**
 * Every cached status reaches the apiserver, as the kubelet judges equality. It judges the kubelet:
 * another writer may change the object at any time, and the kubelet then has its 2 × syncPeriod
 * of quiet to bring its status back. A cache entry is due
 * 2 × syncPeriod after the later of its last `status.set` and the start of quiet; when due, the
 * apiserver object it syncs to (the pod's own, a static pod's mirror) must hold an equal status.
 * It is judged again when its apiserver object changes after that (a later write must not undo
 * it). Entries with nothing to converge to are skipped, as `divergence` does: a pod the pod manager
 * no longer has, an apiserver object that is gone or has another UID. A static pod without a mirror
 * counts as not converged with `runtime: simulated` (the kubelet creates mirrors; one it failed to
 * create is tried again on the pod's next resync, so such an entry is due that much later, and
 * its clock starts again when the mirror appears), and is skipped with `runtime: none` (only a
 * `createMirror` step does).
 */
export class StatusConverges extends LivenessChecker {
  /** Each pod key's cache entry (the UID of its last status.set), when it was last set, and the
   *  node whose kubelet set it. */
  private readonly entries = new Map<string, { uid: UID; setMs: number; node: NodeView }>();
  /** Pod keys to judge, by the instant they fall due (stale and repeated items are skipped). */
  private readonly due = new EventQueue<{ atMs: number; seq: number; key: string }>();
  private seq = 0;
  /** The instant each key was last judged (a key is judged once per instant). */
  private readonly judgedAt = new Map<string, number>();

  constructor(feeds: Feeds, quiet: QuietClock) {
    super('status-converges', feeds, quiet);
    for (const node of feeds.w.nodes) {
      const kl = node.kubelet();
      if (kl === null) continue;
      for (const uid of kl.statusManager.cachedUIDs()) {
        const p = kl.podManager.getPodByUID(uid);
        if (p !== undefined) this.entrySet(podKey(p), uid, feeds.w.engine.nowMs, node);
      }
    }
    feeds.onTrace(['status.set'], (r) => {
      if (r.pod !== undefined && typeof r.uid === 'string') this.entrySet(r.pod, r.uid, r.t, feeds.nodeOfRecord(r));
    });
    feeds.onApiChange(({ type, next }) => {
      const key = podKey(next);
      // A static pod's status can only reach a mirror that exists: its clock starts again when
      // the kubelet creates one.
      const e = this.entries.get(key);
      if (type === 'ADDED' && isMirrorPod(next) && e !== undefined) this.entrySet(key, e.uid, this.w.engine.nowMs, e.node);
      // A write after a key was judged is judged again (a later write must not undo convergence).
      else if (this.judgedAt.has(key)) this.push(this.w.engine.nowMs, key);
    });
  }

  private entrySet(key: string, uid: UID, t: number, node: NodeView): void {
    this.entries.set(key, { uid, setMs: t, node });
    this.push(t + this.quiet.settleOf(node), key);
  }

  private push(atMs: number, key: string): void {
    this.due.push({ atMs, seq: this.seq++, key });
  }

  protected judge(t: number, since: number): void {
    for (let top = this.due.peek(); top !== undefined && top.atMs <= t; top = this.due.peek()) {
      const { key } = this.due.pop()!;
      const e = this.entries.get(key);
      if (e === undefined || this.hasReported(key) || this.judgedAt.get(key) === t) continue;
      const node = e.node;
      const nodeSince = this.quiet.nodeQuietSince(since, node);
      if (nodeSince === undefined) {
        this.push(t + this.quiet.settleOf(node), key); // its node is not quiet: look again later
        continue;
      }
      let dueMs = Math.max(e.setMs, nodeSince) + this.quiet.settleOf(node);
      // A mirror pod the kubelet failed to create is tried again on the static pod's next sync:
      // its worker's resync (SyncFrequency), picked up by the next tick of the sync loop.
      if (node.runtime !== null && this.lacksMirror(e.uid, node)) dueMs += DEFAULT_NODE_TUNING.resyncIntervalMs + DEFAULT_NODE_TUNING.syncTickMs;
      if (dueMs > t) {
        this.push(dueMs, key); // quiet began after the entry was set
        continue;
      }
      this.judgedAt.set(key, t);
      const why = this.divergence(e.uid, node);
      if (why !== undefined) this.violation(key, why, node);
    }
  }

  /** A static pod (of the node's kubelet's pod manager) that has no mirror pod. */
  private lacksMirror(uid: UID, node: NodeView): boolean {
    const kl = node.kubelet();
    const pod = kl?.podManager.getPodByUID(uid);
    return pod !== undefined && isStaticPod(pod) && kl!.podManager.getMirrorPodByPod(pod) === undefined;
  }

  /** Why this entry's apiserver object does not hold its cached status (in the cache of its
   *  node's kubelet: up, as quiet requires), or undefined. */
  private divergence(uid: UID, node: NodeView): string | undefined {
    const kl = node.kubelet();
    if (kl === null) return undefined;
    const entry = kl.statusManager.cachedEntry(uid);
    const pod = kl.podManager.getPodByUID(uid);
    if (entry === undefined || pod === undefined) return undefined;
    let target = pod;
    if (isStaticPod(pod)) {
      const mirror = kl.podManager.getMirrorPodByPod(pod);
      if (mirror === undefined) return node.runtime === null ? undefined : `static pod ${podKey(pod)} has no mirror pod to carry its status (version ${entry.version})`;
      target = mirror;
    }
    const api = this.w.apiserver.peek(target.metadata?.namespace ?? 'default', target.metadata?.name ?? '');
    if (api === undefined || api.metadata?.uid !== target.metadata?.uid) return undefined;
    if (node.statusEqual(api, entry.status)) return undefined;
    return `the apiserver's status differs from the cached status (version ${entry.version}, uid ${uid}) ${this.quiet.settleOf(node)}ms into quiet`;
  }
}

// ---- deletion-completes ------------------------------------------------------------------------

/**
 * A gracefully deleted pod leaves the apiserver, judged for the pods the kubelet is responsible
 * for (below): a deletion someone else holds up is not the kubelet's. Tracked from the write that sets its
 * deletionTimestamp (or from the start, for an object that already has one) until the watch shows
 * it DELETED. Due 2 × syncPeriod after the later of its deletionTimestamp (the grace deadline) and
 * the start of quiet (a kubelet that started after the deletion began kills with the whole grace
 * period again, so its deadline moves to that start plus the grace; a classic kubelet with a
 * simulated node: one ContainerGCPeriod more; a
 * mirror pod, which its static pod's sync deletes: one pod resync more); still there when due is
 * a violation. Only pods this run's kubelet is
 * responsible for count: on its node, not `only: apiserver`. A pod held by finalizers cannot leave
 * (nothing in the simulation removes finalizers): it is done once the kubelet has sent its final
 * DELETE (grace 0) for it. With `runtime: none` no pod workers stop containers or call
 * TerminatePod, so a pod counts only once the scenario has handed it to the status manager: it has
 * a cache entry, and in the current generation that entry is finished (TerminatePod ran), or a
 * `terminatePod` step ran for it (the pod worker is done with it: a TerminatePod the status manager
 * refused, BZ-03's wedge, still counts); mirror pods never count there (no mirror client runs).
 * Per node (spec.nodes): a pod is its node's kubelet's to delete (that node's runtime, cache and
 * kubelet start decide), and a pod bound to no node of the run is no kubelet's.
 */
export class DeletionCompletes extends LivenessChecker {
  /** Objects being deleted, by UID, with their grace deadline (virtual ms). */
  private readonly deleting = new Map<UID, { pod: Pod; deadlineMs: number }>();

  /** When each node's current kubelet started, by node name: one that starts while a pod is being
   *  deleted kills it with the whole grace period again (it knows nothing of the time already spent). */
  private readonly kubeletStartMs = new Map<string, number>();
  /** Pod keys a `terminatePod` step ran for (runtime: none). */
  private readonly terminated = new Set<string>();
  /** UIDs the kubelet sent its final DELETE for (what a pod held by finalizers waits on). */
  private readonly finalDelete = new Set<UID>();

  constructor(private readonly feeds: Feeds, quiet: QuietClock) {
    super('deletion-completes', feeds, quiet);
    feeds.onTrace(['kubelet.start'], (r) => {
      this.kubeletStartMs.set(feeds.nodeOfRecord(r).name, r.t);
    });
    feeds.onTrace(['step'], (r) => {
      if (r.action === 'terminatePod' && r.pod !== undefined) this.terminated.add(r.pod);
    });
    feeds.onTrace(['api.delete'], (r) => {
      if (r.actor === 'kubelet' && r.gracePeriodSeconds === 0 && typeof r.uid === 'string') this.finalDelete.add(r.uid);
    });
    for (const p of feeds.w.apiserver.list()) this.track(p);
    feeds.onApiChange(({ type, next }) => {
      if (type === 'DELETED') this.deleting.delete(next.metadata?.uid ?? '');
      else this.track(next);
    });
  }

  private track(p: Pod): void {
    const ts = p.metadata?.deletionTimestamp;
    if (!ts) return;
    const ms = parseRfc3339(ts);
    this.deleting.set(p.metadata?.uid ?? '', { pod: p, deadlineMs: ms === undefined ? this.w.engine.nowMs : ms - this.w.epochMs });
  }

  /** Whether the kubelet of `node` (the pod's node, undefined: none of the run's) must delete `p`. */
  private responsible(p: Pod, node: NodeView | undefined): boolean {
    const w = this.w;
    if (node === undefined || w.foreignKeys.has(podKey(p))) return false;
    if ((p.metadata?.finalizers?.length ?? 0) > 0 && this.finalDelete.has(p.metadata?.uid ?? '')) return false;
    if (node.runtime !== null) return true;
    if (isMirrorPod(p)) return false;
    if (this.terminated.has(podKey(p))) return true;
    const entry = node.kubelet()?.statusManager.cachedEntry(p.metadata?.uid ?? '');
    return entry !== undefined && (w.variant !== 'current' || entry.podIsFinished === true);
  }

  protected judge(t: number, since: number): void {
    if (this.deleting.size === 0) return;
    for (const [uid, d] of this.deleting) {
      const node = this.feeds.nodeNamed(d.pod.spec?.nodeName ?? '');
      const on = node ?? this.feeds.defaultNode;
      // A classic kubelet deletes once no container of the pod is left in the runtime: when the
      // container deletor did not remove them (the last one died before the kubelet saw the
      // deletion), the container GC does, up to a ContainerGCPeriod later.
      const settle = this.quiet.settleOf(on) + (this.w.variant === 'classic' && on.runtime !== null ? CONTAINER_GC_PERIOD_MS : 0);
      // A mirror pod is deleted by its static pod's sync (mirror upkeep), not by the status
      // manager: one whose delete failed is tried again on the pod's next resync.
      const extra = on.runtime !== null && isMirrorPod(d.pod) ? DEFAULT_NODE_TUNING.resyncIntervalMs + DEFAULT_NODE_TUNING.syncTickMs : 0;
      const graceMs = (d.pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
      const startMs = this.kubeletStartMs.get(on.name) ?? 0;
      const deadlineMs = startMs > d.deadlineMs - graceMs ? Math.max(d.deadlineMs, startMs + graceMs) : d.deadlineMs;
      const nodeSince = this.quiet.nodeQuietSince(since, on);
      if (nodeSince === undefined || Math.max(deadlineMs, nodeSince) + settle + extra > t) continue;
      const key = podKey(d.pod);
      if (this.hasReported(key) || !this.responsible(d.pod, node)) continue;
      this.violation(key, `still in the apiserver ${t - d.deadlineMs}ms after its deletionTimestamp ${d.pod.metadata?.deletionTimestamp} (uid ${uid})`, on);
    }
  }
}
