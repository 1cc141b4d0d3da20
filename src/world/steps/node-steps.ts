// Timeline actions on the simulated node (runtime: simulated): the container runtime and the
// probes, through the Node's public methods (exit, oom, setReady, setStarted, setLive), and the
// runtime faults of the bug zoo, on the runtime itself (it outlives the kubelet: they run while it is down).
import type { Runtime } from '../../kubelet/node/index.js';
import { requireKubeletPod, requireNode, splitKey, StepError, type StepContext, type StepHandlers } from './context.js';

type NodeAction = 'exit' | 'oom' | 'ready' | 'started' | 'live' | 'forgetContainer' | 'wipeRuntime' | 'restartRuntime' | 'networkPluginDown';

function requireRuntime(w: StepContext, action: string): Runtime {
  if (w.runtime === null) throw new StepError(`${action} needs runtime: simulated`);
  return w.runtime;
}

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
  live(w, step) {
    const node = requireNode(w, step);
    node.setLive(requireKubeletPod(w, step, step.pod).metadata!.uid!, step.container, step.value);
  },
  forgetContainer(w, step) {
    const rt = requireRuntime(w, step.action);
    const [ns, name] = splitKey(step.pod);
    const uid = (w.kubeletPod(step.pod) ?? w.apiserver.peek(ns, name))?.metadata?.uid;
    if (uid === undefined || !rt.forgetContainer(uid, step.container)) throw new StepError(`the runtime has no container ${step.container} of pod ${step.pod} at ${step.atMs}ms`);
  },
  wipeRuntime(w, step) {
    requireRuntime(w, step.action).wipe();
  },
  restartRuntime(w, step) {
    requireRuntime(w, step.action);
    w.restartRuntime(step.downForMs);
  },
  networkPluginDown(w, step) {
    requireRuntime(w, step.action);
    w.networkPluginDown(step.downForMs);
  },
};
