// pkg/controller/nodelifecycle/node_lifecycle_controller.go: the node lifecycle controller of
// kube-controller-manager, as far as pod status is concerned. Every nodeMonitorPeriod (5 s)
// monitorNodeHealth looks at every node:
//  - tryUpdateNodeHealth: the node's probe time moves when its Lease's renewTime or its Ready
//    condition's lastHeartbeatTime changes; a node not heard from for nodeMonitorGracePeriod (40 s)
//    gets Ready=Unknown ("NodeStatusUnknown", "Kubelet stopped posting node status.");
//  - when Ready leaves True: MarkPodsNotReady (pkg/controller/util/node/controller_utils.go) sets
//    the Ready condition of every pod on the node to False through UpdateStatus — a second writer of
//    a condition the kubelet owns;
//  - processTaintBaseEviction, with the Ready condition observed before this pass: Unknown queues the
//    node for the `node.kubernetes.io/unreachable:NoExecute` taint and False (a kubelet posting
//    NotReady: a graceful shutdown) for `node.kubernetes.io/not-ready:NoExecute`
//    (doNoExecuteTaintingPass, every nodeEvictionPeriod = 100 ms; the two exclude each other and
//    one is swapped for the other at once); True removes the NoExecute taints (markNodeAsReachable).
//    A kubelet's own NotReady marks no pod NotReady: MarkPodsNotReady follows the controller's own
//    change of a Ready node to Unknown only;
//  - handleDisruption: when every node is not Ready ("master disruption mode") the controller stops
//    tainting and takes the taints off every node, so a one-node cluster never evicts.
// The taint eviction controller (taint-eviction.ts) evicts the pods the taints ask it to.
// Nodes other than the simulated one are `healthyNodes` that always heartbeat (no pods).
import type { Engine, Process, Proc } from '../../engine/index.js';
import type { ApiServer } from '../../apiserver/index.js';
import { TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE, type NodeReadyCondition } from '../../model/node.js';
import type { Pod, PodCondition } from '../../model/pod.js';
import type { VClock } from '../../model/time.js';
import type { Tracer } from '../../model/trace.js';
import { CONTROLLER, TaintEviction } from './taint-eviction.js';

/** scheduler.NodeEvictionPeriod */
export const NODE_EVICTION_PERIOD_MS = 100;

export interface NodeLifecycleOptions {
  engine: Engine;
  clock: VClock;
  apiserver: ApiServer;
  tracer: Tracer;
  nodeMonitorPeriodMs: number;
  nodeMonitorGracePeriodMs: number;
  /** Names of the other nodes of the cluster: always Ready, no pods. */
  healthyNodes: readonly string[];
  disruptionConditions: boolean;
}

interface NodeHealth {
  probeMs: number;
  leaseRenewMs: number | undefined;
  heartbeat: string;
}

export class NodeLifecycleController {
  private readonly health = new Map<string, NodeHealth>();
  /** zoneNoExecuteTainter: nodes waiting for the unreachable taint. */
  private readonly toTaint = new Set<string>();
  private tainterArmed = false;
  private readonly eviction: TaintEviction;

  constructor(private readonly o: NodeLifecycleOptions) {
    this.eviction = new TaintEviction({ engine: o.engine, clock: o.clock, apiserver: o.apiserver, tracer: o.tracer, disruptionConditions: o.disruptionConditions });
    const now = o.clock.now();
    for (const name of o.healthyNodes) o.apiserver.nodes.register(name, { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now });
  }

  start(): Process {
    return this.o.engine.spawn('node-lifecycle-controller', this.monitorLoop(), 'controller');
  }

  private *monitorLoop(): Proc<void> {
    for (;;) {
      yield this.o.nodeMonitorPeriodMs;
      this.monitorNodeHealth();
    }
  }

  /** monitorNodeHealth */
  private monitorNodeHealth(): void {
    const nodes = this.o.apiserver.nodes;
    let ready = 0;
    const names = nodes.names();
    for (const name of names) {
      if (this.o.healthyNodes.includes(name)) this.heartbeatHealthy(name);
      const { observed, current } = this.tryUpdateNodeHealth(name);
      if (current.status === 'True') ready++;
      this.processTaintBaseEviction(name, observed);
      if (current.status !== 'True' && observed.status === 'True') this.markPodsNotReady(name);
    }
    // handleDisruption: every node not Ready ⇒ master disruption mode: no taints, no evictions
    if (ready === 0 && names.length > 0) {
      this.o.tracer.log('info', 'Controller detected that all Nodes are not-Ready. Entering master disruption mode', undefined, CONTROLLER);
      this.toTaint.clear();
      for (const name of names) this.markNodeAsReachable(name);
    }
  }

  /** The other nodes' kubelets post their heartbeats (not simulated: always on time). */
  private heartbeatHealthy(name: string): void {
    const nodes = this.o.apiserver.nodes;
    const n = nodes.node(name)!;
    nodes.setReady(name, { ...n.ready, lastHeartbeatTime: this.o.clock.now() }, 'kubelet');
  }

  /** tryUpdateNodeHealth: the Ready condition observed before this pass and the one after. */
  private tryUpdateNodeHealth(name: string): { observed: NodeReadyCondition; current: NodeReadyCondition } {
    const { apiserver, clock, nodeMonitorGracePeriodMs } = this.o;
    const node = apiserver.nodes.node(name)!;
    const observed = node.ready;
    const lease = apiserver.nodes.leaseRenewMs(name);
    const now = clock.nowMs;
    let h = this.health.get(name);
    if (h === undefined) {
      h = { probeMs: now, leaseRenewMs: lease, heartbeat: observed.lastHeartbeatTime };
      this.health.set(name, h);
    } else {
      if (observed.lastHeartbeatTime !== h.heartbeat) { h.heartbeat = observed.lastHeartbeatTime; h.probeMs = now; }
      if (lease !== undefined && lease !== h.leaseRenewMs) { h.leaseRenewMs = lease; h.probeMs = now; }
    }
    if (now <= h.probeMs + nodeMonitorGracePeriodMs || observed.status === 'Unknown') return { observed, current: observed };
    const current: NodeReadyCondition = {
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: observed.lastHeartbeatTime,
      lastTransitionTime: clock.now(),
    };
    this.o.tracer.log('V2', `Node ${name} hasn't been updated for ${now - h.probeMs}ms. Last Ready is: ${observed.status}`, undefined, CONTROLLER);
    apiserver.nodes.setReady(name, current, 'controller');
    return { observed, current };
  }

  /** processTaintBaseEviction (taint-based evictions, always on since v1.18), on the Ready
   *  condition observed before this pass: False (the kubelet's own NotReady) asks for the not-ready
   *  taint, Unknown for the unreachable one — swapped at once when the other one is on, else queued
   *  for the tainter (markNodeForTainting); True takes them off (markNodeAsReachable). */
  private processTaintBaseEviction(name: string, observed: NodeReadyCondition): void {
    if (observed.status === 'True') {
      this.toTaint.delete(name);
      this.markNodeAsReachable(name);
      return;
    }
    const [add, opposite] = noExecuteTaintFor(observed.status);
    if (this.o.apiserver.nodes.node(name)?.taints.some((t) => t.key === opposite && t.effect === 'NoExecute')) this.swapTaint(name, add, opposite);
    else {
      this.toTaint.add(name);
      this.armTainter();
    }
  }

  /** doNoExecuteTaintingPass runs every nodeEvictionPeriod: the next one taints what is queued,
   *  as the node's Ready condition is then (not-ready for False, unreachable for Unknown; a node
   *  Ready again is left alone). */
  private armTainter(): void {
    if (this.tainterArmed) return;
    this.tainterArmed = true;
    const now = this.o.engine.nowMs;
    this.o.engine.at(now - (now % NODE_EVICTION_PERIOD_MS) + NODE_EVICTION_PERIOD_MS, () => {
      this.tainterArmed = false;
      for (const name of [...this.toTaint].sort()) {
        this.toTaint.delete(name);
        const status = this.o.apiserver.nodes.node(name)?.ready.status;
        if (status !== 'False' && status !== 'Unknown') continue;
        const [add, opposite] = noExecuteTaintFor(status);
        this.swapTaint(name, add, opposite);
      }
    });
  }

  /** SwapNodeControllerTaint: add the one NoExecute taint, then take the opposite one off. */
  private swapTaint(name: string, add: string, opposite: string): void {
    const nodes = this.o.apiserver.nodes;
    const added = nodes.addTaint(name, { key: add, effect: 'NoExecute' }, 'controller') !== undefined;
    const removed = nodes.removeTaint(name, opposite, 'NoExecute', 'controller');
    if (added || removed) this.taintsChanged(name);
  }

  /** markNodeAsReachable: the NoExecute taints come off. */
  private markNodeAsReachable(name: string): void {
    const nodes = this.o.apiserver.nodes;
    const a = nodes.removeTaint(name, TAINT_NODE_UNREACHABLE, 'NoExecute', 'controller');
    const b = nodes.removeTaint(name, TAINT_NODE_NOT_READY, 'NoExecute', 'controller');
    if (a || b) this.taintsChanged(name);
  }

  private taintsChanged(name: string): void {
    this.eviction.nodeTaintsChanged(name, this.o.apiserver.nodes.node(name)?.taints ?? [], this.podsOn(name));
  }

  private podsOn(name: string): Pod[] {
    return this.o.apiserver.listOnNode(name); // the apiserver's index by spec.nodeName
  }

  /** MarkPodsNotReady: each pod's Ready condition to False (UpdatePodCondition stamps the
   *  transition time now when the status changes), written with UpdateStatus. */
  private markPodsNotReady(name: string): void {
    const { apiserver, clock, tracer } = this.o;
    for (const pod of this.podsOn(name)) {
      const conditions = pod.status?.conditions ?? [];
      const i = conditions.findIndex((c) => c.type === 'Ready');
      if (i < 0) continue;
      const old = conditions[i];
      if (old.status === 'False') continue; // UpdatePodCondition: nothing changes
      const cond: PodCondition = { ...old, status: 'False', lastTransitionTime: clock.now() };
      const next = conditions.slice();
      next[i] = cond;
      const ns = pod.metadata?.namespace ?? 'default';
      const podName = pod.metadata?.name ?? '';
      tracer.emit({ type: 'controller.mark-not-ready', actor: 'controller', pod: `${ns}/${podName}`, uid: pod.metadata?.uid ?? '', node: name });
      tracer.log('V2', 'Updating ready status of pod to false', `${ns}/${podName}`, CONTROLLER);
      apiserver.updateStatus(ns, podName, { ...pod.status, conditions: next }, 'controller', { resourceVersion: pod.metadata?.resourceVersion });
    }
  }
}

/** The NoExecute taint a not-Ready node gets, and the one it excludes: "we make unreachable and
 *  not ready taints mutually exclusive" (NotReadyTaintTemplate / UnreachableTaintTemplate). */
function noExecuteTaintFor(status: 'False' | 'Unknown'): [add: string, opposite: string] {
  return status === 'False' ? [TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE] : [TAINT_NODE_UNREACHABLE, TAINT_NODE_NOT_READY];
}
