// pkg/kubelet/kubelet_getters.go GetPods (v1.17+; the v1.15/v1.16 form behind a fix switch): the
// pods the kubelet's read API serves (/pods; the summary API's pod list), from the pod manager.
import { produce } from 'immer';
import { isStaticPod, type Pod } from '../../model/pod.js';
import type { KubeletState } from './kubelet-state.js';

/** GetPods: the pod manager's pods. "A kubelet running without apiserver requires an additional
 *  update of the static pod status. See #57106": a static pod's entry takes the status manager's
 *  status (#84951, v1.17; picks #86189, #86191, #86195). revert (getPodsOverwritesStatus): #77661
 *  (v1.15) did it for every pod, so the pod manager's copy of an apiserver pod — which
 *  needsReconcile compares with the cache — says whatever the cache says, and a status another
 *  writer put in the apiserver (the node controller's Ready=False) is never reconciled (BZ-14).
 *  Upstream assigns p.Status on the pod manager's own objects; here the entry is replaced by a copy
 *  with that status, which is what every reader of the pod manager then sees. */
export function getPods(kl: KubeletState): Pod[] {
  const pods = kl.pm.getPods();
  const all = kl.config.revertFixes?.includes('getPodsOverwritesStatus') ?? false;
  return pods.map((p) => {
    if (!all && !isStaticPod(p)) return p;
    const status = kl.sm.getPodStatus(p.metadata?.uid ?? '');
    if (status === undefined) return p;
    kl.log('V2', 'status for pod updated', p.metadata?.name);
    const updated = produce(p, (d) => void (d.status = status as NonNullable<Pod['status']>));
    kl.pm.updatePod(updated);
    return updated;
  });
}
