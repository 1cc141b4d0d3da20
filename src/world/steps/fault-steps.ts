// Timeline actions that inject the runtime faults of the bug zoo (runtime: simulated) beyond
// forgetContainer and wipeRuntime (node-steps.ts): a StartContainer cut off after CreateContainer
// (the container stays created), a PLEG event discarded on its way to the sync loop, the
// container GC removing dead instances (also while the kubelet is down), a SIGKILL that
// leaves no exit record, and a container runc cannot signal for a while.
import type { UID } from '../../model/pod.js';
import { requireNode, splitKey, StepError, type StepContext, type StepHandlers } from './context.js';
import type { Runtime } from '../../kubelet/node/index.js';

type FaultAction = 'interruptStart' | 'dropPlegEvent' | 'gcContainers' | 'sigkillNoExit' | 'stopFails';

function requireRuntime(w: StepContext, action: string): Runtime {
  if (w.runtime === null) throw new StepError(`${action} needs runtime: simulated`);
  return w.runtime;
}

/** The UID of the pod the kubelet (or, while it is down, the apiserver) has under this key. */
function podUID(w: StepContext, key: string, atMs: number): UID {
  const [ns, name] = splitKey(key);
  const uid = (w.kubeletPod(key) ?? w.apiserver.peek(ns, name))?.metadata?.uid;
  if (uid === undefined) throw new StepError(`pod ${key} is known to neither the kubelet nor the apiserver at ${atMs}ms`);
  return uid;
}

export const faultSteps: StepHandlers<FaultAction> = {
  interruptStart(w, step) {
    requireRuntime(w, step.action).interruptNextStart(podUID(w, step.pod, step.atMs), step.container);
  },
  dropPlegEvent(w, step) {
    const node = requireNode(w, step);
    node.pleg.dropEvents(podUID(w, step.pod, step.atMs), step.count, step.container, step.event);
  },
  sigkillNoExit(w, step) {
    requireRuntime(w, step.action).armSigkillNoExit(podUID(w, step.pod, step.atMs), step.container);
  },
  stopFails(w, step) {
    requireRuntime(w, step.action).stopFaults.fail(podUID(w, step.pod, step.atMs), step.container, step.pod, step.forMs);
  },
  gcContainers(w, step) {
    const rt = requireRuntime(w, step.action);
    rt.gcContainers(step.pod === undefined ? undefined : podUID(w, step.pod, step.atMs), step.container);
  },
};
