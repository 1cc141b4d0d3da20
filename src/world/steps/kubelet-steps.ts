// Timeline actions on the kubelet process itself.
import type { StepHandlers } from './context.js';

export const kubeletSteps: StepHandlers<'restartKubelet'> = {
  /** The process dies (all in-memory state is lost) and comes back after downFor. */
  restartKubelet(w, step) {
    w.restartKubelet(step.downForMs);
  },
};
