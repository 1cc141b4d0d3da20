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
// can change any more). A deadline beyond the run's end is never judged:
// the run ended too early to tell. Checkers schedule nothing; an instant with no event is not
// looked at, but the status manager's ticker makes one at least every syncPeriod.
import { isMirrorPod, isStaticPod, podKey, type Pod, type UID } from '../model/pod.js';
import { parseRfc3339 } from '../model/time.js';
import { Checker, type Feeds } from './checker.js';
import type { InvariantWorld } from './ports.js';

export class QuietClock {
  private readonly faults = new Set<string>();
  private changedMs: number;

  constructor(private readonly w: InvariantWorld, feeds: Feeds) {
    this.changedMs = w.engine.nowMs;
    feeds.onTrace(['fault.begin', 'fault.end'], (r) => {
      const id = `${String(r.fault)}#${String(r.id ?? '')}`;
      if (r.type === 'fault.begin') this.faults.add(id);
      else this.faults.delete(id);
      this.changedMs = r.t;
    });
    feeds.onTrace(['kubelet.start', 'kubelet.stop'], (r) => {
      this.changedMs = r.t;
    });
  }

  /** The instant the current quiet stretch began, or undefined when the scenario is not quiet. */
  quietSince(t: number): number | undefined {
    if (this.faults.size > 0 || this.w.kubelet() === null || t < this.w.lastScheduledMs) return undefined;
    return Math.max(this.changedMs, this.w.lastScheduledMs);
  }

  /** 2 × syncPeriod. */
  get settleMs(): number {
    return 2 * this.w.config.syncPeriodMs;
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
    if (since === undefined || t - since < this.quiet.settleMs) return;
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
 * Every cached status reaches the apiserver, as the kubelet judges equality. A cache entry is due
 * 2 × syncPeriod after the later of its last `status.set` and the start of quiet; when due, the
 * apiserver object it syncs to (the pod's own, a static pod's mirror) must hold an equal status.
 * It is judged again when its apiserver object changes after that (a later write must not undo
 * it). Entries with nothing to converge to are skipped, as `divergence` does: a pod the pod manager
 * no longer has, an apiserver object that is gone or has another UID. A static pod without a mirror
 * counts as not converged with `runtime: simulated` (the kubelet creates mirrors), and is skipped
 * with `runtime: none` (only a `createMirror` step does).
 */
export class StatusConverges extends LivenessChecker {
  /** Last status.set per pod key. */
  private readonly setAt = new Map<string, number>();
  /** For each pod key: the due time it was last judged for (so each due time is judged once). */
  private readonly judgedFor = new Map<string, number>();
  /** Pod keys whose apiserver object changed since they were judged. */
  private readonly changed = new Set<string>();
  /** Earliest due time not yet judged (a fast path: most instants judge nothing). */
  private nextDue = 0;

  constructor(feeds: Feeds, quiet: QuietClock) {
    super('status-converges', feeds, quiet);
    feeds.onTrace(['status.set'], (r) => {
      if (r.pod === undefined) return;
      this.setAt.set(r.pod, r.t);
      this.nextDue = Math.min(this.nextDue, r.t + quiet.settleMs);
    });
    feeds.onTrace(['fault.end', 'kubelet.start'], (r) => {
      this.nextDue = Math.min(this.nextDue, r.t + quiet.settleMs);
    });
    feeds.onApiChange(({ next }) => {
      const key = podKey(next);
      if (this.judgedFor.has(key)) {
        this.changed.add(key);
        this.nextDue = Math.min(this.nextDue, this.w.engine.nowMs);
      }
    });
  }

  protected judge(t: number, since: number): void {
    if (t < this.nextDue) return;
    const kl = this.w.kubelet()!;
    const settle = this.quiet.settleMs;
    let next = Number.POSITIVE_INFINITY;
    for (const uid of kl.statusManager.cachedUIDs()) {
      const pod = kl.podManager.getPodByUID(uid);
      if (pod === undefined) continue;
      const key = podKey(pod);
      if (this.hasReported(key)) continue;
      const due = Math.max(this.setAt.get(key) ?? 0, since) + settle;
      if (due > t) {
        next = Math.min(next, due);
        continue;
      }
      if (this.judgedFor.get(key) === due && !this.changed.has(key)) continue;
      this.judgedFor.set(key, due);
      this.changed.delete(key);
      const why = this.divergence(uid, pod);
      if (why !== undefined) this.violation(key, why);
    }
    this.nextDue = next;
  }

  /** Why this entry's apiserver object does not hold its cached status, or undefined. */
  private divergence(uid: UID, pod: Pod): string | undefined {
    const kl = this.w.kubelet()!;
    const entry = kl.statusManager.cachedEntry(uid);
    if (entry === undefined) return undefined;
    let target = pod;
    if (isStaticPod(pod)) {
      const mirror = kl.podManager.getMirrorPodByPod(pod);
      if (mirror === undefined) return this.w.runtime === null ? undefined : `static pod ${podKey(pod)} has no mirror pod to carry its status (version ${entry.version})`;
      target = mirror;
    }
    const api = this.w.apiserver.peek(target.metadata?.namespace ?? 'default', target.metadata?.name ?? '');
    if (api === undefined || api.metadata?.uid !== target.metadata?.uid) return undefined;
    if (this.w.statusEqual(api, entry.status)) return undefined;
    return `the apiserver's status differs from the cached status (version ${entry.version}, uid ${uid}) ${this.quiet.settleMs}ms into quiet`;
  }
}

// ---- deletion-completes ------------------------------------------------------------------------

/**
 * A gracefully deleted pod leaves the apiserver. Tracked from the write that sets its
 * deletionTimestamp (or from the start, for an object that already has one) until the watch shows
 * it DELETED. Due 2 × syncPeriod after the later of its deletionTimestamp (the grace deadline) and
 * the start of quiet; still there when due is a violation. Only pods this run's kubelet is
 * responsible for count: on its node, not `only: apiserver`, and not held by finalizers (nothing in
 * the simulation removes finalizers). With `runtime: none` no pod workers stop containers or call
 * TerminatePod, so a pod counts only once the scenario has handed it to the status manager: it has
 * a cache entry, and in the current generation that entry is finished (TerminatePod ran); mirror
 * pods never count there (no mirror client runs).
 */
export class DeletionCompletes extends LivenessChecker {
  /** Objects being deleted, by UID, with their grace deadline (virtual ms). */
  private readonly deleting = new Map<UID, { pod: Pod; deadlineMs: number }>();

  constructor(feeds: Feeds, quiet: QuietClock) {
    super('deletion-completes', feeds, quiet);
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

  private responsible(p: Pod): boolean {
    const w = this.w;
    if ((p.spec?.nodeName ?? '') !== w.config.nodeName || w.foreignKeys.has(podKey(p))) return false;
    if ((p.metadata?.finalizers?.length ?? 0) > 0) return false;
    if (w.runtime !== null) return true;
    if (isMirrorPod(p)) return false;
    const entry = w.kubelet()?.statusManager.cachedEntry(p.metadata?.uid ?? '');
    return entry !== undefined && (w.variant === 'classic' || entry.podIsFinished === true);
  }

  protected judge(t: number, since: number): void {
    if (this.deleting.size === 0) return;
    const settle = this.quiet.settleMs;
    for (const [uid, d] of this.deleting) {
      if (Math.max(d.deadlineMs, since) + settle > t) continue;
      const key = podKey(d.pod);
      if (this.hasReported(key) || !this.responsible(d.pod)) continue;
      this.violation(key, `still in the apiserver ${t - d.deadlineMs}ms after its deletionTimestamp ${d.pod.metadata?.deletionTimestamp} (uid ${uid})`);
    }
  }
}
