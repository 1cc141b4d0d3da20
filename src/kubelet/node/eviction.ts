// The kubelet's eviction manager (pkg/kubelet/eviction, kubernetes/kubernetes), the part that
// acts on a pod: synchronize's eviction of the pod it ranked first (eviction_manager.go
// synchronize, evictPod), with helpers.go's message (evictionMessage, signalToResource) and
// kubelet.go's killPodNow, the KillPodFunc the manager is given.
//
// What kss leaves out: the stats (summary API), the observations and thresholds, their grace
// periods and the ranking. A scenario's `evict` step says which pod the manager picked for which
// signal, whether the threshold met is hard or soft, and (optionally) the threshold's quantity and
// what was available; the manager then does what synchronize does for that pod:
//   - a critical pod (static, mirror, priority ≥ system-critical) is not evicted
//     (kubelettypes.IsCriticalPod; "Eviction manager: cannot evict a critical pod");
//   - the grace override is immediateEvictionGracePeriodSeconds = 1 for a hard threshold, the
//     kubelet's evictionMaxPodGracePeriod for a soft one (v1.31 synchronize);
//   - the message is "The node was low on resource: <resource>. " (nodeLowMessageFmt), current
//     (v1.27+) followed by "Threshold quantity: <q>, available: <a>. " (thresholdMetMessageFmt) when
//     both are given; the per-container usage sentences need stats and are not produced;
//   - current, PodDisruptionConditions on: the DisruptionTarget condition (reason
//     TerminationByKubelet, the message) goes into the status;
//   - killPodNow: UpdatePod with SyncPodKill, KillPodOptions{Evict, PodStatusFunc: phase Failed,
//     reason Evicted, the message (and the condition)}, and a wait for the kill's completion of at
//     least 10 s (grace × 1.5) after which "Container runtime did not kill the pod within specified
//     grace period." is logged (the ExceededGracePeriod event) and the kill counts as failed.
//   classic (v1.20): evictPod hands killPodFunc the bare status {phase Failed, reason, message}
//   (syncPod's SyncPodKill sets exactly that; no DisruptionTarget before v1.26).
// The Evicted event is a log line here (kss posts only container-start events: events.ts).
import { Deferred, type Proc } from '../../engine/index.js';
import { isMirrorPod, isStaticPod, podKey, type Pod, type PodCondition, type PodStatus } from '../../model/pod.js';
import { replaceOrAppendPodCondition } from '../status/conditions.js';
import { DisruptionTarget, gateEnabled } from '../status/types.js';
import type { EvictionSignal } from '../../scenario/types.js';
import type { KubeletState } from './kubelet-state.js';
import type { PodStatusFunc } from './pod-workers.js';

/** eviction.Reason: the pod's status reason (and the event's). */
export const EVICTION_REASON = 'Evicted';
/** v1.PodReasonTerminationByKubelet: the DisruptionTarget reason of kubelet-initiated kills. */
export const POD_REASON_TERMINATION_BY_KUBELET = 'TerminationByKubelet';
/** immediateEvictionGracePeriodSeconds (eviction_manager.go): the grace of a hard eviction. */
export const IMMEDIATE_EVICTION_GRACE_PERIOD_SECONDS = 1;
/** scheduling.SystemCriticalPriority */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** The eviction signals (evictionapi.Signal, scenario EVICTION_SIGNALS) and the resource each
 *  reclaims (signalToResource). */
export const SIGNAL_TO_RESOURCE: Record<EvictionSignal, string> = {
  'memory.available': 'memory',
  'allocatableMemory.available': 'memory',
  'nodefs.available': 'ephemeral-storage',
  'nodefs.inodesFree': 'inodes',
  'imagefs.available': 'ephemeral-storage',
  'imagefs.inodesFree': 'inodes',
  'containerfs.available': 'ephemeral-storage',
  'containerfs.inodesFree': 'inodes',
  'pid.available': 'pids',
};

/** What the manager decided about one pod (the scenario's `evict` step). */
export interface EvictionRequest {
  signal: EvictionSignal;
  /** A soft threshold (grace: evictionMaxPodGracePeriod) rather than a hard one (1 s). */
  soft?: boolean;
  /** The kubelet's evictionMaxPodGracePeriod (seconds; default 0). */
  maxPodGracePeriodSeconds?: number;
  /** The threshold's quantity and what was observed available (the message's second sentence). */
  threshold?: string;
  available?: string;
}

/** kubelettypes.IsCriticalPod: static, mirror, or system-critical priority. */
export function isCriticalPod(pod: Pod): boolean {
  if (isStaticPod(pod) || isMirrorPod(pod)) return true;
  return (pod.spec?.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY;
}

/** evictionMessage (helpers.go), without the container usage sentences (no stats in kss). */
export function evictionMessage(kl: KubeletState, req: EvictionRequest): string {
  let message = `The node was low on resource: ${SIGNAL_TO_RESOURCE[req.signal]}. `;
  if (kl.gen === 'current' && req.threshold !== undefined && req.available !== undefined) message += `Threshold quantity: ${req.threshold}, available: ${req.available}. `;
  return message;
}

/** synchronize's eviction of the pod it picked, then evictPod. False when the pod is critical. */
export function evictPod(kl: KubeletState, pod: Pod, req: EvictionRequest): boolean {
  if (isCriticalPod(pod)) {
    kl.log('error', 'Eviction manager: cannot evict a critical pod', podKey(pod));
    return false;
  }
  const gracePeriodOverride = req.soft ? req.maxPodGracePeriodSeconds ?? 0 : IMMEDIATE_EVICTION_GRACE_PERIOD_SECONDS;
  const message = evictionMessage(kl, req);
  const condition: PodCondition | undefined =
    kl.gen === 'current' && gateEnabled(kl.gen, kl.gates, 'PodDisruptionConditions')
      ? { type: DisruptionTarget, status: 'True', reason: POD_REASON_TERMINATION_BY_KUBELET, message }
      : undefined;
  // record that we are evicting the pod (the Evicted event)
  kl.log('warning', `${EVICTION_REASON}: ${message}`, podKey(pod), { uid: pod.metadata?.uid });
  kl.trace({ type: 'kubelet.evict', actor: 'kubelet', pod: podKey(pod), uid: pod.metadata?.uid, signal: req.signal, gracePeriodSeconds: gracePeriodOverride, message });
  const statusFn: PodStatusFunc =
    kl.gen === 'classic'
      ? () => ({ phase: 'Failed', message, reason: EVICTION_REASON })
      : (status) => {
          const s: PodStatus = { ...status, phase: 'Failed', reason: EVICTION_REASON, message };
          if (condition !== undefined) s.conditions = updatePodCondition(s.conditions, condition, kl.clock.now());
          return s;
        };
  // this is a blocking call and should only return when the pod and its containers are killed
  kl.spawn(`eviction-manager/${pod.metadata?.uid ?? ''}`, (function* (): Proc<void> {
    const err = yield* killPodNow(kl, pod, true, gracePeriodOverride, statusFn);
    if (err !== undefined) kl.log('error', `Eviction manager: pod failed to evict: ${err}`, podKey(pod));
    else kl.log('info', 'Eviction manager: pod is evicted successfully', podKey(pod));
  })());
  return true;
}

/** podutil.UpdatePodCondition: set the condition, its lastTransitionTime kept when the status is
 *  unchanged (now otherwise). */
export function updatePodCondition(conditions: readonly PodCondition[] | undefined, c: PodCondition, now: string): PodCondition[] {
  const old = conditions?.find((x) => x.type === c.type);
  const lastTransitionTime = old !== undefined && old.status === c.status ? old.lastTransitionTime : now;
  return replaceOrAppendPodCondition([...(conditions ?? [])], { ...c, lastTransitionTime });
}

/** killPodNow (kubelet.go): UpdatePod with a SyncPodKill and the kill options, then wait for the
 *  kill's completion for grace × 1.5 (at least 10 s). Returns the error on a timeout. */
export function* killPodNow(kl: KubeletState, pod: Pod, isEvicted: boolean, gracePeriodOverride: number | undefined, statusFn: PodStatusFunc): Proc<string | undefined> {
  const gracePeriod = gracePeriodOverride ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
  const timeoutSeconds = Math.max(10, gracePeriod + Math.floor(gracePeriod / 2));
  const done = new Deferred<boolean>();
  const timer = kl.engine.after(timeoutSeconds * 1000, () => done.resolve(kl.engine, false));
  kl.timers.push(timer);
  const update = {
    updateType: 'kill' as const,
    pod,
    killPodOptions: { evict: isEvicted, podStatusFunc: statusFn, gracePeriodSecondsOverride: gracePeriodOverride, completed: () => done.resolve(kl.engine, true) },
  };
  if (kl.workersCurrent) kl.workersCurrent.updatePod(update);
  else kl.workersClassic!.updatePod(update);
  const ok = yield* done.wait();
  timer.cancel();
  if (ok) return undefined;
  kl.log('warning', 'Container runtime did not kill the pod within specified grace period.', podKey(pod), { reason: 'ExceededGracePeriod' });
  return 'timeout waiting to kill pod';
}
