// The container-state transition check and condition transition times (status_manager.go).
import type { ContainerStatus, PodCondition, PodSpec, PodStatus } from '../../model/pod.js';
import { getContainerByIndex, getPodConditionIndex, isRestartableInitContainerUngated } from './conditions.js';
import type { Generation, StatusFeatureGates } from './types.js';

/** A rejected update: the container named in the error and upstream's error text. */
export interface TransitionError {
  container: string;
  message: string;
}

/** The classic per-list rule: a container terminated in `oldStatuses` may not appear non-terminated
 *  in `newStatuses`, unless it failed and the policy is OnFailure. Containers absent from the new
 *  list are not checked; restartPolicy "" behaves like Never. */
function checkList(oldStatuses: readonly ContainerStatus[] | undefined, newStatuses: readonly ContainerStatus[] | undefined, restartPolicy: string | undefined, kind: string): TransitionError | undefined {
  for (const o of oldStatuses ?? []) {
    const term = o.state?.terminated;
    if (!term) continue;
    if ((term.exitCode ?? 0) !== 0 && restartPolicy === 'OnFailure') continue;
    for (const n of newStatuses ?? []) {
      if (o.name === n.name && !n.state?.terminated) {
        return { container: n.name, message: `terminated ${kind} ${n.name} attempted illegal transition to non-terminated state` };
      }
    }
  }
  return undefined;
}

/** checkContainerStateTransition. Classic: the rule above, applied to container statuses, then to
 *  init container statuses. Current (v1.28+ form): the same for regular containers; for init
 *  containers each old status must sit at the index of its spec container ("found mismatch between
 *  pod spec and status"), sidecars are skipped, and the message says "init container". RestartPolicy
 *  Always allows everything in both. */
export function checkContainerStateTransition(oldStatus: PodStatus, newStatus: PodStatus, spec: PodSpec | undefined, gen: Generation, gates?: StatusFeatureGates): TransitionError | undefined {
  const policy = spec?.restartPolicy;
  if (policy === 'Always') return undefined;
  if (gen !== 'current') {
    return (
      checkList(oldStatus.containerStatuses, newStatus.containerStatuses, policy, 'container') ??
      checkList(oldStatus.initContainerStatuses, newStatus.initContainerStatuses, policy, 'container')
    );
  }
  const regular = checkList(oldStatus.containerStatuses, newStatus.containerStatuses, policy, 'container');
  if (regular) return regular;
  const olds = oldStatus.initContainerStatuses ?? [];
  for (let i = 0; i < olds.length; i++) {
    const o = olds[i];
    const ic = getContainerByIndex(spec?.initContainers, olds, i);
    if (!ic) return { container: o.name, message: `found mismatch between pod spec and status, container: ${o.name}` };
    if (isRestartableInitContainerUngated(ic, gen)) continue; // (no gate: v1.28+)
    const term = o.state?.terminated;
    if (!term) continue;
    if ((term.exitCode ?? 0) !== 0 && policy === 'OnFailure') continue;
    for (const n of newStatus.initContainerStatuses ?? []) {
      if (o.name === n.name && !n.state?.terminated) {
        return { container: n.name, message: `terminated init container ${n.name} attempted illegal transition to non-terminated state` };
      }
    }
  }
  return undefined;
}

/** updateLastTransitionTime: stamp the condition of that type with `now`, unless `oldStatus` has one
 *  with the same status value, whose lastTransitionTime is copied. No condition of that type: the
 *  status is returned as is. */
export function updateLastTransitionTime(status: PodStatus, oldStatus: PodStatus | undefined, type: string, now: string): PodStatus {
  const i = getPodConditionIndex(status.conditions, type);
  if (i < 0) return status;
  const cond = status.conditions![i];
  let ltt: string | undefined = now;
  const j = getPodConditionIndex(oldStatus?.conditions, type);
  if (j >= 0 && oldStatus!.conditions![j].status === cond.status) ltt = oldStatus!.conditions![j].lastTransitionTime;
  if (cond.lastTransitionTime === ltt) return status;
  const next = { ...cond };
  if (ltt === undefined) delete next.lastTransitionTime;
  else next.lastTransitionTime = ltt;
  const conditions = [...status.conditions!]; // (not slice(): V8's slice is slow on frozen arrays)
  conditions[i] = next;
  return { ...status, conditions };
}

/** updateLastTransitionTime for each of `types` in turn (updateStatusInternal's sequence of calls),
 *  with one copy of the conditions instead of one copy of the status per stamped condition (each
 *  call touches only the first condition of its own type). Returns the new conditions, or null
 *  when every call would have returned the status as it was. */
export function updateLastTransitionTimes(status: PodStatus, oldStatus: PodStatus | undefined, types: readonly string[], now: string): PodCondition[] | null {
  const conditions = status.conditions;
  if (!conditions) return null;
  let out: PodCondition[] | null = null;
  for (const type of types) {
    const i = getPodConditionIndex(conditions, type);
    if (i < 0) continue;
    const cond = conditions[i];
    let ltt: string | undefined = now;
    const j = getPodConditionIndex(oldStatus?.conditions, type);
    if (j >= 0 && oldStatus!.conditions![j].status === cond.status) ltt = oldStatus!.conditions![j].lastTransitionTime;
    if (cond.lastTransitionTime === ltt) continue;
    const next = { ...cond };
    if (ltt === undefined) delete next.lastTransitionTime;
    else next.lastTransitionTime = ltt;
    (out ??= [...conditions])[i] = next;
  }
  return out;
}
