// Timeline actions on the kubelet's sources and read API. The file source (pkg/kubelet/config/file.go): a static pod's
// manifest leaves the manifest directory (the source sends REMOVE: the pod manager forgets the pod
// and HandlePodRemoves terminates it) or comes back (ADD: the same content hashes to the same UID,
// as the file source names static pods; BZ-12). Kept across kubelet restarts: a restarted kubelet
// reads the directory as it is. The read API: a client (a metrics agent, `kubectl get --raw
// /api/v1/nodes/N/proxy/pods`) reads the kubelet's pods, GetPods (BZ-14's trigger).
import { requireNode, splitKey, StepError, type StepContext, type StepHandlers } from './context.js';

type SourceAction = 'removeStaticPod' | 'addStaticPod' | 'scrapeKubeletPods';

function manifestOf(w: StepContext, key: string, atMs: number) {
  const sp = w.scenario.staticPods.find((p) => p.key === key);
  if (sp === undefined) throw new StepError(`pod ${key} is not a static pod of the scenario at ${atMs}ms`);
  return sp;
}

export const sourceSteps: StepHandlers<SourceAction> = {
  removeStaticPod(w, step) {
    manifestOf(w, step.pod, step.atMs);
    if (w.removedStaticPods.has(step.pod)) throw new StepError(`the manifest of ${step.pod} is already out of the manifest directory at ${step.atMs}ms`);
    w.removedStaticPods.add(step.pod);
    if (w.kubelet === null) return;
    const node = requireNode(w, step);
    const [ns, name] = splitKey(step.pod);
    const pod = w.kubelet.podManager.getPodByName(ns, name);
    if (pod === undefined) return;
    w.kubelet.podManager.removePod(pod);
    node.podRemoved(pod);
  },
  addStaticPod(w, step) {
    const sp = manifestOf(w, step.pod, step.atMs);
    if (!w.removedStaticPods.delete(step.pod)) throw new StepError(`the manifest of ${step.pod} is already in the manifest directory at ${step.atMs}ms`);
    if (w.kubelet === null) return;
    requireNode(w, step).addStaticPod(sp.pod);
  },
  scrapeKubeletPods(w, step) {
    requireNode(w, step).getPods();
    const every = step.everyMs;
    if (every === undefined) return;
    const end = step.atMs + (step.forMs ?? w.scenario.untilMs);
    // every `every` until `for` has passed: whichever kubelet incarnation is up serves it
    const tick = (): void => {
      w.kubelet?.node?.getPods();
      if (w.engine.nowMs + every <= end) w.engine.after(every, tick);
    };
    if (step.atMs + every <= end) w.engine.after(every, tick);
  },
};
