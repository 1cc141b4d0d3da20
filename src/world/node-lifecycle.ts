// The node lifecycle in the world (spec.nodeLifecycle): the kubelets' nodes are registered Ready
// before the kubelets start, the cluster's other (healthy, simulated-free) nodes beside them, and the node lifecycle
// controller and the pod garbage collector (PodGC) run in the control plane; each kubelet incarnation runs its heartbeats (the Lease
// controller and the node status loop) over the network through a heartbeat client of its own.
import { Channel, type Engine, type Process } from '../engine/index.js';
import type { ApiServer } from '../apiserver/index.js';
import { NodeLifecycleController } from '../controller/nodelifecycle/node-lifecycle-controller.js';
import { LeaderElection } from '../controller/leader-election.js';
import { PodGC } from '../controller/podgc/gc-controller.js';
import { leaseController } from '../kubelet/nodelease/controller.js';
import { kubeletReady, nodeStatusLoop, syncNodeStatus, type NodeStatusOptions } from '../kubelet/node-status.js';
import type { Node } from '../kubelet/node/index.js';
import { NetworkClient, type Network } from '../network/index.js';
import type { VClock } from '../model/time.js';
import type { Tracer } from '../model/trace.js';
import type { KubeletConfig, NodeLifecycleConfig } from '../scenario/types.js';

export interface NodeLifecycleHost {
  readonly engine: Engine;
  readonly clock: VClock;
  readonly tracer: Tracer;
  readonly apiserver: ApiServer;
  readonly network: Network;
  readonly config: KubeletConfig;
}

/** Register the nodes (every node of the scenario, the default node first, each with its labels,
 *  by name, and so in its zone) and start the controller (before the first kubelet starts); it
 *  watches every node's Lease. It runs in kube-controller-manager's leader, which an apiserver
 *  outage longer than the renew deadline replaces by a new process (leader-election.ts). */
export function setupNodeLifecycle(sites: readonly NodeLifecycleHost[], nl: NodeLifecycleConfig, tracer: Tracer, labels: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map()): LeaderElection {
  const h = sites[0];
  const now = h.clock.now();
  for (const site of sites) site.apiserver.nodes.register(site.config.nodeName, kubeletReady(now, undefined), labels.get(site.config.nodeName));
  const healthyNodes = Array.from({ length: nl.healthyNodes }, (_, i) => `healthy-node-${i}`);
  const mapOrder = h.engine.rng.fork('kube-controller-manager/node-lifecycle');
  const podGCOrder = h.engine.rng.fork('kube-controller-manager/podgc');
  const controller = () =>
    new NodeLifecycleController({
      engine: h.engine,
      clock: h.clock,
      apiserver: h.apiserver,
      tracer,
      nodeMonitorPeriodMs: nl.nodeMonitorPeriodMs,
      nodeMonitorGracePeriodMs: nl.nodeMonitorGracePeriodMs,
      healthyNodes,
      evictionRates: nl, // (spec.nodeLifecycle holds the four rates)
      disruptionConditions: h.config.featureGates.PodDisruptionConditions,
      rng: mapOrder,
    });
  const election = new LeaderElection({
    engine: h.engine,
    rng: h.engine.rng.fork('kube-controller-manager/leader-election'),
    tracer,
    apiserverDown: () => h.apiserver.down,
    run: (restarted) => {
      const c = controller();
      c.start(restarted);
      const gc = new PodGC({
        engine: h.engine,
        clock: h.clock,
        apiserver: h.apiserver,
        tracer,
        rng: podGCOrder,
        current: h.config.statusManager === 'current',
        transitional: h.config.statusManager === 'transitional',
        disruptionConditions: h.config.featureGates.PodDisruptionConditions,
        terminatedPodThreshold: nl.terminatedPodGCThreshold,
      });
      gc.start();
      return { stop: () => (c.stop(), gc.stop()) };
    },
  });
  h.apiserver.onAvailability((down) => election.availability(down));
  election.start();
  return election;
}

/** The heartbeats of one kubelet incarnation (killed with its group). With a simulated node, its
 *  runtime's health and its shutdown manager's state are the Ready setter's errors, and its own syncNodeStatus call
 *  (v1.21+) runs in a process of the incarnation, added to the list it returns. */
export function startHeartbeats(h: NodeLifecycleHost, nl: NodeLifecycleConfig, group: string, node: Node | null): Process[] {
  // the heartbeat client: rate limiting disabled (QPS -1)
  const nodeName = h.config.nodeName;
  // registerWithAPIServer: a restarted kubelet whose Node was deleted creates it again (a running
  // one never does: its registration completed once)
  if (h.apiserver.nodes.node(nodeName) === undefined) h.apiserver.nodes.register(nodeName, kubeletReady(h.clock.now(), undefined));
  const client = new NetworkClient(h.network, group, { qps: 0, user: `system:node:${nodeName}` });
  const status: NodeStatusOptions = {
    client,
    clock: h.clock,
    tracer: h.tracer,
    nodeName,
    updateFrequencyMs: nl.nodeStatusUpdateFrequencyMs,
    errors: node === null ? undefined : () => node.readyErrors(),
    mutex: new Channel<void>(h.engine, 1, `${group}/syncNodeStatusMux`),
  };
  const procs = [
    h.engine.spawn(`${group}/node-lease`, leaseController({ client, nodeName, renewIntervalMs: nl.leaseDurationMs / 4, rng: h.engine.rng.fork(`${group}/lease`), tracer: h.tracer }), group),
    h.engine.spawn(`${group}/node-status`, nodeStatusLoop(status), group),
  ];
  node?.onSyncNodeStatus(() => procs.push(h.engine.spawn(`${group}/node-status-sync`, syncNodeStatus(status), group)));
  return procs;
}
