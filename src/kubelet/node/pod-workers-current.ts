// pkg/kubelet/pod_workers.go (v1.22+ state machine, v1.27+ details; v1.23's where they differ, for the
// transitional generation): the pod workers of the current and transitional generations.
import { Channel, type Proc } from '../../engine/index.js';
import { isPodPhaseTerminal, isStaticPod, podFullName, podKey, type UID } from '../../model/pod.js';
import { emitsNothing } from '../../model/trace.js';
import { calculateEffectiveGracePeriod } from './grace.js';
import { BACKOFF_JITTER, isProc, PodSyncStatus, RESYNC_JITTER, type PodWorkersOptions, type UpdatePodOptions } from './pod-workers.js';
import type { RuntimePodStatus } from './types.js';

/** isPodStatusCacheTerminal: nothing runs and no sandbox is ready. */
function isPodStatusCacheTerminal(s: RuntimePodStatus): boolean {
  if (s.containers.some((c) => c.state === 'running')) return false;
  return !(s.sandbox?.ready ?? false);
}

/** The v1.22+ pod workers. */
export class PodWorkersCurrent {
  private readonly statuses = new Map<UID, PodSyncStatus>();
  private readonly podUpdates = new Map<UID, Channel<void>>();
  /** The UIDs whose status has restartRequested (SyncKnownPods visits them besides the orphans). */
  private readonly restarts = new Set<UID>();
  /** Reset by the last SyncKnownPods for a restart (takeRestartable). */
  private restartable: UID[] = [];
  /** podsSynced: set by the first SyncKnownPods (housekeeping). */
  podsSynced = false;

  constructor(private readonly o: PodWorkersOptions) {}

  /** The sync status of a pod (inspection). */
  status(uid: UID): PodSyncStatus | undefined {
    return this.statuses.get(uid);
  }

  /** UpdatePod. The options object becomes the pending update (callers hand a new one, as to the
   *  classic workers). */
  updatePod(options: UpdatePodOptions): void {
    const { engine, cache, tracer } = this.o;
    const pod = options.pod;
    const uid = pod.metadata?.uid ?? '';
    const now = engine.nowMs;
    let status = this.statuses.get(uid);
    if (status === undefined) {
      status = new PodSyncStatus(podFullName(pod), isStaticPod(pod), now);
      // after a kubelet restart a pod terminal in the API whose runtime state is terminal too has
      // already been through SyncTerminatingPod: go straight to terminated
      if (isPodPhaseTerminal(pod.status?.phase) && isPodStatusCacheTerminal(cache.get(uid))) {
        status.terminatingAt = now;
        status.terminatedAt = now;
        status.startedTerminating = true;
        // v1.22/v1.23: born finished too, so no SyncTerminatedPod runs (v1.27 leaves it unfinished
        // "to ensure a Terminated event will be sent and SyncTerminatedPod will run")
        if (this.o.v123) status.finished = true;
      }
      this.statuses.set(uid, status);
    }
    if (this.requestRestart(status, options)) return;
    if (status.isFinished()) {
      if (emitsNothing(tracer)) tracer.skip!('log'); // (nothing reads it: counted, not built)
      else tracer.log('V4', 'Pod is finished processing, no further updates', podKey(pod), { uid, updateType: options.updateType });
      return;
    }

    let becameTerminating = false;
    if (!status.isTerminationRequested()) {
      if (pod.metadata?.deletionTimestamp) {
        status.deleted = true;
        status.terminatingAt = now;
        becameTerminating = true;
      } else if (isPodPhaseTerminal(pod.status?.phase)) {
        status.terminatingAt = now;
        becameTerminating = true;
      } else if (options.updateType === 'kill') {
        status.terminatingAt = now;
        becameTerminating = true;
      }
    }

    let wasGracePeriodShortened = false;
    const opts = options;
    if (status.isTerminated()) {
      delete opts.killPodOptions;
    } else if (status.isTerminationRequested()) {
      const kpo = { ...(opts.killPodOptions ?? {}) };
      if (kpo.completed !== undefined) status.notifyPostTerminating.push(kpo.completed); // (v1.27+: the kill's channel, status function, Evict)
      if (kpo.podStatusFunc !== undefined) status.statusPostTerminating.push(kpo.podStatusFunc);
      status.evicted ||= kpo.evict === true;
      delete kpo.completed;
      const { gracePeriod, shortened } = calculateEffectiveGracePeriod(status.gracePeriod, pod, kpo.gracePeriodSecondsOverride);
      wasGracePeriodShortened = shortened;
      status.gracePeriod = gracePeriod;
      kpo.gracePeriodSecondsOverride = gracePeriod;
      opts.killPodOptions = kpo;
    } else {
      delete opts.killPodOptions;
    }

    let ch = this.podUpdates.get(uid);
    if (ch === undefined) {
      ch = new Channel<void>(engine, 1, `podUpdates/${uid}`);
      this.podUpdates.set(uid, ch);
      const c = ch;
      this.o.spawn(`pod-worker/${uid}`, this.podWorkerLoop(uid, c));
    }
    status.pendingUpdate = opts;
    status.working = true;
    ch.trySend(undefined);

    if ((becameTerminating || wasGracePeriodShortened) && status.syncing) {
      // status.cancelFn(): SyncTerminatingPod ignores the worker's context (v1.27+, TODO(#113606):
      // context.Background()), so a kill in flight is not interrupted; its StopContainer calls keep
      // their timeout, and completeTerminating then takes the pending update as TerminatedPod: the
      // shorter grace period is recorded (status.gracePeriod) but never reaches the containers
      tracer.log('V3', 'Cancelling current pod sync', podKey(pod), { uid, gracePeriod: status.gracePeriod });
    }
  }

  /** #104847 (smarterclayton, v1.22.2; pick #105075): an update that implies the pod should run
   *  while a pod of that UID is terminating means two pods with the same UID (usually a static pod
   *  removed and added back): flag it, and after it terminates housekeeping resets the worker and
   *  starts it again. revert: the create is merged into the termination, and the finished worker
   *  ignores every later update until the kubelet restarts (v1.22.0/v1.22.1, #104648). */
  private requestRestart(status: PodSyncStatus, options: UpdatePodOptions): boolean {
    if (!status.isTerminationRequested() || options.updateType !== 'create' || this.o.noUIDReuseRestart) return false;
    const uid = options.pod.metadata?.uid ?? '';
    status.restartRequested = true;
    this.restarts.add(uid);
    this.o.tracer.log('V4', 'Pod is terminating but has been requested to restart with same UID, will be reconciled later', podKey(options.pod), { uid, updateType: options.updateType });
    return true;
  }

  /** startPodSync: consume the pending update; null when there is none. */
  private startPodSync(uid: UID): UpdatePodOptions | null {
    const status = this.statuses.get(uid);
    if (status === undefined) return null;
    const options = status.pendingUpdate;
    if (options === null) {
      status.working = false;
      return null;
    }
    status.pendingUpdate = null;
    this.podUpdates.get(uid)?.tryRecv();
    if (!status.isStarted()) status.startedAt = this.o.engine.nowMs;
    status.mergeLastUpdate(options);
    return options;
  }

  /** podWorkerLoop */
  private *podWorkerLoop(uid: UID, ch: Channel<void>): Proc<void> {
    const { cache, syncer, tracer } = this.o;
    let lastSyncGen = 0;
    for (;;) {
      const r = yield* ch.recv();
      if (!r.ok) return;
      const options = this.startPodSync(uid);
      if (options === null) {
        if (!this.statuses.has(uid)) return;
        continue;
      }
      const status = this.statuses.get(uid)!;
      // the update's work type, as startPodSync found the status (syncing the pod changes it)
      const workType = status.workType();
      const pod = options.pod;
      status.syncing = true;
      // wait until we see the next refresh from the PLEG via the cache (GetNewerThan, whose wait is
      // skipped when a newer relist has already completed, as it usually has)
      const rt = cache.generation > lastSyncGen ? cache.get(uid) : yield* cache.getNewerThan(uid, lastSyncGen);
      let err: string | undefined;
      let isTerminal = false;
      // (A sync taken before UpdatePod cancelled its context still runs in full: SyncPod checks no
      // ctx.Err() and runs the runtime's SyncPod on context.WithoutCancel; the termination queued
      // meanwhile is the next update.)
      if (workType === 'terminated') {
        err = (yield* syncer.syncTerminatedPod(pod, rt)).err;
      } else if (workType === 'terminating') {
        status.startedTerminating = true; // acknowledgeTerminating: the last status function
        const fn = status.statusPostTerminating.length > 0 ? status.statusPostTerminating[status.statusPostTerminating.length - 1] : undefined;
        err = (yield* syncer.syncTerminatingPod(pod, rt, options.killPodOptions?.gracePeriodSecondsOverride, fn)).err;
      } else {
        const o = syncer.syncPod(options.updateType, pod, options.mirrorPod, rt);
        const res = isProc(o) ? yield* o : o;
        isTerminal = res.isTerminal;
        err = res.err;
      }
      lastSyncGen = cache.generation;
      status.syncing = false;

      let phaseTransition = false;
      if (err !== undefined) {
        tracer.log('error', `Error syncing pod, skipping: ${err}`, podKey(pod), { uid });
      } else if (workType === 'terminated') {
        this.completeTerminated(uid);
        return;
      } else if (workType === 'terminating') {
        this.completeTerminating(uid, options);
        phaseTransition = true;
      } else if (isTerminal) {
        this.completeSync(uid, options);
        phaseTransition = true;
      }
      this.completeWork(uid, phaseTransition, err);
    }
  }

  /** completeSync: SyncPod reported a terminal phase; terminate the pod now. */
  private completeSync(uid: UID, done: UpdatePodOptions): void {
    const status = this.statuses.get(uid);
    if (status === undefined) return;
    if (status.terminatingAt === undefined) status.terminatingAt = this.o.engine.nowMs;
    status.startedTerminating = true;
    this.requeueLastPodUpdate(uid, status, done);
  }

  /** completeTerminating: every container stopped; SyncTerminatedPod next. */
  private completeTerminating(uid: UID, done: UpdatePodOptions): void {
    const status = this.statuses.get(uid);
    if (status === undefined) return;
    status.terminatedAt = this.o.engine.nowMs;
    for (const ch of status.notifyPostTerminating) ch(); // close(ch)
    status.notifyPostTerminating = [];
    this.requeueLastPodUpdate(uid, status, done);
  }

  /** completeTerminated: the worker is done for good. */
  private completeTerminated(uid: UID): void {
    const ch = this.podUpdates.get(uid);
    if (ch !== undefined) {
      ch.close();
      this.podUpdates.delete(uid);
    }
    const status = this.statuses.get(uid);
    if (status === undefined) return;
    status.finished = true;
    status.working = false;
  }

  /** requeueLastPodUpdate: replay the active update unless one is already pending. v1.23
   *  (completeSync/completeTerminating): `p.lastUndeliveredWorkUpdate[pod.UID] = podWork{WorkType:
   *  ..., Options: UpdatePodOptions{Pod: pod}}` — the pod of the update just done, without its
   *  KillPodOptions, overwriting any undelivered update: the termination that follows kills with
   *  the pod's own grace period. */
  private requeueLastPodUpdate(uid: UID, status: PodSyncStatus, done?: UpdatePodOptions): void {
    if (this.o.v123 && done !== undefined) {
      status.pendingUpdate = { pod: done.pod, mirrorPod: done.mirrorPod, updateType: done.updateType };
      status.working = true;
      this.podUpdates.get(uid)?.trySend(undefined);
      return;
    }
    if (status.pendingUpdate !== null || status.activeUpdate === null) return;
    status.pendingUpdate = { ...status.activeUpdate };
    status.working = true;
    this.podUpdates.get(uid)?.trySend(undefined);
  }

  /** completeWork: requeue (at once on a phase transition, after the resync interval on success,
   *  after the back-off period on error), then take the pending update if any. */
  private completeWork(uid: UID, phaseTransition: boolean, err: string | undefined): void {
    const { workQueue, jitter, resyncIntervalMs, backOffPeriodMs } = this.o;
    if (phaseTransition) workQueue.enqueue(uid, 0);
    else if (err === undefined) workQueue.enqueue(uid, jitter(resyncIntervalMs, RESYNC_JITTER));
    else workQueue.enqueue(uid, jitter(backOffPeriodMs, BACKOFF_JITTER));
    const status = this.statuses.get(uid);
    if (status === undefined) return;
    if (status.pendingUpdate !== null) this.podUpdates.get(uid)?.trySend(undefined);
    else status.working = false;
  }

  /** CouldHaveRunningContainers: the worker has not reached terminated; unknown UIDs could until the
   *  kubelet finished its initial sync. */
  /** ShouldPodContentBeRemoved (v1.22+): an evicted pod (a kill with Evict asked for its
   *  termination, whether or not it has finished), or a deleted and terminated one; a pod the
   *  workers never saw has no content once they synced (podsSynced). */
  shouldPodContentBeRemoved(uid: UID): boolean {
    const st = this.statuses.get(uid);
    if (st === undefined) return this.podsSynced;
    // proposed #123782 (keepEvictedContentUntilFinished): status.IsEvicted() && status.IsFinished()
    const evicted = st.evicted && (!this.o.keepEvictedContentUntilFinished || st.isFinished());
    return evicted || (st.deleted && st.isTerminated());
  }

  couldHaveRunningContainers(uid: UID): boolean {
    const s = this.statuses.get(uid);
    if (s !== undefined) return !s.isTerminated();
    return !this.podsSynced;
  }

  /** IsPodTerminationRequested */
  isPodTerminationRequested(uid: UID): boolean {
    return this.statuses.get(uid)?.isTerminationRequested() ?? false;
  }

  /** IsPodForMirrorPodTerminatingByFullName */
  isPodForMirrorPodTerminatingByFullName(fullname: string): boolean {
    for (const s of this.statuses.values()) {
      if (s.fullname === fullname && s.isStatic && s.isTerminationRequested() && !s.isTerminated()) return true;
    }
    return false;
  }

  /** SyncKnownPods: forget finished workers of pods no longer desired; report the rest.
   *  isDesired(uid) answers "is uid in desiredPods" (upstream builds that `known` set from the pod
   *  list; the caller's pod manager lookup is the same set without building it). The answer is the
   *  workers that remain, keyed by UID: exactly the keys of upstream's map of PodWorkerSync, whose
   *  State is the status's workType() and Orphan is !isDesired(uid). */
  syncKnownPods(isDesired: (uid: UID) => boolean): ReadonlyMap<UID, PodSyncStatus> {
    this.podsSynced = true;
    // housekeeping runs this every 2 s: only the orphans (rare) and the restarts requested (rarer)
    // are handled, in UID order
    let visit: UID[] | undefined;
    for (const uid of this.statuses.keys()) if (!isDesired(uid)) (visit ??= []).push(uid);
    for (const uid of this.restarts) if (isDesired(uid)) (visit ??= []).push(uid);
    if (visit === undefined) return this.statuses;
    for (const uid of visit.sort()) {
      const status = this.statuses.get(uid);
      if (status === undefined) continue;
      const orphan = !isDesired(uid);
      if (status.isFinished()) {
        // removeTerminatedWorker: "Pod has been terminated but another pod with the same UID was
        // created, remove history to allow restart" (or: no longer known, remove all history)
        const restart = status.restartRequested && !orphan;
        this.removeWorker(uid);
        if (restart) this.restartable.push(uid);
        continue;
      }
      if (orphan) this.driveOrphan(uid, status);
    }
    return this.statuses;
  }

  /** removeTerminatedWorker for an orphan (no longer desired) not yet finished. #113145
   *  (smarterclayton, v1.27): "the pod worker becomes responsible for driving the pod to completion
   *  (there is no guarantee another component will notify us of updates)" — a force-deleted pod is
   *  not in the pod manager, so the sync ticker never retries its failed SyncTerminatingPod; every
   *  housekeeping pass replays its last update instead. v1.23 (transitional), and the revert
   *  (noOrphanTerminationRetry): "Pod worker has been requested for removal but is still not fully
   *  terminated", nothing more, until the kubelet restarts. */
  private driveOrphan(uid: UID, status: PodSyncStatus): void {
    status.deleted = true; // all orphaned pods are considered deleted
    const { tracer, engine } = this.o;
    const key = status.activeUpdate === null ? undefined : podKey(status.activeUpdate.pod);
    if (this.o.v123 || this.o.noOrphanTerminationRetry) {
      tracer.log('V4', 'Pod worker has been requested for removal but is still not fully terminated', key, { uid });
      return;
    }
    // (kss's workers never take a RunningPod, so observedRuntime is false: a runtime-only orphan is
    // the pod killer's, kubelet-pods.ts)
    if (!status.isStarted()) {
      tracer.log('V4', 'Pod is orphaned and has not been started', key, { uid });
    } else if (!status.isTerminationRequested()) {
      status.terminatingAt = engine.nowMs;
      const pod = status.activeUpdate?.pod;
      status.gracePeriod = pod === undefined ? 1 : calculateEffectiveGracePeriod(status.gracePeriod, pod, undefined).gracePeriod;
      this.requeueLastPodUpdate(uid, status);
      tracer.log('V4', 'Pod is orphaned and still running, began terminating', key, { uid });
    } else {
      this.requeueLastPodUpdate(uid, status);
      tracer.log('V4', 'Pod is orphaned and still terminating, notified the pod worker', key, { uid });
    }
  }

  private removeWorker(uid: UID): void {
    this.statuses.delete(uid);
    this.restarts.delete(uid);
    const ch = this.podUpdates.get(uid);
    if (ch !== undefined) {
      ch.close();
      this.podUpdates.delete(uid);
    }
  }

  /** The UIDs SyncKnownPods last reset for a restart that are still desired, taken once (HandlePodCleanups
   *  starts them again: "Pod will be restarted because it is in the desired set and not known to the
   *  pod workers (likely due to UID reuse)"). */
  takeRestartable(isDesired: (uid: UID) => boolean): UID[] {
    if (this.restartable.length === 0) return [];
    const out = this.restartable.filter((uid) => isDesired(uid) && !this.statuses.has(uid));
    this.restartable = [];
    return out;
  }
}

