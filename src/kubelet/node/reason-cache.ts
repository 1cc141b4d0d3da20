// pkg/kubelet/reason_cache.go: why the last start of each container failed (the kubelet's reasonCache).
import type { UID } from '../../model/pod.js';
import type { KubeletState } from './kubelet-state.js';
import type { StartResult } from './kuberuntime-manager.js';

/** reasonCache.Update: a failed start is remembered, a successful one forgotten. (An entry equal
 *  to the one kept is not replaced; every change bumps the pod's reasonVersions.) */
export function updateReasonCache(kl: KubeletState, uid: UID, results: readonly StartResult[]): void {
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    let m = kl.reasonCache.get(uid);
    if (r.error !== undefined) {
      if (m === undefined) kl.reasonCache.set(uid, (m = new Map()));
      const message = r.message ?? '';
      const cur = m.get(r.name);
      if (cur !== undefined && cur.reason === r.error && cur.message === message) continue;
      m.set(r.name, { reason: r.error, message });
      kl.reasonVersions.set(uid, (kl.reasonVersions.get(uid) ?? 0) + 1);
    } else if (m?.delete(r.name)) {
      kl.reasonVersions.set(uid, (kl.reasonVersions.get(uid) ?? 0) + 1);
    }
  }
}
