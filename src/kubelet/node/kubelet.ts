// pkg/kubelet/kubelet.go: the kubelet's loops (Run, syncLoop: the PLEG, the sync ticker, housekeeping,
// StartGarbageCollection), the config source's handlers (HandlePodAdditions / Updates / Removes /
// Reconcile / Syncs), the dispatch to the pod workers, the PLEG and probe handlers.
import { Deferred, type Proc } from '../../engine/index.js';
import { isMirrorPod, podKey, type Pod, type UID } from '../../model/pod.js';
import { emitsNothing } from '../../model/trace.js';
import { getPodConditionIndex } from '../status/conditions.js';
import { generatePodReadyCondition } from '../status/generate.js';
import { PodReady } from '../status/types.js';
import { notRunning } from './api-status.js';
import { CONTAINER_GC_PERIOD_MS, type KubeletState } from './kubelet-state.js';
import { generateAPIPodStatus, handlePodCleanups, podAndContainersAreTerminal, podIsEvicted, spawnKill } from './kubelet-pods.js';
import { garbageCollectContainers } from './kuberuntime-gc.js';
import { staticPodFromManifest } from './mirror.js';
import { podsDifferSemantically } from './pod-config.js';
import { deleteContainersInPod, deleteOldContainersInPod } from './pod-container-deletor.js';
import { pastActiveDeadline } from './active-deadline.js';
import { admit } from './nodeshutdown.js';
import { admitPredicates } from './predicate-admit.js';
import type { SyncPodType } from './pod-workers.js';
import type { PodLifecycleEvent } from './pleg.js';
import type { ProbeKind, ProbeResult } from './prober.js';

/** Start the kubelet's loops: the PLEG relist (at once, then every plegRelistPeriod), the sync
 *  ticker that hands due pods from the work queue to their workers, and housekeeping. */
export function start(kl: KubeletState): void {
  if (kl.running || kl.stopped) return;
  kl.running = true;
  kl.runtimeState.start();
  const period = Math.max(1, kl.config.plegRelistPeriodMs || 1000);
  kl.spawn('pleg', plegLoop(kl, period));
  kl.spawn('sync-ticker', syncTickerLoop(kl));
  kl.spawn('housekeeping', housekeepingLoop(kl));
  kl.spawn('container-gc', containerGCLoop(kl));
  if (kl.recorder !== null) kl.spawn('event-sink', kl.recorder.sink());
}

/** The kubelet process dies: every process of this incarnation is killed and its timers are
 *  cancelled. Containers keep running; StopContainer calls in flight end without their SIGKILL. */
export function stop(kl: KubeletState): void {
  kl.stopped = true;
  kl.running = false;
  kl.runtime.abandonStops(kl.group);
  kl.pleg.stop();
  for (const p of kl.procs) kl.engine.kill(p);
  kl.procs = [];
  for (const t of kl.timers) t.cancel();
  kl.timers = [];
}

/** The relist runs behind everything already scheduled for its instant, so that a container that
 *  exits at a relist instant is seen by that relist (real time has no such ties). */
export function* plegLoop(kl: KubeletState, periodMs: number): Proc<void> {
  for (;;) {
    yield 0;
    kl.pleg.relist(kl.engine.nowMs);
    yield periodMs;
  }
}

/** syncLoopIteration's syncCh: every syncTickMs, the pods the work queue has due (getPodsToSync) go
 *  to HandlePodSyncs. */
export function* syncTickerLoop(kl: KubeletState): Proc<void> {
  for (;;) {
    yield kl.tuning.syncTickMs;
    if (kl.loop.closed) {
      kl.loop.deferTick('sync', () => syncTick(kl));
      continue;
    }
    syncTick(kl);
    kl.loop.check();
  }
}

/** One sync tick: the due pods to HandlePodSyncs. */
function syncTick(kl: KubeletState): void {
  let due = kl.workQueue.getWork();
  if (kl.deadlinePods.size > 0) due = withPastDeadline(kl, due);
  if (due.length === 0) return;
  // getPodsToSync walks the pod manager's pods (a Go map: seeded order). getWork is sorted by
  // UID, as getPods is: the due pods in the pod manager's order, without listing all of them.
  const pods: Pod[] = [];
  for (const uid of due) {
    const p = kl.pm.getPodByUID(uid);
    if (p !== undefined) pods.push(p);
  }
  // (the shuffle of one pod draws nothing)
  handlePodSyncs(kl, pods.length < 2 ? pods : kl.rng.shuffle(pods));
}

/** getPodsToSync's PodSyncLoopHandlers: the pods past their active deadline join the due ones
 *  (sorted by UID, as getWork's list is). */
export function withPastDeadline(kl: KubeletState, due: readonly UID[]): UID[] {
  const set = new Set(due);
  for (const uid of kl.deadlinePods) {
    const pod = kl.pm.getPodByUID(uid);
    if (pod !== undefined && !set.has(uid) && pastActiveDeadline(pod, kl.sm.getPodStatus(uid), kl.engine.nowMs, kl.toVirtual)) set.add(uid);
  }
  return set.size === due.length ? [...due] : [...set].sort();
}

/** Track the pods with an active deadline (the handler's ShouldSync is asked only about them). */
function trackDeadline(kl: KubeletState, pod: Pod): void {
  const uid = pod.metadata?.uid ?? '';
  if (pod.spec?.activeDeadlineSeconds !== undefined && pod.spec.activeDeadlineSeconds !== null) kl.deadlinePods.add(uid);
  else kl.deadlinePods.delete(uid);
}

/** syncLoopIteration's housekeepingCh: HandlePodCleanups every housekeepingPeriod. */
export function* housekeepingLoop(kl: KubeletState): Proc<void> {
  const period = kl.tuning.housekeepingPeriodMs;
  let wait = period;
  for (;;) {
    yield wait;
    wait = period;
    if (kl.loop.closed) {
      // the tick waits in its channel until the loop wakes; the ticker keeps its phase
      const tickMs = kl.engine.nowMs;
      const d = new Deferred<void>();
      kl.loop.deferTick('housekeeping', () => d.resolve(kl.engine, undefined));
      yield d;
      yield* handlePodCleanups(kl);
      kl.loop.check();
      wait = period - ((kl.engine.nowMs - tickMs) % period);
      continue;
    }
    yield* handlePodCleanups(kl);
    kl.loop.check();
  }
}

/** StartGarbageCollection's container GC (kubelet.go, every generation: wait.Until at start, then
 *  every ContainerGCPeriod, 1 min). */
export function* containerGCLoop(kl: KubeletState): Proc<void> {
  for (;;) {
    if (kl.runtime.criDown) kl.log('error', 'Container garbage collection failed: rpc error: code = Unavailable desc = connection error');
    else garbageCollectContainers(kl);
    yield CONTAINER_GC_PERIOD_MS;
  }
}

/** HandlePodAdditions for one pod already in the pod manager: a pod canAdmitPod refuses is rejected
 *  (no pod worker, no probes), else handed to its worker. */
export function podAdded(kl: KubeletState, pod: Pod): void {
  if (kl.stopped) return;
  if (kl.loop.closed) return kl.loop.defer('config', () => podAdded(kl, pod));
  podAddedNow(kl, pod);
  kl.loop.check();
}

function podAddedNow(kl: KubeletState, pod: Pod): void {
  kl.lastConfig.set(pod.metadata?.uid ?? '', pod);
  if (isMirrorPod(pod)) return handleMirrorPod(kl, pod);
  // (only a pod no part of the kubelet asked to terminate goes through admission)
  const refused = kl.workersCurrent?.status(pod.metadata?.uid ?? '')?.isTerminationRequested() ? undefined : (admitPredicates(kl, pod) ?? admit(kl));
  if (refused !== undefined) return rejectPod(kl, pod, refused.reason, refused.message);
  trackDeadline(kl, pod);
  dispatch(kl, pod, 'create');
  kl.probeWorkers.addPod(pod);
}

/** rejectPod: the pod goes to Failed with the refusal's reason, through SetPodStatus. The message's
 *  prefix is "Pod " before v1.26 ("Pod Pod was rejected as …", transitional) and "Pod was rejected: "
 *  since (kubernetes#112644, current). The status has no QOS class, so the patch clears qosClass
 *  (v1.32 keeps it, kubernetes#128083). Not modelled: the Warning event. */
function rejectPod(kl: KubeletState, pod: Pod, reason: string, message: string): void {
  kl.sm.setPodStatus(pod, { phase: 'Failed', reason, message: (kl.gen === 'current' ? 'Pod was rejected: ' : 'Pod ') + message });
}

/** HandlePodUpdates, or HandlePodReconcile when only the status changed. */
export function podUpdated(kl: KubeletState, pod: Pod): void {
  if (kl.stopped) return;
  if (kl.loop.closed) return kl.loop.defer('config', () => podUpdated(kl, pod));
  podUpdatedNow(kl, pod);
  kl.loop.check();
}

function podUpdatedNow(kl: KubeletState, pod: Pod): void {
  const uid = pod.metadata?.uid ?? '';
  const prev = kl.lastConfig.get(uid);
  kl.lastConfig.set(uid, pod);
  if (prev !== undefined && !podsDifferSemantically(prev, pod)) return handlePodReconcile(kl, pod);
  if (isMirrorPod(pod)) return handleMirrorPod(kl, pod);
  trackDeadline(kl, pod);
  dispatch(kl, pod, 'update');
}

/** HandlePodReconcile (every generation, v1.20…v1.31): a status-only change syncs the pod only to
 *  reconcile readiness gates; and once the pod's API status says it was evicted (Failed, reason
 *  Evicted), every dead container the pod cache holds for it is removed ("after an evicted pod is
 *  synced, all dead containers in the pod can be removed") — whether or not its pod worker has
 *  finished with them (kubernetes#122160: a container removed before SyncTerminatingPod reads the
 *  runtime is reported ContainerStatusUnknown). A mirror pod stands for its static pod, whose own
 *  status is never an eviction's. */
function handlePodReconcile(kl: KubeletState, pod: Pod): void {
  if (isMirrorPod(pod)) return;
  if (needToReconcilePodReadiness(kl, pod)) dispatch(kl, pod, 'sync');
  if (podIsEvicted(pod.status)) deleteContainersInPod(kl, kl.cache.get(pod.metadata?.uid ?? ''));
}

/** HandlePodRemoves for one pod already removed from the pod manager. */
export function podRemoved(kl: KubeletState, pod: Pod): void {
  if (kl.stopped) return;
  if (kl.loop.closed) return kl.loop.defer('config', () => podRemoved(kl, pod));
  podRemovedNow(kl, pod);
  kl.loop.check();
}

function podRemovedNow(kl: KubeletState, pod: Pod): void {
  const uid = pod.metadata?.uid ?? '';
  kl.lastConfig.delete(uid);
  kl.deadlinePods.delete(uid);
  if (isMirrorPod(pod)) return handleMirrorPod(kl, pod);
  if (kl.workersCurrent) {
    // deletePod: the worker terminates the pod (if it has not already)
    kl.workersCurrent.updatePod({ updateType: 'kill', pod });
    return;
  }
  // classic deletePod: forget the worker, and the pod killer stops whatever still runs
  kl.workersClassic!.forgetWorker(uid);
  if (kl.runtime.hasRunningContainers(uid)) spawnKill(kl, pod, undefined, 'pod-killer');
  kl.probeWorkers.removePod(uid);
  kl.prober.removePod(uid);
}

/** The file source: a static pod (the manifest is completed as the file source does — UID, hash,
 *  config.source, nodeName) goes into the pod manager and is synced; its sync creates the mirror. */
export function addStaticPod(kl: KubeletState, manifest: Pod): Pod {
  const pod = staticPodFromManifest(manifest, kl.config.nodeName);
  if (kl.stopped) return pod;
  kl.pm.addPod(pod);
  podAdded(kl, pod);
  return pod;
}

/** NeedToReconcilePodReadiness */
export function needToReconcilePodReadiness(kl: KubeletState, pod: Pod): boolean {
  if ((pod.spec?.readinessGates ?? []).length === 0) return false;
  const st = pod.status ?? {};
  const all = kl.gen === 'current' ? [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])] : st.containerStatuses ?? [];
  const want = generatePodReadyCondition(pod.spec, st.conditions, all, st.phase, kl.gen, kl.gates);
  const i = getPodConditionIndex(st.conditions, PodReady);
  if (i < 0) return false;
  const cur = st.conditions![i];
  return cur.status !== want.status || (cur.message ?? '') !== (want.message ?? '');
}

/** handleMirrorPod: a mirror pod's change syncs its static pod. */
export function handleMirrorPod(kl: KubeletState, mirror: Pod): void {
  const pod = kl.pm.getPodByMirrorPod(mirror);
  if (pod === undefined) return;
  dispatch(kl, pod, 'update', mirror);
}

/** HandlePodSyncs */
export function handlePodSyncs(kl: KubeletState, pods: readonly Pod[]): void {
  for (const pod of pods) {
    if (isMirrorPod(pod)) continue;
    dispatch(kl, pod, 'sync');
  }
}

/** current: podWorkers.UpdatePod; classic: dispatchWork. */
export function dispatch(kl: KubeletState, pod: Pod, updateType: SyncPodType, mirrorPod?: Pod): void {
  const mirror = mirrorPod ?? kl.pm.getMirrorPodByPod(pod);
  if (kl.workersCurrent) {
    kl.workersCurrent.updatePod({ updateType, pod, mirrorPod: mirror });
    return;
  }
  dispatchWork(kl, pod, updateType, mirror);
}

/** dispatchWork (classic, v1.18–v1.20 kubelet.go): a deleted pod whose containers are all
 *  terminal is handed to TerminatePod instead of a worker; a pod whose cached phase is terminal
 *  gets no more work at all, even while its containers still run (v1.21's PR #98742 added
 *  `&& containersTerminal` to that optimization; v1.20 has the stale-containerStatuses bug
 *  #98718). */
export function dispatchWork(kl: KubeletState, pod: Pod, updateType: SyncPodType, mirrorPod: Pod | undefined): void {
  const uid = pod.metadata?.uid ?? '';
  // check whether we are ready to delete the pod from the API server (all status up to date)
  const { containersTerminal, podWorkerTerminal } = podAndContainersAreTerminal(kl, pod);
  if (pod.metadata?.deletionTimestamp && containersTerminal) {
    kl.trace({ type: 'worker.terminated', actor: 'kubelet', pod: podKey(pod), uid, via: 'dispatchWork' });
    kl.sm.terminatePod(pod);
    return;
  }
  // optimization: avoid invoking the pod worker if no further changes are possible to the pod definition
  if (podWorkerTerminal) {
    kl.log('V4', `Pod has completed, ignoring remaining sync work: ${updateType}`, podKey(pod));
    return;
  }
  kl.workersClassic!.updatePod({ updateType, pod, mirrorPod });
}

/** PLEG events: every event but ContainerRemoved syncs the pod; in the classic generation a
 *  ContainerDied then runs the container deletor (cleanUpContainersInPod). */
export function onPlegEvents(kl: KubeletState, events: PodLifecycleEvent[]): void {
  if (kl.stopped) return;
  if (kl.loop.closed) return kl.loop.defer('pleg', () => onPlegEvents(kl, events));
  for (const e of events) {
    if (e.type !== 'ContainerRemoved') {
      const pod = kl.pm.getPodByUID(e.uid);
      if (pod !== undefined) handlePodSyncs(kl, [pod]);
    }
    if (e.type === 'ContainerDied') cleanUpContainersInPod(kl, e.uid, e.containerID);
  }
  kl.loop.check();
}

/** cleanUpContainersInPod (kubelet.go; every generation). classic (v1.20): removeAll when the pod
 *  was evicted, or is deleted and its status generated from the cache shows nothing running;
 *  current (v1.22+): removeAll = podWorkers.ShouldPodContentBeRemoved (evicted, or deleted and
 *  terminated). With removeAll the deletor removes every exited container of the pod (the next
 *  relist reports them ContainerRemoved and drops them from the cache, which is what the classic
 *  PodResourcesAreReclaimed waits for); otherwise every dead instance of the container that died
 *  but the newest (containersToKeep = 1), so that a status generated after the next relist has no
 *  lastState for it. */
export function cleanUpContainersInPod(kl: KubeletState, uid: UID, exitedContainerID: string): void {
  const podStatus = kl.cache.get(uid);
  const syncedPod = kl.pm.getPodByUID(uid);
  let removeAll = false;
  if (kl.gen === 'classic') {
    if (syncedPod !== undefined) {
      // generate the api status using the cached runtime status to get up-to-date ContainerStatuses
      const apiPodStatus = generateAPIPodStatus(kl, syncedPod, podStatus, false);
      removeAll = podIsEvicted(syncedPod.status) || (!!syncedPod.metadata?.deletionTimestamp && notRunning(apiPodStatus.containerStatuses));
    }
  } else {
    removeAll = kl.workersCurrent!.shouldPodContentBeRemoved(uid);
  }
  if (removeAll) deleteContainersInPod(kl, podStatus);
  else deleteOldContainersInPod(kl, exitedContainerID, podStatus);
}

/** A timeline `ready` / `started` / `live` step: the running container's probe answers `value`
 *  from now on, and a probe with that answer lands now (the worker adopts it as a full run):
 *  cached per container instance; a change goes to the kubelet's handler (probeUpdate). */
export function probeResult(kl: KubeletState, kind: ProbeKind, podUID: UID, container: string, value: boolean): void {
  if (kl.stopped) return;
  const c = kl.runtime.runningContainer(podUID, container);
  const pod = kl.pm.getPodByUID(podUID);
  if (c === undefined || pod === undefined) {
    kl.log('warning', `${kind} result for ${container}: no running container`, pod ? podKey(pod) : undefined, { uid: podUID });
    return;
  }
  c.probeAnswers[kind] = value;
  const worker = kl.probeWorkers.get(podUID, container, kind);
  // an exec probe runs through containerd: while it is down the probe errors and nothing lands
  if (worker?.exec && kl.runtime.criDown) return;
  const result: ProbeResult = value ? 'Success' : 'Failure';
  worker?.adopt(c.id, result);
  const changed = kl.prober.set(kind, podUID, c.id, result);
  if (emitsNothing(kl.tracer)) kl.tracer.skip!('probe.result'); // (nothing reads it: counted, not built)
  else kl.trace({ type: 'probe.result', actor: 'kubelet', pod: podKey(pod), uid: podUID, container, probe: kind, result: value, changed });
  if (changed) handleProbeUpdate(kl, kind, pod, c.id, result);
}

/** A probe worker's result changed (results.Manager.Set sent an update): traced, then handled. */
export function probeUpdate(kl: KubeletState, kind: ProbeKind, podUID: UID, container: string, containerID: string, result: ProbeResult): void {
  if (kl.stopped) return;
  const pod = kl.pm.getPodByUID(podUID);
  if (pod === undefined) return;
  if (emitsNothing(kl.tracer)) kl.tracer.skip!('probe.result');
  else kl.trace({ type: 'probe.result', actor: 'kubelet', pod: podKey(pod), uid: podUID, container, probe: kind, result: result === 'Success', changed: true, ...(result === 'Unknown' ? { unknown: true } : {}) });
  handleProbeUpdate(kl, kind, pod, containerID, result);
}

/** syncLoopIteration's probe cases: readiness and startup go to the status manager
 *  (SetContainerReadiness / SetContainerStartup) and, in the current generation, sync the pod
 *  (handleProbeSync); a liveness failure syncs the pod (both generations). */
export function handleProbeUpdate(kl: KubeletState, kind: ProbeKind, pod: Pod, containerID: string, result: ProbeResult): void {
  // (classic: the prober manager's own goroutines hand readiness and startup to the status manager,
  // outside the sync loop: only liveness waits for it)
  const viaLoop = kind === 'liveness' || kl.gen !== 'classic';
  if (viaLoop && kl.loop.closed) return kl.loop.defer(kind, () => handleProbeUpdate(kl, kind, pod, containerID, result));
  handleProbeUpdateNow(kl, kind, pod, containerID, result);
  if (viaLoop) kl.loop.check();
}

function handleProbeUpdateNow(kl: KubeletState, kind: ProbeKind, pod: Pod, containerID: string, result: ProbeResult): void {
  const uid = pod.metadata?.uid ?? '';
  if (kind === 'liveness') {
    if (result === 'Failure') handlePodSyncs(kl, [pod]);
    return;
  }
  if (kind === 'readiness') kl.sm.setContainerReadiness(uid, containerID, result === 'Success');
  else kl.sm.setContainerStartup(uid, containerID, result === 'Success');
  if (kl.gen !== 'classic') handlePodSyncs(kl, [pod]); // handleProbeSync (v1.21+)
}
