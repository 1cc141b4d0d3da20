// pkg/kubelet/kuberuntime/kuberuntime_gc.go: the container garbage collector (evictContainers).
import type { UID } from '../../model/pod.js';
import { isPodDeletedClassic } from './kubelet-pods.js';
import type { KubeletState } from './kubelet-state.js';

/** containerGC.GarbageCollect, the part that changes what the kubelet sees: every exited container
 *  of a pod that IsPodDeleted says is gone (not in the pod manager; evicted; or deleted with no
 *  container running per its status) is removed, oldest first, so that the next relist drops it
 *  from the cache — the classic PodResourcesAreReclaimed waits for that when the container
 *  deletor was not run (the container died before the kubelet saw the deletion). Not modelled:
 *  the per-container and node-wide limits on the dead instances of pods that still run
 *  (MaxPerPodContainer 1, MaxContainers), and sandbox GC; neither changes a status. */
export function garbageCollectContainers(kl: KubeletState): void {
  const units = new Map<UID, string[]>(); // evictUnits: the exited containers, oldest first
  for (const uid of kl.runtime.podUIDsUnordered()) {
    // evictableContainers: every instance that does not run (exited, or created and never started)
    const exited = kl.runtime.getPodStatus(uid).containers.filter((c) => c.state !== 'running');
    if (exited.length === 0 || !isPodDeletedClassic(kl, uid)) continue;
    units.set(uid, exited.sort((a, b) => a.createdAtMs - b.createdAtMs).map((c) => c.id)); // removeOldestN
  }
  // evictUnits is a Go map: a seeded order (one pod's shuffle draws nothing)
  const pods = [...units.keys()].sort();
  for (const uid of pods.length < 2 ? pods : kl.rng.shuffle(pods)) {
    for (const id of units.get(uid)!) kl.runtime.removeContainer(id);
  }
}
