// pkg/kubelet/kuberuntime/kuberuntime_gc.go: the container garbage collector (evictContainers).
import type { UID } from '../../model/pod.js';
import { isPodDeletedClassic } from './kubelet-pods.js';
import type { KubeletState } from './kubelet-state.js';

/** containerGC.GarbageCollect, the part that changes what the kubelet sees: every exited container
 *  of a pod whose content goes (contentGoes: classic's IsPodDeleted — not in the pod manager;
 *  evicted; or deleted with no container running per its status — or v1.22+'s
 *  ShouldPodContentBeRemoved) is removed, oldest first, so that the next relist drops it from the
 *  cache — the classic PodResourcesAreReclaimed waits for that when the container deletor was not
 *  run (the container died before the kubelet saw the deletion); v1.22+, a deleted pod's last dead
 *  instances (the deletor keeps one while it terminates) go at the next pass. Not modelled:
 *  the per-container and node-wide limits on the dead instances of pods that still run
 *  (MaxPerPodContainer 1, MaxContainers), and sandbox GC; neither changes a status. */
export function garbageCollectContainers(kl: KubeletState): void {
  const units = new Map<UID, string[]>(); // evictUnits: the exited containers, oldest first
  for (const uid of kl.runtime.podUIDsUnordered()) {
    // (asked first: most pods keep their content, and the question costs no runtime status)
    if (!contentGoes(kl, uid)) continue;
    // evictableContainers: every instance that does not run (exited, or created and never started)
    const exited = kl.runtime.getPodStatus(uid).containers.filter((c) => c.state !== 'running');
    if (exited.length === 0) continue;
    units.set(uid, exited.sort((a, b) => a.createdAtMs - b.createdAtMs).map((c) => c.id)); // removeOldestN
  }
  // evictUnits is a Go map: a seeded order (one pod's shuffle draws nothing)
  const pods = [...units.keys()].sort();
  for (const uid of pods.length < 2 ? pods : kl.rng.shuffle(pods)) {
    for (const id of units.get(uid)!) kl.runtime.removeContainer(id);
  }
}

/** Whether a pod's dead containers all go: classic (v1.20) IsPodDeleted; v1.22+ the pod workers'
 *  ShouldPodContentBeRemoved (evicted, or deleted and terminated, or unknown to them once they have
 *  synced), and only once all config sources are ready — which housekeeping waits for too, so
 *  before the workers' first SyncKnownPods (podsSynced) nothing is removed. */
function contentGoes(kl: KubeletState, uid: UID): boolean {
  if (kl.gen === 'classic') return isPodDeletedClassic(kl, uid);
  return kl.workersCurrent!.podsSynced && kl.workersCurrent!.shouldPodContentBeRemoved(uid);
}
