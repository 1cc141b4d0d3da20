// pkg/kubelet/kubelet.go: the sync functions the pod workers call — SyncPod, SyncTerminatingPod and
// SyncTerminatedPod (current), syncPod (classic) — with the static pod's mirror upkeep and the hand-off
// to the runtime manager's SyncPod (kuberuntime-manager.ts).
import type { Proc, Yieldable } from '../../engine/index.js';
import { isPodPhaseTerminal, isStaticPod, podKey, type Pod } from '../../model/pod.js';
import { emitsNothing } from '../../model/trace.js';
import { killContainerTimeoutSeconds, probeKillGracePeriod } from './grace.js';
import type { KubeletState } from './kubelet-state.js';
import { generateAPIPodStatus } from './kubelet-pods.js';
import { criKillFailure, killContainer, killPod, NO_RESULTS, runtimeSyncPod, syncError, type StartResult } from './kuberuntime-manager.js';
import { updateReasonCache } from './reason-cache.js';
import { CRI_UNAVAILABLE } from './kuberuntime-container.js';
import { isMirrorPodOf } from './mirror.js';
import { volumesMounted, waitForAttachAndMount } from './volume-manager.js';
import { computePodActions, type PodActions } from './pod-actions.js';
import { isProc, type PodStatusFunc, type SyncOutcome, type SyncPodResult, type SyncPodType, type UpdatePodOptions } from './pod-workers.js';
import type { RuntimePodStatus } from './types.js';

/** What SyncPod returns when it succeeded without reaching a terminal phase, and when it did. */
const SYNC_OK: SyncPodResult = Object.freeze({ isTerminal: false });
const SYNC_TERMINAL: SyncPodResult = Object.freeze({ isTerminal: true });

/** SyncPod (current): generate and set the status; a terminal phase ends here (the worker then
 *  terminates the pod); otherwise mirror pod upkeep and the runtime's SyncPod (syncRuntime). */
export function syncPod(kl: KubeletState, updateType: SyncPodType, pod: Pod, mirrorPod: Pod | undefined, podStatus: RuntimePodStatus): SyncOutcome<SyncPodResult> {
  const uid = pod.metadata?.uid ?? '';
  if (emitsNothing(kl.tracer)) kl.tracer.skip!('worker.sync'); // (nothing reads it: counted, not built)
  else kl.trace({ type: 'worker.sync', actor: 'kubelet', pod: podKey(pod), uid, updateType });
  const apiPodStatus = generateAPIPodStatus(kl, pod, podStatus, false);
  if (isPodPhaseTerminal(apiPodStatus.phase)) {
    kl.sm.setPodStatus(pod, apiPodStatus);
    return SYNC_TERMINAL;
  }
  kl.sm.setPodStatus(pod, apiPodStatus);
  const network = networkNotReady(kl, pod);
  if (network !== undefined) return { isTerminal: false, err: network };
  return syncRuntime(kl, pod, mirrorPod, podStatus);
}

/** syncPod's network check: with the runtime's network not ready (networkErrors), only a
 *  hostNetwork pod goes on; the others' sync fails, NetworkNotReadyErrorMsg first. */
function networkNotReady(kl: KubeletState, pod: Pod): string | undefined {
  const err = kl.runtimeState.networkErrors();
  return err === undefined || pod.spec?.hostNetwork === true ? undefined : `network is not ready: ${err}`;
}

/** SyncTerminatingPod (current): set the status, stop every container with the grace period,
 *  check that nothing runs, regenerate with podIsTerminal and set it again. */
export function* syncTerminatingPod(kl: KubeletState, pod: Pod, podStatus: RuntimePodStatus, gracePeriodSeconds: number | undefined, podStatusFn?: PodStatusFunc): Proc<{ err?: string }> {
  const uid = pod.metadata?.uid ?? '';
  kl.trace({ type: 'worker.terminating', actor: 'kubelet', pod: podKey(pod), uid, gracePeriodSeconds });
  const apiPodStatus = generateAPIPodStatus(kl, pod, podStatus, false);
  kl.sm.setPodStatus(pod, podStatusFn === undefined ? apiPodStatus : podStatusFn(apiPodStatus));
  const failed = criKillFailure(kl, pod) ?? (yield* killPod(kl, pod, gracePeriodSeconds));
  if (failed !== undefined) return { err: failed };
  kl.probeWorkers.removePod(uid);
  kl.prober.removePod(uid);
  const stopped = kl.runtime.getPodStatus(uid);
  const still = stopped.containers.filter((c) => c.state === 'running').map((c) => c.id);
  if (still.length > 0) return { err: `detected running containers after a successful KillPod, CRI violation: ${still.join(' ')}` };
  // (v1.27+: "Compute and update the status in cache once the pods are no longer running")
  if (kl.gen === 'current') kl.sm.setPodStatus(pod, generateAPIPodStatus(kl, pod, stopped, true));
  return {};
}

/** SyncTerminatedPod (current): the final status, then TerminatePod. */
export function* syncTerminatedPod(kl: KubeletState, pod: Pod, podStatus: RuntimePodStatus): Proc<{ err?: string }> {
  const uid = pod.metadata?.uid ?? '';
  kl.trace({ type: 'worker.terminated', actor: 'kubelet', pod: podKey(pod), uid });
  kl.sm.setPodStatus(pod, generateAPIPodStatus(kl, pod, podStatus, true));
  kl.sm.terminatePod(pod);
  return {};
}

/** syncPod (classic): generate and set the status; a deleted or Failed pod is killed (grace from
 *  the pod, at least 2 s); otherwise mirror upkeep and the runtime's SyncPod (syncRuntime). */
export function syncPodClassic(kl: KubeletState, o: UpdatePodOptions, podStatus: RuntimePodStatus): SyncOutcome<{ err?: string }> {
  const pod = o.pod;
  const uid = pod.metadata?.uid ?? '';
  kl.trace({ type: 'worker.sync', actor: 'kubelet', pod: podKey(pod), uid, updateType: o.updateType });
  if (o.updateType === 'kill') {
    // v1.20: the kill's PodStatusFunc gives the status to set (the eviction manager's is the bare
    // {phase Failed, reason, message}); kss's own kills without one set the generated status
    const fn = o.killPodOptions?.podStatusFunc;
    kl.sm.setPodStatus(pod, fn === undefined ? generateAPIPodStatus(kl, pod, podStatus, false) : fn(generateAPIPodStatus(kl, pod, podStatus, false)));
    return killPodThenOK(kl, pod, o.killPodOptions?.gracePeriodSecondsOverride);
  }
  const apiPodStatus = generateAPIPodStatus(kl, pod, podStatus, false);
  kl.sm.setPodStatus(pod, apiPodStatus);
  if (pod.metadata?.deletionTimestamp || apiPodStatus.phase === 'Failed') {
    if (pod.metadata?.deletionTimestamp && kl.runtime.hasRunningContainers(uid)) {
      kl.trace({ type: 'worker.terminating', actor: 'kubelet', pod: podKey(pod), uid, gracePeriodSeconds: killContainerTimeoutSeconds('classic', pod, undefined) });
    }
    return killPodThenOK(kl, pod, undefined);
  }
  const network = networkNotReady(kl, pod);
  if (network !== undefined) return { err: network };
  return syncRuntime(kl, pod, o.mirrorPod, podStatus);
}

/** classic syncPod's kill: killPod, then a sync without error. */
export function* killPodThenOK(kl: KubeletState, pod: Pod, gracePeriodOverride: number | undefined): Proc<SyncPodResult> {
  const failed = criKillFailure(kl, pod) ?? (yield* killPod(kl, pod, gracePeriodOverride));
  if (failed !== undefined) return { isTerminal: false, err: `error killing pod: ${failed}` };
  return SYNC_OK;
}

/** The end of a sync that goes on: the static pod's mirror upkeep, then kubeGenericRuntimeManager.
 *  SyncPod — its actions, the pod kill if they ask for one, the rest (runtimeSyncPod) — and the
 *  reason cache. Only the mirror upkeep and the kill wait: a sync that needs neither is done here
 *  and returns its result; otherwise the process that finishes it (syncRuntimeWaiting). */
export function syncRuntime(kl: KubeletState, pod: Pod, mirrorPod: Pod | undefined, podStatus: RuntimePodStatus): SyncOutcome<SyncPodResult> {
  if (isStaticPod(pod)) return syncRuntimeWaiting(kl, pod, mirrorPod, podStatus, undefined);
  if (!volumesMounted(kl, pod)) return syncAfterMount(kl, pod, mirrorPod, podStatus);
  const changes = computePodActions(pod, podStatus, kl.gen, kl.gates, kl.startupResult, kl.probeFailure);
  if (changes.killPod || changes.containersToKill.length > 0) return syncRuntimeWaiting(kl, pod, undefined, podStatus, changes);
  return syncRuntimeEnd(kl, pod, podStatus, changes);
}

/** syncRuntime behind the volume manager (SyncPod's WaitForAttachAndMount, before the runtime's
 *  SyncPod): the pod's projected service account tokens first; a failed mount fails the sync. */
export function* syncAfterMount(kl: KubeletState, pod: Pod, mirrorPod: Pod | undefined, podStatus: RuntimePodStatus): Proc<SyncPodResult> {
  const err = yield* waitForAttachAndMount(kl, pod);
  if (err !== undefined) return { isTerminal: false, err };
  const changes = computePodActions(pod, podStatus, kl.gen, kl.gates, kl.startupResult, kl.probeFailure);
  const failed = killFailure(kl, pod, changes) ?? (changes.killPod ? yield* killPod(kl, pod, undefined) : yield* killContainers(kl, pod, changes));
  if (failed !== undefined) return { isTerminal: false, err: failed };
  const end = syncRuntimeEnd(kl, pod, podStatus, changes);
  return isProc(end) ? yield* end : end;
}

/** SyncPod's kills with containerd down: they fail and SyncPod returns (see criKillFailure). */
function killFailure(kl: KubeletState, pod: Pod, changes: PodActions): string | undefined {
  if (!kl.runtime.criDown) return undefined;
  return criKillFailure(kl, pod, changes.killPod ? undefined : changes.containersToKill.map((k) => k.container.name));
}

/** syncRuntime when it waits: for a static pod, the mirror upkeep and then the actions (changes
 *  undefined); the pod kill if the actions ask for one. */
export function* syncRuntimeWaiting(kl: KubeletState, pod: Pod, mirrorPod: Pod | undefined, podStatus: RuntimePodStatus, changes: PodActions | undefined): Proc<SyncPodResult> {
  if (changes === undefined) {
    yield* syncMirrorPod(kl, pod, mirrorPod);
    changes = computePodActions(pod, podStatus, kl.gen, kl.gates, kl.startupResult, kl.probeFailure);
  }
  const failed = killFailure(kl, pod, changes) ?? (changes.killPod ? yield* killPod(kl, pod, undefined) : yield* killContainers(kl, pod, changes));
  if (failed !== undefined) return { isTerminal: false, err: failed };
  const end = syncRuntimeEnd(kl, pod, podStatus, changes);
  return isProc(end) ? yield* end : end;
}

/** SyncPod's step 3: kill the running containers that are not to keep (a failed liveness or
 *  startup probe), one after the other (killContainer with the probe's grace). A StopContainer
 *  that fails (stopFails) ends SyncPod there with its KillContainer result. */
export function* killContainers(kl: KubeletState, pod: Pod, changes: PodActions): Proc<string | undefined> {
  for (const k of changes.containersToKill) {
    kl.log('info', `${k.message}`, podKey(pod), { containerID: k.id });
    const inst = kl.runtime.container(k.id);
    if (inst === undefined) continue;
    const err = kl.runtime.stopFaults.failure(inst);
    if (err !== undefined) return `failed to "KillContainer" for "${inst.name}" with KillContainerError: ${JSON.stringify(err)}`;
    yield* killContainer(kl, pod, inst, undefined, probeKillGracePeriod(kl.gen, pod, k.container, k.reason)).wait();
  }
  return undefined;
}

/** The runtime's SyncPod after its actions and the pod kill, the reason cache, the sync's result:
 *  at once, unless a postStart hook makes a start wait (then the process that waits for it). */
export function syncRuntimeEnd(kl: KubeletState, pod: Pod, podStatus: RuntimePodStatus, changes: PodActions): SyncOutcome<SyncPodResult> {
  if (changes.createSandbox && kl.runtime.criDown) return { isTerminal: false, err: sandboxFailure(pod) };
  // (most syncs start nothing: their result without the generator)
  if (!changes.createSandbox && changes.nextInitContainerToStart === undefined && changes.initContainersToStart.length === 0 && changes.containersToStart.length === 0 && changes.ephemeralContainersToStart.length === 0) {
    return startsDone(kl, pod, NO_RESULTS);
  }
  const it = runtimeSyncPod(kl, pod, podStatus, changes);
  const first = it.next();
  return first.done ? startsDone(kl, pod, first.value) : startsWaiting(kl, pod, it, first.value);
}

/** syncRuntimeEnd past a start that waits: the rest of the starts, then the sync's result. */
function* startsWaiting(kl: KubeletState, pod: Pod, it: Proc<readonly StartResult[]>, pending: Yieldable): Proc<SyncPodResult> {
  for (;;) {
    const next = it.next(yield pending);
    if (next.done) return startsDone(kl, pod, next.value);
    pending = next.value;
  }
}

function startsDone(kl: KubeletState, pod: Pod, results: readonly StartResult[]): SyncPodResult {
  updateReasonCache(kl, pod.metadata?.uid ?? '', results);
  const err = syncError(kl, results);
  return err === undefined ? SYNC_OK : { isTerminal: false, err };
}

/** The sync's error when CreatePodSandbox fails with containerd down (SyncResult.Error of the
 *  createSandboxResult, the message createPodSandbox makes: Go's %q quotes it). */
function sandboxFailure(pod: Pod): string {
  const target = `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? 'default'}(${pod.metadata?.uid ?? ''})`;
  const message = `Failed to create sandbox for pod ${JSON.stringify(target)}: ${CRI_UNAVAILABLE}`;
  return `failed to "CreatePodSandbox" for ${JSON.stringify(target)} with CreatePodSandboxError: ${JSON.stringify(message)}`;
}

/** The static pod's mirror, as the update handed to the worker gave it (the pod manager's when it
 *  was dispatched; for a removed mirror, the removed one): delete it when it is being deleted or
 *  carries another hash, create it when missing (or just deleted). A stale mirror costs a request
 *  that fails (a delete whose UID precondition no longer holds, a create that finds the name
 *  taken), as upstream's does. */
export function* syncMirrorPod(kl: KubeletState, pod: Pod, mirror: Pod | undefined): Proc<void> {
  let deleted = false;
  // revert #22626 (re-create a mirror pod that is being deleted): ignoreMirrorDeletion
  const beingDeleted = !!mirror?.metadata?.deletionTimestamp && !kl.config.revertFixes?.includes('ignoreMirrorDeletion');
  if (mirror !== undefined && (beingDeleted || !isMirrorPodOf(mirror, pod))) {
    kl.log('info', 'Trying to delete pod', podKey(pod), { mirrorUID: mirror.metadata?.uid });
    deleted = yield* kl.mirrors.deleteMirrorPod(mirror, mirror.metadata?.uid);
  }
  if (mirror === undefined || deleted) yield* kl.mirrors.createMirrorPod(pod);
}
