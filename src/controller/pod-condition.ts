// pkg/api/v1/pod UpdatePodCondition, as the controllers use it on a pod they read from their
// informer (the taint eviction controller's and PodGC's DisruptionTarget): the condition with its
// transition time now, or the old one's when the status does not change, and whether it changed.
import type { Pod, PodCondition } from '../model/pod.js';

export function updatePodCondition(pod: Pod, c: PodCondition, now: string): { condition: PodCondition; changed: boolean } {
  const old = pod.status?.conditions?.find((x) => x.type === c.type);
  const condition = { ...c, lastTransitionTime: old !== undefined && old.status === c.status ? old.lastTransitionTime : now };
  const same = old !== undefined && old.status === condition.status && old.reason === condition.reason && old.message === condition.message && old.lastTransitionTime === condition.lastTransitionTime;
  return { condition, changed: !same };
}
