// pkg/kubelet/pod_container_deletor.go: the container deletor the classic cleanUpContainersInPod runs.
import type { KubeletState } from './kubelet-state.js';
import type { RuntimePodStatus } from './types.js';

/** podContainerDeletor.deleteContainersInPod with removeAll: every exited instance of the pod,
 *  in getContainersToDeleteInPod's order (newest attempt, then newest created, first), is removed. */
export function deleteContainersInPod(kl: KubeletState, podStatus: RuntimePodStatus): void {
  const candidates = podStatus.containers.filter((c) => c.state === 'exited').sort((a, b) => b.restartCount - a.restartCount || b.createdAtMs - a.createdAtMs);
  for (const c of candidates) kl.runtime.removeContainer(c.id);
}
