// Timeline actions on the network between the kubelet and the apiserver (and the apiserver's
// availability, which the kubelet sees only through it).
import type { StepHandlers } from './context.js';

type NetworkAction = 'restartApiserver' | 'partition' | 'repair' | 'fail' | 'latency';

export const networkSteps: StepHandlers<NetworkAction> = {
  restartApiserver(w, step) {
    w.network.restartApiserver(step.downForMs);
  },
  partition(w) {
    w.network.partition();
  },
  repair(w) {
    w.network.repair();
  },
  fail(w, step) {
    w.network.fail(step.verbs, step.code, { count: step.count, forMs: step.forMs, retryAfter: step.retryAfter });
  },
  latency(w, step) {
    w.network.setLatency(step.latency);
  },
};
