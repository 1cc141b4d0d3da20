// pkg/kubelet/kubelet_pods.go: the kubelet's pod-level helpers — generateAPIPodStatus with the
// kubelet's caches, the pod killer, HandlePodCleanups, and the questions the status manager and the
// classic dispatch ask (PodResourcesAreReclaimed, PodCouldHaveRunningContainers, IsPodDeleted,
// podIsTerminated, podAndContainersAreTerminal).
import { produce } from 'immer';
import type { Proc } from '../../engine/index.js';
import { deepFreeze } from '../../model/freeze.js';
import { isPodPhaseTerminal, podFullName, podKey, type Pod, type PodStatus, type UID } from '../../model/pod.js';
import { generateAPIPodStatus as generateStatus, notRunning } from './api-status.js';
import type { KubeletState } from './kubelet-state.js';
import { killPod } from './kuberuntime-manager.js';
import type { RuntimePodStatus } from './types.js';
import { shouldEvict } from './active-deadline.js';

/** generateAPIPodStatus with this kubelet's status cache, reason cache and prober. The status is
 *  handed to the status manager, which deep-freezes it. A pure function of the pod, the runtime
 *  status, the cached status (all immutable), the pod's reason-cache entries and probe results
 *  (versioned per pod): when none of them changed since the pod's previous call, that call's
 *  (frozen) answer is the answer. A generation that logged is never reused (its log must recur). */
export function generateAPIPodStatus(kl: KubeletState, pod: Pod, podStatus: RuntimePodStatus, podIsTerminal: boolean): PodStatus {
  const uid = pod.metadata?.uid ?? '';
  const cachedStatus = kl.sm.getPodStatus(uid);
  const reasons = kl.reasonVersions.get(uid) ?? 0;
  const probes = kl.prober.podVersion(uid);
  const evict = shouldEvict(pod, cachedStatus, kl.engine.nowMs, kl.toVirtual);
  const last = kl.lastGenerated.get(uid);
  if (
    last !== undefined &&
    last.pod === pod &&
    last.podStatus === podStatus &&
    last.podIsTerminal === podIsTerminal &&
    last.cachedStatus === cachedStatus &&
    last.reasons === reasons &&
    last.probes === probes &&
    last.evicted === (evict !== undefined)
  ) {
    if (kl.gen !== 'classic') kl.probeWorkers.triggerUnready(uid, last.status);
    return last.status;
  }
  let logged = false;
  const status = generateStatus(pod, podStatus, podIsTerminal, {
    gen: kl.gen,
    gates: kl.gates,
    at: kl.rfc3339,
    cachedStatus,
    reasonFor: (name) => kl.reasonCache.get(uid)?.get(name),
    vanishedContainerOnlyOnDelete: kl.config.revertFixes?.includes('vanishedContainerOnlyOnDelete'),
    createdCountsAsExited: kl.config.revertFixes?.includes('createdCountsAsExited'),
    missingContainersWaiting: kl.config.revertFixes?.includes('missingContainersWaiting'),
    noReasonMessageCarry: kl.config.revertFixes?.includes('noReasonMessageCarry'),
    prober: kl.prober,
    shouldEvict: () => evict,
    log: (msg) => {
      logged = true;
      kl.log('error', msg, podKey(pod));
    },
  });
  if (logged || !Object.isFrozen(pod) || (cachedStatus !== undefined && !Object.isFrozen(cachedStatus))) kl.lastGenerated.delete(uid);
  else if (last === undefined) kl.lastGenerated.set(uid, { pod, podStatus, podIsTerminal, cachedStatus, reasons, probes, evicted: evict !== undefined, status: deepFreeze(status) });
  else {
    // the pod's record, kept (it lives as long as the pod: replaced, it would be copied by GC)
    last.pod = pod;
    last.podStatus = podStatus;
    last.podIsTerminal = podIsTerminal;
    last.cachedStatus = cachedStatus;
    last.reasons = reasons;
    last.probes = probes;
    last.evicted = evict !== undefined;
    last.status = deepFreeze(status);
  }
  // UpdatePodStatus's manual trigger of the readiness workers of unready containers (v1.22+)
  if (kl.gen !== 'classic') kl.probeWorkers.triggerUnready(uid, status);
  return status;
}

/** Kill a pod's containers in a process of its own (pod killer, orphaned runtime pods). */
export function spawnKill(kl: KubeletState, pod: Pod, override: number | undefined, why: string): void {
  const uid = pod.metadata?.uid ?? '';
  if (kl.orphanKills.has(uid)) return;
  kl.orphanKills.add(uid);
  kl.spawn(`${why}/${uid}`, (function* (): Proc<void> {
    try {
      yield* killPod(kl, pod, override);
    } finally {
      kl.orphanKills.delete(uid);
    }
  })());
}

/** HandlePodCleanups: prune pod workers, stop runtime pods nothing wants, RemoveOrphanedStatuses
 *  (regular and mirror pods of the pod manager), delete orphaned mirror pods, back-off GC. */
export function* handlePodCleanups(kl: KubeletState): Proc<void> {
  const mirrorPods = kl.pm.getMirrorPods();
  if (kl.workersCurrent) {
    // allPods: the pod manager's pods, asked by UID
    const working = kl.workersCurrent.syncKnownPods(kl.inPodManager);
    for (const uid of runningPodsOutside(kl, working)) {
      // an orphaned runtime pod: SyncTerminatingRuntimePod, grace 1 s
      // (runningPod.ToAPIPod(): every container a plain one, so no sidecar termination ordering)
      const pod = kl.runtime.podOf(uid);
      if (pod !== undefined) spawnKill(kl, asRunningPod(pod), 1, 'runtime-pod-killer');
    }
    // #104847: a desired pod the workers no longer know (reset after a UID reuse) starts again.
    // Upstream walks every desired pod for one without a worker; here only the ones SyncKnownPods
    // just reset can lack one (every pod the pod manager holds was dispatched when it was added)
    for (const uid of kl.workersCurrent.takeRestartable(kl.inPodManager)) {
      const pod = kl.pm.getPodByUID(uid);
      if (pod === undefined) continue;
      kl.log('V3', 'Pod will be restarted because it is in the desired set and not known to the pod workers (likely due to UID reuse)', podKey(pod));
      kl.workersCurrent.updatePod({ updateType: 'create', pod, mirrorPod: kl.pm.getMirrorPodByPod(pod) });
    }
  } else {
    const desired = new Set<UID>();
    for (const p of kl.pm.getPods()) if (!podIsTerminated(kl, p)) desired.add(p.metadata?.uid ?? '');
    kl.workersClassic!.forgetNonExistingPodWorkers(desired);
    for (const uid of runningPodsOutside(kl, desired)) {
      const pod = kl.runtime.podOf(uid);
      if (pod !== undefined) spawnKill(kl, produce(pod, (d) => void (d.metadata && delete d.metadata.deletionGracePeriodSeconds)), undefined, 'pod-killer');
    }
  }
  kl.sm.removeOrphanedStatuses(podManagerUIDs(kl, mirrorPods));
  for (const m of mirrorPods) {
    if (kl.pm.getPodByMirrorPod(m) !== undefined) continue;
    if (kl.workersCurrent?.isPodForMirrorPodTerminatingByFullName(podFullName(m))) continue;
    yield* kl.mirrors.deleteMirrorPod(m, undefined);
  }
  kl.backoff.gc();
  kl.imageBackoff.gc();
}

/** The UIDs of the pod manager's pods and mirror pods, as a set. The previous answer is reused while
 *  the pod manager's uidVersion stands still (no UID added or removed since). */
export function podManagerUIDs(kl: KubeletState, mirrorPods: readonly Pod[]): ReadonlySet<UID> {
  const prev = kl.lastPodManagerUIDs;
  if (prev !== null && prev.version === kl.pm.uidVersion) return prev.uids;
  const uids = new Set<UID>();
  kl.pm.forEachPodUID((uid) => uids.add(uid));
  for (const p of mirrorPods) uids.add(p.metadata?.uid ?? '');
  kl.lastPodManagerUIDs = { version: kl.pm.uidVersion, uids };
  return uids;
}

/** The runtime's pods with a running container that `known` does not hold, sorted by UID (the
 *  runtime's pods walked unsorted: usually none qualifies). */
export function runningPodsOutside(kl: KubeletState, known: { has(uid: UID): boolean }): UID[] {
  const out: UID[] = [];
  for (const uid of kl.runtime.podUIDsUnordered()) if (!known.has(uid) && kl.runtime.hasRunningContainers(uid)) out.push(uid);
  return out.sort();
}

/** podIsTerminated (classic): terminal phase, or deleted with no container running, per the status
 *  manager's cache (else the API status). */
export function podIsTerminated(kl: KubeletState, pod: Pod): boolean {
  const st = kl.sm.getPodStatus(pod.metadata?.uid ?? '') ?? pod.status ?? {};
  return isPodPhaseTerminal(st.phase) || (!!pod.metadata?.deletionTimestamp && notRunning(st.containerStatuses));
}

/** PodResourcesAreReclaimed (classic, v1.18–v1.20 kubelet_pods.go): no container runs per the
 *  status, and the PLEG cache lists no container of the pod — exited ones too, which leave the
 *  cache only after the container deletor removed them and a relist saw it. Volumes and the pod
 *  cgroup, upstream's further checks, are not modelled (always reclaimed). */
export function podResourcesAreReclaimed(kl: KubeletState, pod: Pod, status: PodStatus): boolean {
  if (kl.workersCurrent !== null) return podResourcesAreReclaimedV122(kl, pod, status);
  if (!notRunning(status.containerStatuses)) {
    kl.log('V3', 'Pod is terminated, but some containers are still running', podKey(pod));
    return false;
  }
  const runtimeStatus = kl.cache.get(pod.metadata?.uid ?? '');
  if (runtimeStatus.containers.length > 0) {
    kl.log('V3', 'Pod is terminated, but some containers have not been cleaned up', podKey(pod), { containers: runtimeStatus.containers.map((c) => `${c.name}:${c.state}`) });
    return false;
  }
  return true;
}

/** PodResourcesAreReclaimed (v1.22+, the transitional generation's status manager asks it): the
 *  pod worker has stopped every container and no container status says running (volumes and
 *  cgroups are not modelled). Unlike v1.20 it no longer waits for the containers to be removed. */
function podResourcesAreReclaimedV122(kl: KubeletState, pod: Pod, status: PodStatus): boolean {
  if (kl.workersCurrent!.couldHaveRunningContainers(pod.metadata?.uid ?? '')) {
    kl.log('V3', 'Pod is terminated, but some containers are still running', podKey(pod));
    return false;
  }
  let running = 0;
  for (const list of [status.initContainerStatuses, status.containerStatuses, status.ephemeralContainerStatuses]) for (const c of list ?? []) if (c.state?.running) running++;
  if (running > 0) {
    kl.log('V3', 'Pod is terminated, but some container status has not yet been reported', podKey(pod), { running });
    return false;
  }
  kl.log('V3', 'Pod is terminated and all resources are reclaimed', podKey(pod));
  return true;
}

/** PodCouldHaveRunningContainers (current: the pod worker's state). The classic kubelet has no
 *  such hook; it answers from the runtime. */
export function couldHaveRunningContainers(kl: KubeletState, uid: UID): boolean {
  if (kl.workersCurrent) return kl.workersCurrent.couldHaveRunningContainers(uid);
  return kl.runtime.hasRunningContainers(uid);
}

/** IsPodDeleted (classic, v1.18–v1.20 kubelet_pods.go): the pod is gone from the pod manager, or
 *  its status (the status manager's, else the pod's) is evicted, or it is deleted and no container
 *  runs per that status. */
export function isPodDeletedClassic(kl: KubeletState, uid: UID): boolean {
  const pod = kl.pm.getPodByUID(uid);
  if (pod === undefined) return true;
  const status = kl.sm.getPodStatus(uid) ?? pod.status ?? {};
  return podIsEvicted(status) || (!!pod.metadata?.deletionTimestamp && notRunning(status.containerStatuses));
}

/** podAndContainersAreTerminal (classic, v1.18–v1.20 kubelet_pods.go): per the status manager's
 *  cache (else the API status), whether no container runs, and whether the pod worker is done:
 *  a terminal phase, or deleted with no container running. */
export function podAndContainersAreTerminal(kl: KubeletState, pod: Pod): { containersTerminal: boolean; podWorkerTerminal: boolean } {
  const status = kl.sm.getPodStatus(pod.metadata?.uid ?? '') ?? pod.status ?? {};
  const containersTerminal = notRunning(status.containerStatuses);
  const podWorkerTerminal = isPodPhaseTerminal(status.phase) || (!!pod.metadata?.deletionTimestamp && containersTerminal);
  return { containersTerminal, podWorkerTerminal };
}

/** kubecontainer.Pod.ToAPIPod for a runtime pod: the containers it runs, all as plain containers
 *  (no init containers, hence no sidecars). */
export function asRunningPod(pod: Pod): Pod {
  const inits = pod.spec?.initContainers;
  if (!inits || inits.length === 0) return pod;
  return produce(pod, (d) => {
    d.spec!.containers = [...(d.spec!.initContainers ?? []), ...d.spec!.containers];
    delete d.spec!.initContainers;
  });
}

/** eviction.PodIsEvicted: phase Failed with reason Evicted. */
export function podIsEvicted(status: PodStatus | undefined): boolean {
  return status?.phase === 'Failed' && status.reason === 'Evicted';
}
