// mergePodStatus (status_manager.go): what the kubelet sends, given the apiserver's status.
import { isPodPhaseTerminal, type PodCondition, type PodStatus } from '../../model/pod.js';
import {
  getPodCondition,
  isConditionTrue,
  podConditionByKubelet,
  podConditionSharedByKubelet,
  replaceOrAppendPodCondition,
  updatePodCondition,
} from './conditions.js';
import { generateContainersReadyConditionForTerminalPhase, generatePodReadyConditionForTerminalPhase } from './generate.js';
import { updateLastTransitionTime } from './transition.js';
import { ContainersReady, DisruptionTarget, PodReady, type Generation, type StatusFeatureGates } from './types.js';
import type { RevertedFixes } from '../../model/fixes.js';

export interface MergeOptions {
  /** current: podDeletionSafety.PodCouldHaveRunningContainers(pod) for the API pod. */
  couldHaveRunningContainers?: boolean;
  gates?: StatusFeatureGates;
  /** metav1.Now(): stamps a re-sent DisruptionTarget and the forced Ready/ContainersReady False. */
  now?: string;
  /** spec.kubelet.revertFixes (the bug zoo). */
  reverted?: RevertedFixes;
  /** Told the DisruptionTarget condition as re-stamped: upstream's updateLastTransitionTime writes
   *  it through newPodStatus.Conditions, which shares its backing array with the cache entry (see
   *  StatusCache.aliasDisruptionTargetRestamp). */
  onRestamp?: (c: PodCondition) => void;
}

/** mergePodStatus. Classic (2 args): `newStatus` with its conditions replaced by the non-kubelet
 *  conditions of `oldStatus` followed by the kubelet-owned ones of `newStatus`. Transitional
 *  (v1.23.17: 3 args, #108366 and #110256 backported): the hold-back of the terminal phase and the
 *  Ready/ContainersReady override below, without DisruptionTarget or resourceClaimStatuses. Current: the same,
 *  plus DisruptionTarget only on the terminal transition once no container may run, the API's
 *  resourceClaimStatuses kept, the terminal phase (with reason and message) held back while containers
 *  may run, and Ready/ContainersReady forced False on a terminal phase. Neither input is modified. */
export function mergePodStatus(oldStatus: PodStatus, newStatus: PodStatus, gen: Generation, opts: MergeOptions = {}): PodStatus {
  const gates = opts.gates;
  let conditions: PodCondition[] = [];
  const oldConditions = oldStatus.conditions;
  for (let i = 0; oldConditions && i < oldConditions.length; i++) if (!podConditionByKubelet(oldConditions[i].type, gen, gates)) conditions.push(oldConditions[i]);
  const newConditions = newStatus.conditions;

  if (gen === 'classic') {
    for (let i = 0; newConditions && i < newConditions.length; i++) if (podConditionByKubelet(newConditions[i].type, gen, gates)) conditions.push(newConditions[i]);
    return { ...newStatus, conditions };
  }

  const now = opts.now ?? '';
  const couldHaveRunningContainers = opts.couldHaveRunningContainers ?? false;
  const toTerminal = !isPodPhaseTerminal(oldStatus.phase) && isPodPhaseTerminal(newStatus.phase);
  let out: PodStatus = newStatus;
  for (let i = 0; newConditions && i < newConditions.length; i++) {
    const c = newConditions[i];
    if (podConditionByKubelet(c.type, gen, gates)) {
      conditions.push(c);
    } else if (podConditionSharedByKubelet(c.type, gen, gates)) {
      if (c.type === DisruptionTarget && toTerminal && !couldHaveRunningContainers) {
        // Re-stamp: the time set when it was cached is stale, sending it was held back.
        out = updateLastTransitionTime(out, oldStatus, c.type, now);
        const dt = getPodCondition(out, c.type);
        if (dt) {
          conditions = replaceOrAppendPodCondition(conditions, dt);
          opts.onRestamp?.(dt);
        }
      }
    }
  }
  out = { ...out, conditions };
  if (gen === 'current') {
    // (v1.27+: the API's resourceClaimStatuses are the scheduler's; v1.23 has no such field)
    if (oldStatus.resourceClaimStatuses !== undefined) out.resourceClaimStatuses = oldStatus.resourceClaimStatuses;
    else delete out.resourceClaimStatuses;
  }

  // revert #108366 (Delay writing a terminal phase until the pod is terminated): noDelayTerminalPhase
  if (toTerminal && couldHaveRunningContainers && !opts.reverted?.has('noDelayTerminalPhase')) {
    setOrDelete(out, 'phase', oldStatus.phase);
    setOrDelete(out, 'reason', oldStatus.reason);
    setOrDelete(out, 'message', oldStatus.message);
  }

  // revert #110256 (terminal phase ⇒ Ready/ContainersReady False): noTerminalReadyFalse
  if (isPodPhaseTerminal(out.phase) && (isConditionTrue(out, PodReady) || isConditionTrue(out, ContainersReady)) && !opts.reverted?.has('noTerminalReadyFalse')) {
    out.conditions = updatePodCondition(out.conditions, generateContainersReadyConditionForTerminalPhase(out.phase), now);
    out.conditions = updatePodCondition(out.conditions, generatePodReadyConditionForTerminalPhase(out.phase), now);
  }
  return out;
}

function setOrDelete(s: PodStatus, key: 'phase' | 'reason' | 'message', v: string | undefined): void {
  if (v === undefined) delete s[key];
  else s[key] = v;
}
