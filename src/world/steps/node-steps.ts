// Timeline actions on the simulated node (runtime: simulated): the container runtime and the
// probes, through the Node's public methods (exit, oom, setReady, setStarted).
import { requireKubeletPod, requireNode, type StepHandlers } from './context.js';

type NodeAction = 'exit' | 'oom' | 'ready' | 'started';

export const nodeSteps: StepHandlers<NodeAction> = {
  exit(w, step) {
    const node = requireNode(w, step);
    node.exit(requireKubeletPod(w, step, step.pod).metadata!.uid!, step.container, step.code, step.reason, step.message);
  },
  oom(w, step) {
    const node = requireNode(w, step);
    node.oom(requireKubeletPod(w, step, step.pod).metadata!.uid!, step.container);
  },
  ready(w, step) {
    const node = requireNode(w, step);
    node.setReady(requireKubeletPod(w, step, step.pod).metadata!.uid!, step.container, step.value);
  },
  started(w, step) {
    const node = requireNode(w, step);
    node.setStarted(requireKubeletPod(w, step, step.pod).metadata!.uid!, step.container, step.value);
  },
};
