// Timeline actions on the kubelet process itself and its own actors: a restart, the eviction
// manager's eviction of a pod (kubelet/node/eviction.ts) and the node shutdown manager's graceful
// shutdown with the power-off at its end (kubelet/node/nodeshutdown.ts).
import { requireKubeletPod, requireNode, StepError, type StepHandlers } from './context.js';

export const kubeletSteps: StepHandlers<'restartKubelet' | 'evict' | 'nodeShutdown'> = {
  /** The process dies (all in-memory state is lost) and comes back after downFor. */
  restartKubelet(w, step) {
    w.restartKubelet(step.downForMs);
  },
  evict(w, step) {
    const node = requireNode(w, step);
    if (!node.evict(requireKubeletPod(w, step, step.pod), step)) throw new StepError(`the eviction manager does not evict the critical pod ${step.pod} at ${step.atMs}ms`);
  },
  nodeShutdown(w, step) {
    requireNode(w, step).shutdown(step, () => w.powerOff());
  },
};
