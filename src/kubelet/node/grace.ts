// Grace periods for stopping containers: the pod worker's effective grace period
// (pkg/kubelet/pod_workers.go calculateEffectiveGracePeriod) and the per-container timeout that
// killContainer hands to the runtime (pkg/kubelet/kuberuntime/kuberuntime_container.go).
import type { Container, Pod } from '../../model/pod.js';
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

/** setTerminationGracePeriod (v1.21+) for a kill because a probe failed: the pod's deletion grace,
 *  else the probe's own terminationGracePeriodSeconds (current: ProbeTerminationGracePeriod, beta-on
 *  v1.22, GA v1.28), else the pod's grace. classic (v1.20): the pod's grace. */
export function probeKillGracePeriod(gen: Generation, pod: Pod, container: Container, reason: 'liveness' | 'startup'): number {
  const del = pod.metadata?.deletionGracePeriodSeconds;
  if (gen === 'classic' || (del !== undefined && del !== null)) return podTerminationGracePeriod(pod);
  const probe = reason === 'liveness' ? container.livenessProbe : container.startupProbe;
  const g = probe?.terminationGracePeriodSeconds;
  if (g !== undefined && g !== null && pod.spec?.terminationGracePeriodSeconds !== undefined) return g;
  return podTerminationGracePeriod(pod);
}

/** The StopContainer timeout (seconds) killContainer computes after a preStop hook that took
 *  hookSeconds (whole seconds, truncated: executePreStopHook). classic (≤v1.28): the grace, less
 *  the hook, at least 2 s, then a caller's override replaces it (transitional too) (the hook's time is not taken from
 *  an override). current (v1.29+): the override first, then less the hook, then the 2 s floor. */
export function graceAfterPreStop(gen: Generation, pod: Pod, overrideSeconds: number | undefined, hookSeconds: number, baseSeconds?: number): number {
  let grace = baseSeconds ?? podTerminationGracePeriod(pod);
  if (gen === 'current' && overrideSeconds !== undefined) grace = overrideSeconds;
  grace -= hookSeconds;
  if (grace < MINIMUM_GRACE_PERIOD_SECONDS) grace = MINIMUM_GRACE_PERIOD_SECONDS;
  if (gen !== 'current' && overrideSeconds !== undefined) grace = overrideSeconds;
  return grace;
}

/** The grace a preStop hook may run for (the hook runs only when it is above 0). */
export function preStopBudgetSeconds(gen: Generation, pod: Pod, overrideSeconds: number | undefined, baseSeconds?: number): number {
  const grace = baseSeconds ?? podTerminationGracePeriod(pod);
  return gen === 'current' && overrideSeconds !== undefined ? overrideSeconds : grace;
}

/** The StopContainer timeout (seconds) killContainer computes (no preStop hook: graceAfterPreStop).
 *  classic (≤v1.28): the pod's grace, at least 2 s; a caller's override replaces it as is.
 *  current (v1.29+): the override replaces the pod's grace first, then the time spent waiting for
 *  the container's turn (sidecar ordering, whole seconds) is subtracted, then the 2 s floor. */
export function killContainerTimeoutSeconds(gen: Generation, pod: Pod | undefined, overrideSeconds: number | undefined, waitedSeconds = 0, baseSeconds?: number): number {
  let grace = baseSeconds ?? podTerminationGracePeriod(pod);
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
