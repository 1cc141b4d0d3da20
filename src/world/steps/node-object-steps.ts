// Timeline actions on the Node objects (spec.nodeLifecycle): a user's `kubectl label nodes`, `kubectl taint nodes` (the
// taint eviction controller acts on a NoExecute one; `node.kubernetes.io/out-of-service` is the
// non-graceful node shutdown's) and a node's deletion (`kubectl delete node`, or the cloud node
// controller for a VM gone), after which the pod garbage collector force-deletes its pods. Each acts
// on the step's node (`node:`, default the default node), as kubectl does through the apiserver.
import type { Taint } from '../../model/node.js';
import { StepError, type StepContext, type StepHandlers } from './context.js';

type NodeObjectAction = 'taintNode' | 'untaintNode' | 'deleteNode' | 'labelNode';

function present(w: StepContext, action: string): string {
  if (w.apiserver.down) throw new StepError(`${action}: the apiserver is down`);
  if (w.apiserver.nodes.node(w.name) === undefined) throw new StepError(`${action}: nodes "${w.name}" not found`);
  return w.name;
}

export const nodeObjectSteps: StepHandlers<NodeObjectAction> = {
  taintNode(w, step) {
    const name = present(w, 'taintNode');
    const taint: Omit<Taint, 'timeAdded'> = { key: step.key, effect: step.effect, ...(step.value !== undefined ? { value: step.value } : {}) };
    if (w.apiserver.nodes.addTaint(name, taint, 'user') === undefined) throw new StepError(`taintNode: node ${name} already has taint(s) with same effect(s) and --overwrite is false`);
  },
  untaintNode(w, step) {
    const name = present(w, 'untaintNode');
    const nodes = w.apiserver.nodes;
    const effects = nodes.node(name)!.taints.filter((t) => t.key === step.key && (step.effect === undefined || t.effect === step.effect)).map((t) => t.effect);
    if (effects.length === 0) throw new StepError(`untaintNode: taint "${step.key}${step.effect ? `:${step.effect}` : ''}" not found on node ${name}`);
    for (const e of effects) nodes.removeTaint(name, step.key, e, 'user');
  },
  labelNode(w, step) {
    const name = present(w, 'labelNode');
    if (step.value === null && !Object.hasOwn(w.apiserver.nodes.node(name)!.labels, step.key)) throw new StepError(`labelNode: label "${step.key}" not found on node ${name}`);
    w.apiserver.nodes.setLabel(name, step.key, step.value, 'user');
  },
  deleteNode(w) {
    w.apiserver.nodes.deleteNode(present(w, 'deleteNode'), 'user');
  },
};
