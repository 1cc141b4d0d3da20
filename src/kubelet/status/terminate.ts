// The pure part of TerminatePod and its helpers (status_manager.go).
import type { ContainerStatus, LogLevel, Pod, PodStatus } from '../../model/index.js';
import { isStaticPod } from '../../model/pod.js';
import { getContainerByIndex, isRestartableInitContainerUngated } from './conditions.js';
import type { RevertedFixes } from '../../model/fixes.js';
import { UNKNOWN_TERMINATED_STATE, type Generation, type StatusFeatureGates } from './types.js';

/** hasPodInitialized (current, v1.28+): evidence in pod.Status (the argument pod, not the cache)
 *  that the pod got past its init containers. */
export function hasPodInitialized(pod: Pod, gen: Generation, gates?: StatusFeatureGates): boolean {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return true;
  for (const s of pod.status?.containerStatuses ?? []) {
    if (s.lastState?.terminated || !s.state?.waiting) return true;
  }
  const statuses = pod.status?.initContainerStatuses ?? [];
  const l = statuses.length;
  if (l > 0) {
    const c = getContainerByIndex(inits, statuses, l - 1);
    if (!c) return false; // "Mismatch between pod spec and status, likely programmer error"
    const st = statuses[l - 1];
    if (isRestartableInitContainerUngated(c, gen)) {
      if (st.state?.running && st.started === true) return true;
    } else {
      const last = st.lastState?.terminated;
      if (last && (last.exitCode ?? 0) === 0) return true;
      const cur = st.state?.terminated;
      if (cur && (cur.exitCode ?? 0) === 0) return true;
    }
  }
  return false;
}

/** initializedContainers: the prefix of `containers` up to and including the last one that is not
 *  waiting or has a previous termination; just the first one when all are waiting; [] when empty. */
export function initializedContainers(containers: readonly ContainerStatus[] | undefined): readonly ContainerStatus[] {
  const list = containers ?? [];
  for (let i = list.length - 1; i >= 0; i--) {
    if (!list[i].state?.waiting || list[i].lastState?.terminated) return list.slice(0, i + 1);
  }
  return list.length > 0 ? list.slice(0, 1) : [];
}

function unknownTerminatedState(cs: ContainerStatus): ContainerStatus {
  return { ...cs, state: UNKNOWN_TERMINATED_STATE };
}

/** revert #88440 (Ensure Kubelet always reports terminating pod container status): before it,
 *  TerminatePod wrote `Terminated{}`, exit 0 with no reason, for a container it could not account
 *  for (terminatePodExit0). */
const EXIT0_TERMINATED_STATE = Object.freeze({ terminated: Object.freeze({ exitCode: 0 }) }) as ContainerStatus['state'];
function exit0Terminated(cs: ContainerStatus): ContainerStatus {
  return { ...cs, state: EXIT0_TERMINATED_STATE };
}

/** What TerminatePod logs besides its update (level, upstream message). */
export interface TerminateNote {
  level: LogLevel;
  msg: string;
}

/** The status TerminatePod hands to updateStatusInternal, built from `base` (the cached status if
 *  any, else pod.Status). Classic: running or empty container states become terminated 137
 *  ContainerStatusUnknown, waiting ones are kept, the phase is untouched. Current: every
 *  non-terminated regular container once hasPodInitialized(pod), the non-terminated init containers
 *  within initializedContainers, and (non-static pods) a non-terminal phase becomes Failed. */
export function terminatePodStatus(pod: Pod, base: PodStatus, isCached: boolean, gen: Generation, gates?: StatusFeatureGates, reverted?: RevertedFixes): { status: PodStatus; notes: TerminateNote[] } {
  const notes: TerminateNote[] = [];
  const unknownTerminated = reverted?.has('terminatePodExit0') ? exit0Terminated : unknownTerminatedState;
  if (gen === 'classic') {
    const rewrite = (list: readonly ContainerStatus[] | undefined) =>
      list?.map((cs) => (cs.state?.terminated || cs.state?.waiting ? cs : unknownTerminated(cs)));
    const status: PodStatus = { ...base };
    if (base.containerStatuses) status.containerStatuses = rewrite(base.containerStatuses);
    if (base.initContainerStatuses) status.initContainerStatuses = rewrite(base.initContainerStatuses);
    return { status, notes };
  }

  const status: PodStatus = { ...base };
  if (hasPodInitialized(pod, gen, gates) && base.containerStatuses) {
    status.containerStatuses = base.containerStatuses.map((cs) => (cs.state?.terminated ? cs : unknownTerminated(cs)));
  }
  if (base.initContainerStatuses) {
    const n = initializedContainers(base.initContainerStatuses).length;
    status.initContainerStatuses = base.initContainerStatuses.map((cs, i) => (i < n && !cs.state?.terminated ? unknownTerminated(cs) : cs));
  }
  // (v1.27+: a non-terminal phase becomes Failed; v1.23's TerminatePod leaves the phase alone)
  if (gen === 'current' && !isStaticPod(pod)) {
    switch (status.phase) {
      case 'Succeeded':
      case 'Failed':
        break;
      case 'Pending':
      case 'Running':
        if (status.phase === 'Running' && isCached) {
          notes.push({ level: 'info', msg: 'Terminal running pod should have already been marked as failed, programmer error' });
        }
        notes.push({ level: 'V3', msg: 'Marking terminal pod as failed' });
        status.phase = 'Failed';
        break;
      default:
        notes.push({ level: 'error', msg: `Unknown phase, programmer error: unknown phase: ${status.phase ?? ''}` });
        status.phase = 'Failed';
    }
  }
  return { status, notes };
}
