// The invariants judged on the apiserver's own history, one write at a time: each compares two
// successive versions of one object (same UID), or judges the version a write produced.
//
// They judge the kubelet, not the world: only a write the kubelet made (the watch names the
// request's actor) is judged, against the version it replaced, whoever wrote that one. Another
// writer's write (an `externalPatch`: a user, the node lifecycle controller, a second kubelet) is
// the environment the kubelet works in, never a violation; what the kubelet writes next over it
// is judged as usual (BZ-15: the kubelet's Ready=True with an old time over the controller's newer
// Ready=False is a violation).
//
// Versions an object is created with (the scenario's pods, a `create`, a kubelet's mirror pod) are
// the input of the run, not judged; every version a later kubelet write produces is.
//
// They judge every pod of every node (spec.nodes); a violation names the object's node.
import { isPodPhaseTerminal, podKey, type Container, type ContainerStatus, type Pod, type PodCondition } from '../model/pod.js';
import { parseRfc3339 } from '../model/time.js';
import { isRestartableInitContainerUngated, type StatusFeatureGates } from '../kubelet/status/index.js';
import type { Variant } from '../scenario/types.js';
import { Checker, type ApiChange, type Feeds } from './checker.js';

/** A checker fed with every modification the kubelet made of an object it has seen before. */
abstract class ObjectHistoryChecker extends Checker {
  constructor(name: ConstructorParameters<typeof Checker>[0], feeds: Feeds) {
    super(name, feeds.w);
    feeds.onApiChange((c) => {
      if (c.type !== 'MODIFIED' || c.prev === undefined || c.actor !== 'kubelet') return;
      const pod = podKey(c.next);
      if (this.hasReported(pod)) return;
      const why = this.judge(c.prev, c.next);
      if (why !== undefined) this.violation(pod, `${why} (uid ${c.next.metadata?.uid}, resourceVersion ${c.next.metadata?.resourceVersion})`, feeds.nodeOfObject(c.next));
    });
  }
  protected abstract judge(prev: Pod, next: Pod): string | undefined;
}

// ---- terminal-phase-sticky ---------------------------------------------------------------------

/** An object in Succeeded or Failed that the write moved to any other phase (Failed → Succeeded too).
 *  Judges the kubelet's writes (whoever made the object terminal). */
export function phaseLeftTerminal(prev: Pod, next: Pod): string | undefined {
  const from = prev.status?.phase;
  const to = next.status?.phase;
  if (!isPodPhaseTerminal(from) || to === from) return undefined;
  return `phase went ${from} → ${to ?? '(none)'}`;
}

export class TerminalPhaseSticky extends ObjectHistoryChecker {
  constructor(feeds: Feeds) {
    super('terminal-phase-sticky', feeds);
  }
  protected judge(prev: Pod, next: Pod) {
    return phaseLeftTerminal(prev, next);
  }
}

// ---- no-illegal-container-transition -----------------------------------------------------------

/** A container terminated in `prev` and present but not terminated in `next`, when the pod's
 *  restart policy does not restart it: Never; OnFailure after exit 0. RestartPolicy Always (the
 *  apiserver's default) restarts everything, and a sidecar (an init container with restartPolicy
 *  Always, in the current generation, gate or no gate, as upstream decides it) restarts whatever the pod's policy.
 *  Regular and init container statuses are checked, each against its own list by name; a container
 *  missing from `next` is not judged. Ephemeral containers are never restarted, and not judged.
 *  Judges the kubelet's writes: another writer may report a container terminated, and the kubelet
 *  writing it back to running is the violation. */
export function illegalContainerTransition(prev: Pod, next: Pod, isSidecar: (c: Container) => boolean): string | undefined {
  const policy = next.spec?.restartPolicy || 'Always';
  if (policy === 'Always') return undefined;
  const check = (olds: readonly ContainerStatus[] | undefined, news: readonly ContainerStatus[] | undefined, specs: readonly Container[] | undefined, kind: string) => {
    for (const o of olds ?? []) {
      const term = o.state?.terminated;
      if (!term) continue;
      const exit = term.exitCode ?? 0;
      if (policy === 'OnFailure' && exit !== 0) continue;
      const spec = specs?.find((c) => c.name === o.name);
      if (spec !== undefined && isSidecar(spec)) continue;
      const n = news?.find((c) => c.name === o.name);
      if (n === undefined || n.state?.terminated) continue;
      const to = n.state?.running ? 'running' : n.state?.waiting ? `waiting${n.state.waiting.reason ? ' (' + n.state.waiting.reason + ')' : ''}` : 'no state';
      return `${kind} ${o.name} went terminated (exit ${exit}) → ${to} under restartPolicy ${policy}`;
    }
    return undefined;
  };
  return (
    check(prev.status?.containerStatuses, next.status?.containerStatuses, next.spec?.containers, 'container') ??
    check(prev.status?.initContainerStatuses, next.status?.initContainerStatuses, next.spec?.initContainers, 'init container')
  );
}

export class NoIllegalContainerTransition extends ObjectHistoryChecker {
  private readonly isSidecar: (c: Container) => boolean;
  constructor(feeds: Feeds, variant: Variant, gates: StatusFeatureGates | undefined) {
    super('no-illegal-container-transition', feeds);
    // Judged as upstream's status manager decides it: restartPolicy Always, no gate.
    this.isSidecar = (c) => isRestartableInitContainerUngated(c, variant);
  }
  protected judge(prev: Pod, next: Pod) {
    return illegalContainerTransition(prev, next, this.isSidecar);
  }
}

// ---- no-ready-when-terminal --------------------------------------------------------------------

/** A version in Succeeded or Failed whose Ready condition is True (judged on the kubelet's writes). */
export function readyWhenTerminal(pod: Pod): string | undefined {
  const phase = pod.status?.phase;
  if (!isPodPhaseTerminal(phase)) return undefined;
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'True' ? `phase ${phase} with Ready=True` : undefined;
}

export class NoReadyWhenTerminal extends ObjectHistoryChecker {
  constructor(feeds: Feeds) {
    super('no-ready-when-terminal', feeds);
  }
  /** The write that makes it so: a version already terminal with Ready=True (the scenario's input)
   *  is not reported again for each later write that leaves it so. */
  protected judge(prev: Pod, next: Pod) {
    return readyWhenTerminal(prev) === undefined ? readyWhenTerminal(next) : undefined;
  }
}

// ---- transition-time-honest --------------------------------------------------------------------

/** A condition's lastTransitionTime, at the whole second metav1.Time keeps (ms of the second's
 *  start), or undefined when the version carries none (absent, empty or Go's zero time). */
function transitionSecond(c: PodCondition): number | undefined {
  const s = c.lastTransitionTime;
  if (!s || s === '0001-01-01T00:00:00Z') return undefined;
  const ms = parseRfc3339(s);
  return ms === undefined ? undefined : Math.floor(ms / 1000) * 1000;
}

/** How late after the second of a lastTransitionTime a write may land and still report a transition
 *  of that same second: the rest of that second, and one more for the write to travel. */
export const SAME_SECOND_GRACE_MS = 2000;

/**
 * For every condition type in both versions (the first of each type): its lastTransitionTime
 * changes when, and only to a time when, its status changes. The apiserver sees only the versions
 * written, so the judgement is what two successive versions can prove:
 *  - the status changed but the time did not: the new status claims the old transition's time.
 *    Two transitions within one second do share a time (metav1.Time keeps whole seconds), so this
 *    is accepted when the write lands before the end of the second after it (`writeAbsMs` <
 *    LTT + SAME_SECOND_GRACE_MS);
 *  - the time moved back (with or without a status change): a transition claimed before the one
 *    the object already showed (BZ-15: a cached Ready=True re-published with its old time over a
 *    newer Ready=False);
 *  - the time moved forward while the status stayed: honest only when a transition really happened
 *    in between that the apiserver never saw (True → False → True between two writes, coalesced by
 *    the status manager, held back by the client's rate limit or a partition). `flipped(type)` says
 *    whether the kubelet's cached status of that condition changed since `prev` was written; a
 *    re-stamp without such a flip (another writer's, or a kubelet re-sending a forced condition with
 *    a new time) is reported.
 * Times are compared at whole seconds; a version without a time for the condition (absent, empty,
 * Go's zero time) is not judged: the time is being set or cleared, not changed.
 * Judges the kubelet's writes only: another writer setting a condition with an older time (say the
 * node controller's Ready=False stamped back in time) is not the kubelet's doing; the kubelet's
 * next write over it is judged against it, so re-publishing a time that goes back still fires.
 */
export function dishonestTransitionTime(prev: Pod, next: Pod, writeAbsMs: number, flipped: (type: string) => boolean = () => true): string | undefined {
  const olds = prev.status?.conditions;
  const news = next.status?.conditions;
  if (!Array.isArray(olds) || !Array.isArray(news)) return undefined;
  for (const n of news) {
    if (news.find((c) => c.type === n.type) !== n) continue;
    const o = olds.find((c) => c.type === n.type);
    if (o === undefined) continue;
    const ot = transitionSecond(o);
    const nt = transitionSecond(n);
    if (ot === undefined || nt === undefined) continue;
    if (nt < ot) {
      const what = o.status === n.status ? `stayed ${n.status}` : `went ${o.status} → ${n.status}`;
      return `condition ${n.type} ${what} but lastTransitionTime moved back ${o.lastTransitionTime} → ${n.lastTransitionTime}`;
    }
    if (o.status !== n.status && nt === ot && writeAbsMs >= ot + SAME_SECOND_GRACE_MS) {
      return `condition ${n.type} went ${o.status} → ${n.status} but lastTransitionTime stayed ${n.lastTransitionTime}`;
    }
    if (o.status === n.status && nt > ot && !flipped(n.type)) {
      return `condition ${n.type} stayed ${n.status} but lastTransitionTime moved ${o.lastTransitionTime} → ${n.lastTransitionTime} with no transition in between`;
    }
  }
  return undefined;
}

export class TransitionTimeHonest extends ObjectHistoryChecker {
  /** Per pod ("ns/name", so a static pod's cache and its mirror meet) and condition type: the status
   *  the kubelet last cached, and how many times it changed. */
  private readonly cached = new Map<string, Map<string, { status: string | undefined; flips: number }>>();
  /** Per pod: the flip counts of each condition type as of each version of its cache entry (the
   *  entry's current life: a version 1 starts it afresh). */
  private readonly atVersion = new Map<string, Map<number, Map<string, number>>>();
  /** Per pod: the cache version of the kubelet's status sync in flight (status.sync until its
   *  patch is served or the sync is skipped). A batch syncs the entry it collected, which may be
   *  older than the cache by the time its patch lands: what that write carries is judged against
   *  the flips as of that version. */
  private readonly syncing = new Map<string, number>();
  /** Per object UID and condition type: the flip count of its last written version. */
  private readonly atWrite = new Map<string, number>();

  constructor(feeds: Feeds) {
    super('transition-time-honest', feeds);
    feeds.onTrace(['status.set', 'status.sync', 'status.skip', 'api.patch'], (r) => {
      if (!r.pod) return;
      if (r.type === 'status.sync' && typeof r.version === 'number') this.syncing.set(r.pod, r.version);
      else if (r.type === 'status.skip' || (r.type === 'api.patch' && r.actor === 'kubelet')) this.syncing.delete(r.pod);
      if (r.type !== 'status.set') return;
      // the cache of the kubelet that set it (its node's)
      const entry = typeof r.uid === 'string' ? feeds.nodeOfRecord(r).kubelet()?.statusManager.cachedEntry(r.uid) : undefined;
      if (!entry) return;
      let byType = this.cached.get(r.pod);
      if (byType === undefined) this.cached.set(r.pod, (byType = new Map()));
      for (const c of entry.status.conditions ?? []) {
        const seen = byType.get(c.type);
        if (seen === undefined) byType.set(c.type, { status: c.status, flips: 0 });
        else if (seen.status !== c.status) {
          seen.status = c.status;
          seen.flips++;
        }
      }
      let versions = this.atVersion.get(r.pod);
      if (versions === undefined || entry.version === 1) this.atVersion.set(r.pod, (versions = new Map()));
      const counts = new Map<string, number>();
      byType.forEach((v, type) => counts.set(type, v.flips));
      versions.set(entry.version, counts);
    });
    // After the judgement of a write (listeners run in order), remember the counts it was judged at,
    // for each condition the write set (one it left as it was, say a user's delete, still shows
    // the version written before).
    feeds.onApiChange((c) => {
      const key = podKey(c.next);
      const uid = c.next.metadata?.uid ?? '';
      const before = c.prev?.status?.conditions;
      const after = c.next.status?.conditions;
      if (!Array.isArray(after)) return; // (another writer's status may hold anything)
      for (const cond of after) {
        const old = Array.isArray(before) ? before.find((b) => b.type === cond?.type) : undefined;
        if (cond === null || typeof cond !== 'object') continue;
        if (old !== undefined && old.status === cond.status && old.lastTransitionTime === cond.lastTransitionTime) continue;
        this.atWrite.set(`${uid}|${cond.type}`, this.flips(key, cond.type));
      }
    });
  }

  /** The flips of a condition type as of what is being written now: the version of the kubelet's
   *  sync in flight, else the cache as it is. */
  private flips(key: string, type: string): number {
    const v = this.syncing.get(key);
    const asOf = v === undefined ? undefined : this.atVersion.get(key)?.get(v);
    if (asOf !== undefined) return asOf.get(type) ?? 0;
    return this.cached.get(key)?.get(type)?.flips ?? 0;
  }

  protected judge(prev: Pod, next: Pod) {
    const key = podKey(next);
    const uid = next.metadata?.uid ?? '';
    const flipped = (type: string) => this.flips(key, type) > (this.atWrite.get(`${uid}|${type}`) ?? 0);
    return dishonestTransitionTime(prev, next, this.w.epochMs + this.w.engine.nowMs, flipped);
  }
}
