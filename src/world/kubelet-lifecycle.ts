// The kubelet's lifecycle in the world: one incarnation of the kubelet process (pod manager,
// status manager and, with `runtime: simulated`, the node), started after the informer's initial
// list, stopped by a restart. The world keeps what outlives an incarnation (the runtime, the
// apiserver, the network); everything here is lost with the process.
import type { Engine, Process } from '../engine/index.js';
import type { ApiServer } from '../apiserver/index.js';
import { NetworkClient, type Network } from '../network/index.js';
import type { VClock } from '../model/time.js';
import { isMirrorPod, podKey, type Pod } from '../model/pod.js';
import type { PodDeletionSafetyProvider } from '../model/client.js';
import type { KubeletConfig, Scenario, ScenarioPod, Variant } from '../scenario/types.js';
import { PodManager } from '../kubelet/pod-manager.js';
import { StatusManager } from '../kubelet/status/status-manager.js';
import { Node, type Runtime } from '../kubelet/node/index.js';
import type { StaticDeletionSafety } from './deletion-safety.js';
import { startHeartbeats } from './node-lifecycle.js';
import type { Tracer } from '../model/trace.js';

/** One incarnation of the kubelet process: everything it holds in memory. */
export interface KubeletIncarnation {
  n: number;
  group: string;
  podManager: PodManager;
  statusManager: StatusManager;
  node: Node | null;
  safety: PodDeletionSafetyProvider;
  /** The node lifecycle's heartbeat processes (spec.nodeLifecycle), stopped with the kubelet. */
  heartbeats: Process[];
}

/** What an incarnation is built from (the World satisfies it). */
export interface KubeletHost {
  readonly scenario: Scenario;
  readonly engine: Engine;
  readonly clock: VClock;
  readonly tracer: Tracer;
  /** Prefix of the node's kubelet groups (`<node>/` with spec.nodes, '' with one node). */
  readonly groupPrefix?: string;
  readonly apiserver: ApiServer;
  readonly network: Network;
  readonly variant: Variant;
  readonly config: KubeletConfig;
  readonly runtime: Runtime | null;
  readonly staticSafety: StaticDeletionSafety;
  /** Keys whose apiserver objects live on another node: the kubelet never sees them. */
  readonly hiddenKeys: ReadonlySet<string>;
  /** The last copy of each (non-mirror) pod the kubelet was given. */
  readonly lastKnown: Map<string, Pod>;
  /** Static pods whose manifest is out of the manifest directory (removeStaticPod), by key. */
  readonly removedStaticPods: ReadonlySet<string>;
  behaviourOf(pod: Pod): ScenarioPod['containers'];
}

/** Start incarnation n: a fresh pod manager (listed from the apiserver), a fresh status manager,
 *  and the node processes. `onCreated` receives the incarnation before anything of it runs. */
export function startIncarnation(h: KubeletHost, n: number, onCreated: (kl: KubeletIncarnation) => void): KubeletIncarnation {
  const group = `${h.groupPrefix ?? ''}kubelet-${n}`;
  const k = h.config;
  const podManager = new PodManager();
  const user = `system:node:${k.nodeName}`; // the kubelet's identity: flow control's flow
  const client = new NetworkClient(h.network, group, { user });
  const incarnation: KubeletIncarnation = { n, group, podManager, statusManager: null!, node: null, safety: h.staticSafety, heartbeats: [] };
  const statusManager = new StatusManager({
    engine: h.engine,
    clock: h.clock,
    client,
    podManager,
    deletionSafety: { podResourcesAreReclaimed: (p, s) => incarnation.safety.podResourcesAreReclaimed(p, s), podCouldHaveRunningContainers: (p) => incarnation.safety.podCouldHaveRunningContainers(p) },
    tracer: h.tracer,
    config: { variant: h.variant, syncPeriodMs: k.syncPeriodMs, statusChannelCapacity: k.statusChannelCapacity, featureGates: k.featureGates, revertFixes: new Set(k.revertFixes) },
    group,
    rng: h.engine.rng.fork(`${group}/status`),
  });
  incarnation.statusManager = statusManager;
  onCreated(incarnation);
  // The informer's initial list.
  // The informer's list: the field selector spec.nodeName=<node> (the apiserver's index by node).
  for (const pod of h.apiserver.listOnNode(k.nodeName)) {
    if (h.hiddenKeys.has(podKey(pod))) continue;
    podManager.addPod(pod);
    if (!isMirrorPod(pod)) h.lastKnown.set(podKey(pod), pod);
  }
  if (h.runtime !== null) {
    const node = new Node({
      engine: h.engine,
      clock: h.clock,
      rng: h.engine.rng.fork(`${group}/node`),
      tracer: h.tracer,
      statusManager,
      podManager,
      client,
      eventClient: k.events && !k.events.sharedClient ? new NetworkClient(h.network, group, { qps: k.events.eventRecordQPS, burst: k.events.eventBurst, user }) : client,
      config: k,
      runtime: h.runtime,
      // (the kubelet's node informer: read from the store, partition or not)
      nodeTaints: () => h.apiserver.nodes.node(k.nodeName)?.taints ?? [],
      nodeLabels: () => h.apiserver.nodes.node(k.nodeName)?.labels,
      behaviour: (pod: Pod) => h.behaviourOf(pod),
      group,
    });
    incarnation.node = node;
    incarnation.safety = node.deletionSafety;
  }
  h.tracer.emit({ type: 'kubelet.start', actor: 'kubelet', incarnation: n, variant: h.variant });
  statusManager.start();
  if (h.scenario.nodeLifecycle) incarnation.heartbeats = startHeartbeats(h, h.scenario.nodeLifecycle, group, incarnation.node);
  if (incarnation.node) {
    incarnation.node.start();
    // HandlePodAdditions of the informer's first list: sorted by creation time (PodsByCreationTime;
    // its ties keep the pod manager's UID order)
    const created = (p: Pod) => p.metadata?.creationTimestamp ?? '';
    for (const pod of podManager.getPods().sort((a, b) => (created(a) < created(b) ? -1 : created(a) > created(b) ? 1 : 0))) incarnation.node.podAdded(pod);
    for (const sp of h.scenario.staticPods) if (!h.removedStaticPods.has(sp.key)) incarnation.node.addStaticPod(sp.pod);
  } else {
    for (const sp of h.scenario.staticPods) if (!h.removedStaticPods.has(sp.key)) podManager.addPod(sp.pod);
  }
  return incarnation;
}

/** Stop an incarnation: its processes end and its in-flight requests are dropped. */
export function stopIncarnation(h: KubeletHost, kl: KubeletIncarnation): void {
  kl.node?.stop();
  kl.statusManager.stop();
  for (const p of kl.heartbeats) h.engine.kill(p);
  h.network.killGroup(kl.group);
  h.tracer.emit({ type: 'kubelet.stop', actor: 'kubelet', incarnation: kl.n });
}
