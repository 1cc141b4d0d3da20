// Timeline actions on the status manager's own API (as the kubelet's pod workers, prober and
// housekeeping call it), and on the deletion-safety provider it asks.
import { isStaticPod, type Pod, type UID } from '../../model/pod.js';
import type { Step } from '../../scenario/types.js';
import { requireKubelet, requireKubeletPod, splitKey, StepError, type StepContext, type StepHandlers } from './context.js';

type StatusAction =
  | 'setPodStatus'
  | 'setContainerReadiness'
  | 'setContainerStartup'
  | 'terminatePod'
  | 'removeOrphanedStatuses'
  | 'syncBatch'
  | 'setDeletionSafety'
  | 'setApiStatusVersion';

/** The ID of a pod's container in the cached status: upstream looks the container up by ID; a
 *  container without one is matched by its name. */
function containerID(w: StepContext, step: Step, pod: Pod, container: string): string {
  const st = requireKubelet(w, step).statusManager.getPodStatus(pod.metadata!.uid!);
  const all = [...(st?.containerStatuses ?? []), ...(st?.initContainerStatuses ?? [])];
  const cs = all.find((c) => c.name === container);
  return cs?.containerID ?? `containerd://${container}`;
}

export const statusSteps: StepHandlers<StatusAction> = {
  setPodStatus(w, step) {
    const kl = requireKubelet(w, step);
    kl.statusManager.setPodStatus(requireKubeletPod(w, step, step.pod), step.status);
  },
  setContainerReadiness(w, step) {
    const kl = requireKubelet(w, step);
    const pod = requireKubeletPod(w, step, step.pod);
    kl.statusManager.setContainerReadiness(pod.metadata!.uid!, containerID(w, step, pod, step.container), step.ready);
  },
  setContainerStartup(w, step) {
    const kl = requireKubelet(w, step);
    const pod = requireKubeletPod(w, step, step.pod);
    kl.statusManager.setContainerStartup(pod.metadata!.uid!, containerID(w, step, pod, step.container), step.started);
  },
  terminatePod(w, step) {
    const kl = requireKubelet(w, step);
    kl.statusManager.terminatePod(requireKubeletPod(w, step, step.pod));
  },
  /** The kept pods' UIDs, and their mirror pods' UIDs. */
  removeOrphanedStatuses(w, step) {
    const kl = requireKubelet(w, step);
    const keep = new Set<UID>();
    for (const key of step.keep) {
      const p = w.kubeletPod(key);
      if (p?.metadata?.uid) keep.add(p.metadata.uid);
      const [ns, name] = splitKey(key);
      const m = kl.podManager.getMirrorPods().find((x) => x.metadata?.name === name && x.metadata?.namespace === ns);
      if (m?.metadata?.uid) keep.add(m.metadata.uid);
    }
    kl.statusManager.removeOrphanedStatuses(keep);
  },
  syncBatch(w, step) {
    requireKubelet(w, step).statusManager.triggerBatch(step.all);
  },
  setDeletionSafety(w, step) {
    const { podResourcesReclaimed, podCouldHaveRunningContainers } = step;
    const uid = step.pod !== undefined ? w.kubeletPod(step.pod)?.metadata?.uid : undefined;
    w.staticSafety.set({ podResourcesReclaimed, podCouldHaveRunningContainers }, uid);
  },
  /** A static pod's versions are kept under its mirror pod's UID. */
  setApiStatusVersion(w, step) {
    const kl = requireKubelet(w, step);
    const kp = w.kubeletPod(step.pod);
    let uid = kp?.metadata?.uid;
    if (kp && isStaticPod(kp)) uid = kl.podManager.getMirrorPodByPod(kp)?.metadata?.uid ?? uid;
    if (uid === undefined) throw new StepError(`pod ${step.pod} is not known to the kubelet`);
    kl.statusManager.setApiStatusVersion(uid, step.version);
  },
};
