// pkg/kubelet/pod_container_deletor.go: the container deletor cleanUpContainersInPod runs (every
// generation, v1.20…v1.31).
import type { KubeletState } from './kubelet-state.js';
import type { RuntimePodStatus } from './types.js';

/** podContainerDeletor.deleteContainersInPod with removeAll: every exited instance of the pod,
 *  in getContainersToDeleteInPod's order (newest attempt, then newest created, first), is removed. */
export function deleteContainersInPod(kl: KubeletState, podStatus: RuntimePodStatus): void {
  const candidates = podStatus.containers.filter((c) => c.state === 'exited').sort((a, b) => b.restartCount - a.restartCount || b.createdAtMs - a.createdAtMs);
  for (const c of candidates) kl.runtime.removeContainer(c.id);
}

/** minDeadContainerInPod: the dead instances the deletor keeps per container. */
export const MIN_DEAD_CONTAINER_IN_POD = 1;

/** getContainersToDeleteInPod: the exited instances with the name of the container that died
 *  (exitedContainerID), newest first, beyond the containersToKeep newest. */
export function getContainersToDeleteInPod(exitedContainerID: string, podStatus: RuntimePodStatus, containersToKeep: number): string[] {
  const died = podStatus.containers.find((c) => c.id === exitedContainerID);
  if (died === undefined) return [];
  const candidates = podStatus.containers.filter((c) => c.name === died.name && c.state === 'exited');
  if (candidates.length <= containersToKeep) return [];
  candidates.sort((a, b) => b.createdAtMs - a.createdAtMs || b.restartCount - a.restartCount);
  return candidates.slice(containersToKeep).map((c) => c.id);
}

/** podContainerDeletor.deleteContainersInPod without removeAll: all but the newest dead instance of
 *  the container that died are removed. */
export function deleteOldContainersInPod(kl: KubeletState, exitedContainerID: string, podStatus: RuntimePodStatus): void {
  for (const id of getContainersToDeleteInPod(exitedContainerID, podStatus, MIN_DEAD_CONTAINER_IN_POD)) kl.runtime.removeContainer(id);
}
