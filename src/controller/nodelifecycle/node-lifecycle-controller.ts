// pkg/controller/nodelifecycle/node_lifecycle_controller.go: the node lifecycle controller of
// kube-controller-manager, as far as pod status is concerned. At start and every
// nodeMonitorPeriod (5 s) after, monitorNodeHealth looks at every node:
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
//  - the tainter is the zone's RateLimitedTimedQueue (rate-limited-queue.ts): --node-eviction-rate
//    0.1 nodes/s, burst 1;
//  - handleDisruption, on each zone's state (ComputeZoneState; a node's zone is the zone key of its
//    topology labels, spec.nodes[].zone and .region: nodes without them, the healthy nodes among
//    them, share the zone ""; a node labelled node.kubernetes.io/exclude-disruption counts in
//    none, isNodeExcludedFromDisruptionChecks, though it is tainted and evicted as any other):
//    Normal taints at the eviction rate; PartialDisruption (more than two
//    nodes not Ready, at least --unhealthy-zone-threshold 0.55 of them) at the secondary rate
//    (0.01) in a zone of more than --large-cluster-size-threshold (50) nodes, else not at all;
//    FullDisruption (no node Ready) at the eviction rate again (HealthyQPSFunc: a zone lost while
//    others are not is evacuated) — unless every zone is fully disrupted ("master disruption
//    mode"): the controller then stops tainting and takes the taints off every node, so a one-node
//    cluster never evicts; leaving it, every node gets a fresh grace period. Each zone has its own
//    tainter; Go's map order over the zones is a seeded shuffle (one zone draws nothing).
//  A node whose Unknown the apiserver refuses (down) is skipped for the pass: not counted, no pod
//  marked or evicted ("Update health of Node from Controller error, Skipping").
// The taint eviction controller (taint-eviction.ts) evicts the pods the taints ask it to.
// Nodes other than the simulated one are `healthyNodes` that always heartbeat (no pods).
import type { Engine, Process, Proc, Rng, Timer } from '../../engine/index.js';
import type { ApiServer } from '../../apiserver/index.js';
import { isNodeExcludedFromDisruptionChecks, TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE, type ConditionStatus, type NodeReadyCondition } from '../../model/node.js';
import type { Pod, PodCondition } from '../../model/pod.js';
import type { VClock } from '../../model/time.js';
import type { Tracer } from '../../model/trace.js';
import { CONTROLLER, TaintEviction } from './taint-eviction.js';
import { RateLimitedTimedQueue } from './rate-limited-queue.js';
import { computeZoneState, zoneEvictionQps, type EvictionRates, type ZoneState } from './zones.js';

export type { EvictionRates } from './zones.js';

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
  evictionRates: EvictionRates;
  /** Go's map order over the zones (zoneStates, zoneNoExecuteTainter). */
  rng: Rng;
}

interface NodeHealth {
  probeMs: number;
  leaseRenewMs: number | undefined;
  heartbeat: string;
}

export class NodeLifecycleController {
  private readonly health = new Map<string, NodeHealth>();
  /** zoneNoExecuteTainter: per zone, the nodes waiting for their NoExecute taint, behind the
   *  zone's limiter (made with a zone's first node: addPodEvictorForNewZone). */
  private readonly tainters = new Map<string, RateLimitedTimedQueue>();
  /** The tainter pass scheduled (doNoExecuteTaintingPass; only when it can act) and its instant. */
  private tainterTimer: Timer | null = null;
  private tainterAtMs = -1;
  /** zoneStates: a zone no node was counted in is forgotten until seen again. */
  private readonly zoneStates = new Map<string, ZoneState>();
  private readonly eviction: TaintEviction;

  constructor(private readonly o: NodeLifecycleOptions) {
    this.eviction = new TaintEviction({ engine: o.engine, clock: o.clock, apiserver: o.apiserver, tracer: o.tracer, disruptionConditions: o.disruptionConditions });
    const now = o.clock.now();
    for (const name of o.healthyNodes) o.apiserver.nodes.register(name, { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now });
  }

  private proc: Process | null = null;
  private unwatch: (() => void) | null = null;

  /** Run: monitorNodeHealth at once and every nodeMonitorPeriod after (wait.UntilWithContext);
   *  restarted (a new process taking over): its taint eviction processes every node's taints first. */
  start(restarted = false): Process {
    if (restarted) for (const name of this.o.apiserver.nodes.names()) if (this.o.apiserver.nodes.node(name)!.taints.length > 0) this.taintsChanged(name);
    const unwatchPods = this.o.apiserver.watch((e) => this.eviction.podUpdated(e.type, e.object));
    const unwatchNodes = this.o.apiserver.nodes.onNodeChange((name, actor) => this.nodeChanged(name, actor));
    this.unwatch = () => (unwatchPods(), unwatchNodes());
    this.proc = this.o.engine.spawn('node-lifecycle-controller', this.monitorLoop(), 'controller');
    return this.proc;
  }

  /** The process exits: nothing more runs (its passes, its tainter, its scheduled evictions). */
  stop(): void {
    if (this.proc !== null) this.o.engine.kill(this.proc);
    this.proc = null;
    this.unwatch?.();
    this.unwatch = null;
    this.tainterTimer?.cancel();
    this.tainterTimer = null;
    this.eviction.stop();
  }

  /** The node informer's update or delete from another writer (a user's taint, the Node deleted):
   *  taint eviction processes the node's taints; a node gone is forgotten (its health, its place in
   *  the tainter) — the evictions already scheduled stay, as upstream's do. */
  private nodeChanged(name: string, actor: string): void {
    if (actor === 'controller') return; // (its own changes: taintsChanged, at once)
    if (this.o.apiserver.nodes.node(name) !== undefined) {
      this.taintsChanged(name);
      return;
    }
    this.health.delete(name);
    for (const tainter of this.tainters.values()) tainter.remove(name);
  }

  private *monitorLoop(): Proc<void> {
    for (;;) {
      this.monitorNodeHealth();
      yield this.o.nodeMonitorPeriodMs;
    }
  }

  /** monitorNodeHealth: each node's health, its taints and pods; then the zone's state. A node
   *  whose health update fails is skipped ("no pods will be evicted") and not counted. */
  private monitorNodeHealth(): void {
    const names = this.o.apiserver.nodes.names();
    const zones = new Map<string, ConditionStatus[]>();
    for (const name of names) {
      if (this.o.healthyNodes.includes(name)) this.heartbeatHealthy(name);
      const node = this.o.apiserver.nodes.node(name);
      const zone = node?.zone ?? '';
      this.addPodEvictorForNewZone(zone);
      const health = this.tryUpdateNodeHealth(name);
      if (health === undefined) continue;
      const { observed, current } = health;
      // "Some nodes may be excluded from disruption checking" (labels the health update keeps)
      if (node === undefined || !isNodeExcludedFromDisruptionChecks(node)) {
        let inZone = zones.get(zone);
        if (inZone === undefined) zones.set(zone, (inZone = []));
        inZone.push(current.status);
      }
      this.processTaintBaseEviction(name, observed);
      if (current.status !== 'True' && observed.status === 'True') this.markPodsNotReady(name);
    }
    this.handleDisruption(zones, names);
  }

  private zoneOf(name: string): string {
    return this.o.apiserver.nodes.node(name)?.zone ?? '';
  }

  /** addPodEvictorForNewZone: a zone's tainter at the eviction rate, and its state Initial. */
  private addPodEvictorForNewZone(zone: string): void {
    if (!this.zoneStates.has(zone)) this.zoneStates.set(zone, 'Initial');
    if (!this.tainters.has(zone)) this.tainters.set(zone, new RateLimitedTimedQueue(this.o.evictionRates.nodeEvictionRate));
  }

  private tainterOf(name: string): RateLimitedTimedQueue {
    const zone = this.zoneOf(name);
    this.addPodEvictorForNewZone(zone);
    return this.tainters.get(zone)!;
  }

  /** Go's order over a map's keys: sorted, then a seeded shuffle (none for one key). */
  private mapOrder(keys: Iterable<string>): string[] {
    const sorted = [...keys].sort();
    return sorted.length < 2 ? sorted : this.o.rng.shuffle(sorted);
  }

  /** handleDisruption: each zone's new state. Every zone fully disrupted ("master disruption
   *  mode"): the taints come off every node and every tainter stops; leaving it, every node gets a
   *  fresh grace (probe time now) and every zone its state's rate; else each zone whose state
   *  changed gets its rate. A zone no node was counted in is forgotten. */
  private handleDisruption(zones: ReadonlyMap<string, readonly ConditionStatus[]>, names: readonly string[]): void {
    const log = (msg: string, fields?: Record<string, unknown>) => this.o.tracer.log('info', msg, undefined, { ...fields, ...CONTROLLER });
    const next = new Map<string, ZoneState>();
    let allAre = true;
    for (const [zone, conditions] of zones) {
      const state = computeZoneState(conditions, this.o.evictionRates.unhealthyZoneThreshold);
      if (state !== 'FullDisruption') allAre = false;
      next.set(zone, state);
      if (!this.zoneStates.has(zone)) this.zoneStates.set(zone, 'Initial'); // (Setting initial state for unseen zone)
    }
    let allWere = true;
    for (const [zone, state] of [...this.zoneStates]) {
      if (!zones.has(zone)) this.zoneStates.delete(zone);
      else if (state !== 'FullDisruption') allWere = false;
    }
    if (allAre && allWere) return;
    const now = this.o.engine.nowMs;
    const order = this.mapOrder(this.zoneStates.keys());
    if (allAre) {
      log('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      for (const name of names) this.markNodeAsReachable(name);
      for (const zone of order) {
        this.tainters.get(zone)!.swapLimiter(0, now);
        this.zoneStates.set(zone, 'FullDisruption');
      }
    } else if (allWere) {
      log('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      for (const name of names) {
        const h = this.health.get(name);
        if (h !== undefined) h.probeMs = now;
      }
      for (const zone of order) {
        this.setLimiterInZone(zone, zones.get(zone)!.length, next.get(zone)!);
        this.zoneStates.set(zone, next.get(zone)!);
      }
    } else {
      for (const zone of order) {
        const state = next.get(zone)!;
        if (this.zoneStates.get(zone) === state) continue;
        log('Controller detected that zone is now in new state', { zone, newState: state });
        this.setLimiterInZone(zone, zones.get(zone)!.length, state);
        this.zoneStates.set(zone, state);
      }
    }
    this.armTainter();
  }

  /** setLimiterInZone */
  private setLimiterInZone(zone: string, zoneSize: number, state: ZoneState): void {
    this.tainters.get(zone)!.swapLimiter(zoneEvictionQps(this.o.evictionRates, zoneSize, state), this.o.engine.nowMs);
  }

  /** The other nodes' kubelets post their heartbeats (not simulated: always on time). */
  private heartbeatHealthy(name: string): void {
    const nodes = this.o.apiserver.nodes;
    const n = nodes.node(name)!;
    nodes.setReady(name, { ...n.ready, lastHeartbeatTime: this.o.clock.now() }, 'kubelet');
  }

  /** tryUpdateNodeHealth: the Ready condition observed before this pass and the one after;
   *  undefined when writing Unknown failed (the apiserver is down). */
  private tryUpdateNodeHealth(name: string): { observed: NodeReadyCondition; current: NodeReadyCondition } | undefined {
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
    if (!apiserver.nodes.setReady(name, current, 'controller').ok) {
      this.o.tracer.log('error', 'Update health of Node from Controller error, Skipping - no pods will be evicted', undefined, { node: name, ...CONTROLLER });
      return undefined;
    }
    return { observed, current };
  }

  /** processTaintBaseEviction (taint-based evictions, always on since v1.18), on the Ready
   *  condition observed before this pass: False (the kubelet's own NotReady) asks for the not-ready
   *  taint, Unknown for the unreachable one — swapped at once when the other one is on, else queued
   *  for the tainter (markNodeForTainting); True takes them off (markNodeAsReachable). */
  private processTaintBaseEviction(name: string, observed: NodeReadyCondition): void {
    if (observed.status === 'True') {
      this.markNodeAsReachable(name);
      return;
    }
    const [add, opposite] = noExecuteTaintFor(observed.status);
    if (this.hasNoExecuteTaint(name, opposite)) this.swapTaint(name, add, opposite);
    else if (this.markNodeForTainting(name, add)) this.armTainter();
  }

  /** markNodeForTainting: queue the node (again, behind the others, when its taint is not on). */
  private markNodeForTainting(name: string, taint: string): boolean {
    const tainter = this.tainterOf(name);
    if (!this.hasNoExecuteTaint(name, taint)) tainter.remove(name);
    return tainter.add(name, this.o.engine.nowMs);
  }

  /** taintutils.TaintExists for the NoExecute taint of that key. */
  private hasNoExecuteTaint(name: string, key: string): boolean {
    return this.o.apiserver.nodes.node(name)?.taints.some((t) => t.key === key && t.effect === 'NoExecute') ?? false;
  }

  /** doNoExecuteTaintingPass runs every nodeEvictionPeriod; only the passes that can act are
   *  scheduled (the first one at or after the limiter's next token, when a node is queued). Each
   *  taints a queued node as its Ready condition is then (not-ready for False, unreachable for
   *  Unknown; a node gone or Ready again is dropped); a write the apiserver refuses is tried again. */
  private armTainter(): void {
    let t: number | undefined;
    for (const tainter of this.tainters.values()) {
      const next = tainter.nextTryMs();
      if (next !== undefined && (t === undefined || next < t)) t = next;
    }
    if (t === undefined) return;
    const now = this.o.engine.nowMs;
    const at = Math.max(now - (now % NODE_EVICTION_PERIOD_MS) + NODE_EVICTION_PERIOD_MS, Math.ceil(t / NODE_EVICTION_PERIOD_MS) * NODE_EVICTION_PERIOD_MS);
    if (this.tainterTimer !== null && this.tainterAtMs <= at) return;
    this.tainterTimer?.cancel();
    this.tainterAtMs = at;
    this.tainterTimer = this.o.engine.at(at, () => {
      this.tainterTimer = null;
      for (const zone of this.mapOrder(this.tainters.keys())) {
        this.tainters.get(zone)!.try(this.o.engine.nowMs, (name) => {
          const status = this.o.apiserver.nodes.node(name)?.ready.status;
          if (status !== 'False' && status !== 'Unknown') return true;
          const [add, opposite] = noExecuteTaintFor(status);
          return this.swapTaint(name, add, opposite);
        });
      }
      this.armTainter();
    });
  }

  /** SwapNodeControllerTaint: add the one NoExecute taint, then take the opposite one off; false
   *  when the apiserver refuses (down). */
  private swapTaint(name: string, add: string, opposite: string): boolean {
    const nodes = this.o.apiserver.nodes;
    if (this.o.apiserver.down) return false;
    const added = nodes.addTaint(name, { key: add, effect: 'NoExecute' }, 'controller') !== undefined;
    const removed = nodes.removeTaint(name, opposite, 'NoExecute', 'controller');
    if (added || removed) this.taintsChanged(name);
    return true;
  }

  /** markNodeAsReachable: the NoExecute taints come off and the node leaves the tainter's queue
   *  (nothing changes while the apiserver is down). */
  private markNodeAsReachable(name: string): void {
    const nodes = this.o.apiserver.nodes;
    if (this.o.apiserver.down) return;
    this.tainterOf(name).remove(name);
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
