// Pod types (from kubernetes-types, no runtime) and the small helpers every layer shares.
import type { Pod, PodStatus, PodCondition, ContainerStatus, ContainerState, PodSpec, Container } from 'kubernetes-types/core/v1.js';

export type { Pod, PodStatus, PodCondition, ContainerStatus, ContainerState, PodSpec, Container };
export type UID = string;

export const ANNOTATION_CONFIG_SOURCE = 'kubernetes.io/config.source';
export const ANNOTATION_CONFIG_MIRROR = 'kubernetes.io/config.mirror';
export const ANNOTATION_CONFIG_HASH = 'kubernetes.io/config.hash';

/** "namespace/name": how the trace and the scenario name a pod. */
export function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
}

/** Upstream's kubecontainer.GetPodFullName: "name_namespace". */
export function podFullName(pod: Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}`;
}

export function podUID(pod: Pod): UID {
  return pod.metadata?.uid ?? '';
}

/** kubetypes.IsStaticPod: config.source annotation present and not "api". */
export function isStaticPod(pod: Pod): boolean {
  const src = pod.metadata?.annotations?.[ANNOTATION_CONFIG_SOURCE];
  return src !== undefined && src !== 'api';
}

/** kubetypes.IsMirrorPod: has the config.mirror annotation. */
export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata?.annotations?.[ANNOTATION_CONFIG_MIRROR] !== undefined;
}

export function isPodPhaseTerminal(phase: string | undefined): boolean {
  return phase === 'Succeeded' || phase === 'Failed';
}

/** "name" → default/name; "ns/name" stays. */
export function normalizePodRef(ref: string): string {
  return ref.includes('/') ? ref : `default/${ref}`;
}
