// Pod-condition helpers: which conditions the kubelet owns (pkg/kubelet/types/pod_status.go) and
// the small list operations of pkg/api/v1/pod and pkg/util/pod.
import type { Container, ContainerStatus, PodCondition, PodStatus } from '../../model/pod.js';
import {
  ContainersReady,
  DisruptionTarget,
  PodInitialized,
  PodReady,
  PodReadyToStartContainers,
  PodScheduled,
  gateEnabled,
  type Generation,
  type StatusFeatureGates,
} from './types.js';

const OWNED = new Set<string>([PodScheduled, PodReady, PodInitialized, ContainersReady]);

/** kubetypes.PodConditionByKubelet: the conditions the kubelet owns. Classic: exactly the four;
 *  current: plus PodReadyToStartContainers when its gate is on. */
export function podConditionByKubelet(type: string, gen: Generation, gates?: StatusFeatureGates): boolean {
  if (OWNED.has(type)) return true;
  return gen === 'current' && type === PodReadyToStartContainers && gateEnabled(gen, gates, 'PodReadyToStartContainersCondition');
}

/** kubetypes.PodConditionSharedByKubelet: DisruptionTarget, current generation, gate on. */
export function podConditionSharedByKubelet(type: string, gen: Generation, gates?: StatusFeatureGates): boolean {
  return gen === 'current' && type === DisruptionTarget && gateEnabled(gen, gates, 'PodDisruptionConditions');
}

/** podutil.GetPodConditionFromList: index of the first condition of that type, or -1. */
export function getPodConditionIndex(conditions: readonly PodCondition[] | undefined, type: string): number {
  if (!conditions) return -1;
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === type) return i;
  return -1;
}

/** podutil.GetPodCondition */
export function getPodCondition(status: PodStatus | undefined, type: string): PodCondition | undefined {
  const c = status?.conditions;
  const i = getPodConditionIndex(c, type);
  return i < 0 ? undefined : c![i];
}

/** podutil.IsPodReadyConditionTrue / IsContainersReadyConditionTrue */
export function isConditionTrue(status: PodStatus, type: string): boolean {
  return getPodCondition(status, type)?.status === 'True';
}

/** podutil.UpdatePodCondition: replace the condition of that type (keeping the old
 *  lastTransitionTime when the status value is unchanged, else stamping now) or append it (stamped
 *  now). Returns the new condition list. */
export function updatePodCondition(conditions: readonly PodCondition[] | undefined, condition: PodCondition, now: string): PodCondition[] {
  const list = conditions ? [...conditions] : []; // (not slice(): V8's slice is slow on frozen arrays)
  const i = getPodConditionIndex(list, condition.type);
  if (i < 0) {
    list.push({ ...condition, lastTransitionTime: now });
    return list;
  }
  const old = list[i];
  list[i] = { ...condition, lastTransitionTime: condition.status === old.status ? old.lastTransitionTime : now };
  if (list[i].lastTransitionTime === undefined) delete list[i].lastTransitionTime;
  return list;
}

/** statusutil.ReplaceOrAppendPodCondition */
export function replaceOrAppendPodCondition(conditions: readonly PodCondition[], condition: PodCondition): PodCondition[] {
  const list = [...conditions];
  const i = getPodConditionIndex(list, condition.type);
  if (i >= 0) list[i] = condition;
  else list.push(condition);
  return list;
}

/** podutil.GetContainerStatus: the first status of that name. */
export function getContainerStatus(statuses: readonly ContainerStatus[] | undefined, name: string): ContainerStatus | undefined {
  if (!statuses) return undefined;
  for (const s of statuses) if (s.name === name) return s;
  return undefined;
}

/** podutil.IsRestartableInitContainer (v1.28 pkg/kubelet/types/pod_update.go, v1.29+
 *  pkg/api/v1/pod/util.go): an init container with restartPolicy Always — and nothing else: upstream
 *  checks no feature gate here. This is what the status manager and generate.go decide by
 *  (checkContainerStateTransition, hasPodInitialized, GenerateContainersReadyCondition,
 *  GeneratePodInitializedCondition). The SidecarContainers gate acts elsewhere: the apiserver drops
 *  the field at create while its gate is off (pkg/api/pod/util.go dropDisabledFields), and the
 *  kubelet's runtime manager starts init containers the old way (kuberuntime SyncPod). Classic
 *  (v1.20) has no container restartPolicy at all: never. */
export function isRestartableInitContainerUngated(c: Container, gen: Generation): boolean {
  return gen === 'current' && c.restartPolicy === 'Always';
}

/** The node's sidecar test: isRestartableInitContainerUngated with the kubelet's SidecarContainers
 *  gate on (kuberuntime's gated init-container path; not the status manager's). */
export function isRestartableInitContainer(c: Container, gen: Generation, gates?: StatusFeatureGates): boolean {
  return isRestartableInitContainerUngated(c, gen) && gateEnabled(gen, gates, 'SidecarContainers');
}

/** kubeutil.GetContainerByIndex: the spec container at idx when the status at idx has its name. */
export function getContainerByIndex(containers: readonly Container[] | undefined, statuses: readonly ContainerStatus[] | undefined, idx: number): Container | undefined {
  if (!containers || !statuses || idx < 0 || idx >= containers.length || idx >= statuses.length) return undefined;
  return statuses[idx].name === containers[idx].name ? containers[idx] : undefined;
}
