// Timeline actions on the apiserver: what users and controllers do to the stored pods.
import { produce } from 'immer';
import { formatRfc3339 } from '../../model/time.js';
import type { Pod } from '../../model/pod.js';
import { splitKey, type StepContext, type StepHandlers } from './context.js';

type ApiserverAction = 'create' | 'delete' | 'recreate' | 'externalPatch' | 'createMirror' | 'deleteMirror' | 'markDeleted';

function scenarioPod(w: StepContext, key: string) {
  return w.scenario.pods.find((p) => p.key === key && p.only !== 'kubelet')!;
}

export const apiserverSteps: StepHandlers<ApiserverAction> = {
  create(w, step) {
    w.createInApiserver(scenarioPod(w, step.pod), 'user');
  },
  delete(w, step) {
    const [ns, name] = splitKey(step.pod);
    w.apiserver.delete(ns, name, { gracePeriodSeconds: step.gracePeriodSeconds }, 'user');
  },
  recreate(w, step) {
    const [ns, name] = splitKey(step.pod);
    w.apiserver.delete(ns, name, { gracePeriodSeconds: 0 }, 'user');
    const fresh = produce(scenarioPod(w, step.pod).pod, (d) => {
      delete d.metadata!.uid;
    });
    w.apiserver.create(fresh, 'user');
  },
  externalPatch(w, step) {
    const [ns, name] = splitKey(step.pod);
    w.apiserver.externalPatch(ns, name, step.status, 'controller');
  },
  createMirror(w, step) {
    const sp = w.scenario.staticPods.find((p) => p.key === step.pod)!;
    const r = w.apiserver.create(mirrorOf(sp.pod), 'kubelet');
    if (r.ok && w.kubelet) w.kubelet.podManager.addPod(r.value);
  },
  deleteMirror(w, step) {
    const [ns, name] = splitKey(step.pod);
    w.apiserver.delete(ns, name, {}, 'user');
  },
  /** deletionTimestamp on the apiserver object and on the kubelet's copy. */
  markDeleted(w, step) {
    const [ns, name] = splitKey(step.pod);
    const now = formatRfc3339(w.clock.epochMs + w.engine.nowMs);
    const updated = w.apiserver.markDeleted(ns, name, now);
    const kl = w.kubelet;
    if (kl === null) return;
    const kp = w.kubeletPod(step.pod);
    if (kp === undefined) return;
    const withTs = produce(kp, (d) => {
      d.metadata!.deletionTimestamp = now;
      d.metadata!.deletionGracePeriodSeconds ??= 0;
    });
    if (w.kubeletOnlyPods.has(step.pod)) w.kubeletOnlyPods.set(step.pod, withTs);
    kl.podManager.updatePod(updated?.metadata?.uid === withTs.metadata?.uid && updated ? updated : withTs);
    kl.node?.podUpdated(withTs);
  },
};

/** The mirror pod the kubelet would create for a static pod. */
export function mirrorOf(staticPod: Pod): Pod {
  return produce(staticPod, (d) => {
    delete d.metadata!.uid;
    const hash = d.metadata!.annotations?.['kubernetes.io/config.hash'] ?? '';
    d.metadata!.annotations = { ...d.metadata!.annotations, 'kubernetes.io/config.mirror': hash };
    d.status = { phase: 'Pending' };
  });
}
