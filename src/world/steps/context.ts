// What a timeline step's handler reads and calls of the world (the World satisfies it), the types
// of the step table, and the checks a handler makes before it acts. Declared below world.ts, so
// that the handlers never import the World and the World imports the table.
import type { ApiServer } from '../../apiserver/index.js';
import type { Engine } from '../../engine/index.js';
import type { Node, Runtime } from '../../kubelet/node/index.js';
import type { Pod } from '../../model/pod.js';
import type { VClock } from '../../model/time.js';
import type { Network } from '../../network/index.js';
import type { Scenario, ScenarioPod, Step } from '../../scenario/types.js';
import type { StaticDeletionSafety } from '../deletion-safety.js';
import type { KubeletIncarnation } from '../kubelet-lifecycle.js';

/** A step that cannot run as written at its instant (e.g. a node action with runtime none): the
 *  run records it and reports it as a failure. */
export class StepError extends Error {}

export interface StepContext {
  /** The node this step runs on (its name: the Node object's). */
  readonly name: string;
  readonly scenario: Scenario;
  readonly engine: Engine;
  readonly clock: VClock;
  readonly apiserver: ApiServer;
  readonly network: Network;
  readonly staticSafety: StaticDeletionSafety;
  /** The simulated container runtime (it outlives kubelet restarts), or null with runtime none. */
  readonly runtime: Runtime | null;
  /** The kubelet incarnation now, or null while it is down. */
  readonly kubelet: KubeletIncarnation | null;
  /** Pods the kubelet holds that the apiserver never had (`only: kubelet`), by key. */
  readonly kubeletOnlyPods: Map<string, Pod>;
  /** Static pods whose manifest is out of the kubelet's manifest directory (removeStaticPod), by key. */
  readonly removedStaticPods: Set<string>;
  /** The kubelet's copy of a pod, by key "ns/name". */
  kubeletPod(key: string): Pod | undefined;
  createInApiserver(sp: ScenarioPod, actor: 'user' | 'kubelet'): Pod | undefined;
  /** Stop the kubelet and start a new incarnation after downForMs (0: at once). */
  restartKubelet(downForMs: number): void;
  /** containerd is down for downForMs (restartRuntime); needs runtime: simulated. */
  restartRuntime(downForMs: number): void;
  /** The runtime's CNI plugin is not ready for downForMs (networkPluginDown). */
  networkPluginDown(downForMs: number): void;
  /** The node powers off (the end of a nodeShutdown): the kubelet and the runtime stop for good. */
  powerOff(): void;
}

export type StepName = Step['action'];
export type StepOf<A extends StepName> = Extract<Step, { action: A }>;
export type StepHandler<A extends StepName> = (w: StepContext, step: StepOf<A>) => void;
/** Handlers for some actions, one per action. */
export type StepHandlers<A extends StepName> = { readonly [K in A]: StepHandler<K> };

export function requireKubelet(w: StepContext, step: Step): KubeletIncarnation {
  if (w.kubelet === null) throw new StepError(`the kubelet is down at ${step.atMs}ms (restartKubelet downFor): ${step.action} cannot run`);
  return w.kubelet;
}

export function requireNode(w: StepContext, step: Step): Node {
  const kl = requireKubelet(w, step);
  if (kl.node === null) throw new StepError(`${step.action} needs runtime: simulated`);
  return kl.node;
}

export function requireKubeletPod(w: StepContext, step: Step, key: string): Pod {
  const pod = w.kubeletPod(key);
  if (pod === undefined) throw new StepError(`pod ${key} is not known to the kubelet at ${step.atMs}ms`);
  return pod;
}

/** "ns/name" → [ns, name]. */
export function splitKey(key: string): [string, string] {
  const [ns, name] = key.split('/');
  return [ns, name];
}
