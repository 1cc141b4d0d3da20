// Grace periods for stopping containers: the pod worker's effective grace period
// (pkg/kubelet/pod_workers.go calculateEffectiveGracePeriod) and the per-container timeout that
// killContainer hands to the runtime (pkg/kubelet/kuberuntime/kuberuntime_container.go).
import type { Pod } from '../../model/pod.js';
import type { Generation } from './types.js';

/** minimumGracePeriodInSeconds: containers always get at least this long after SIGTERM. */
export const MINIMUM_GRACE_PERIOD_SECONDS = 2;

/** calculateEffectiveGracePeriod: start from the grace already recorded for the pod worker (0 =
 *  none); take pod.DeletionGracePeriodSeconds when smaller (or nothing recorded); take a kill
 *  request's override when smaller; if still 0 use spec.terminationGracePeriodSeconds; never below
 *  1 s. Returns the grace and whether it shortened an earlier non-zero value. */
export function calculateEffectiveGracePeriod(recordedSeconds: number, pod: Pod, overrideSeconds?: number): { gracePeriod: number; shortened: boolean } {
  let gracePeriod = recordedSeconds;
  const del = pod.metadata?.deletionGracePeriodSeconds;
  if (del !== undefined && del !== null) {
    if (gracePeriod === 0 || del < gracePeriod) gracePeriod = del;
  }
  if (overrideSeconds !== undefined) {
    if (gracePeriod === 0 || overrideSeconds < gracePeriod) gracePeriod = overrideSeconds;
  }
  const specGrace = pod.spec?.terminationGracePeriodSeconds;
  if (gracePeriod === 0 && specGrace !== undefined && specGrace !== null) gracePeriod = specGrace;
  if (gracePeriod < 1) gracePeriod = 1;
  return { gracePeriod, shortened: recordedSeconds !== 0 && recordedSeconds !== gracePeriod };
}

/** setTerminationGracePeriod: the pod's own grace for a container — DeletionGracePeriodSeconds if
 *  the pod is being deleted, else spec.terminationGracePeriodSeconds, else the minimum. */
export function podTerminationGracePeriod(pod: Pod | undefined): number {
  const del = pod?.metadata?.deletionGracePeriodSeconds;
  if (del !== undefined && del !== null) return del;
  const spec = pod?.spec?.terminationGracePeriodSeconds;
  if (spec !== undefined && spec !== null) return spec;
  return MINIMUM_GRACE_PERIOD_SECONDS;
}

/** The StopContainer timeout (seconds) killContainer computes. No preStop hooks are modelled.
 *  classic (≤v1.28): the pod's grace, at least 2 s; a caller's override replaces it as is.
 *  current (v1.29+): the override replaces the pod's grace first, then the time spent waiting for
 *  the container's turn (sidecar ordering, whole seconds) is subtracted, then the 2 s floor. */
export function killContainerTimeoutSeconds(gen: Generation, pod: Pod | undefined, overrideSeconds: number | undefined, waitedSeconds = 0): number {
  let grace = podTerminationGracePeriod(pod);
  if (gen !== 'current') {
    if (grace < MINIMUM_GRACE_PERIOD_SECONDS) grace = MINIMUM_GRACE_PERIOD_SECONDS;
    if (overrideSeconds !== undefined) grace = overrideSeconds;
    return grace;
  }
  if (overrideSeconds !== undefined) grace = overrideSeconds;
  if (waitedSeconds > 0 && grace > 0) grace -= Math.floor(waitedSeconds);
  if (grace < MINIMUM_GRACE_PERIOD_SECONDS) grace = MINIMUM_GRACE_PERIOD_SECONDS;
  return grace;
}
