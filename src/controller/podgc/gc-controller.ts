// pkg/controller/podgc/gc_controller.go: kube-controller-manager's pod garbage collector, as far as
// a pod's status is concerned. At start and every gcCheckPeriod (20 s) after (wait.UntilWithContext),
// from its informers' view of the pods and nodes:
//  - gcTerminating (v1.24+, NodeOutOfServiceVolumeDetach; current): a terminating pod (deletionTimestamp
//    set) on a node that is not Ready and carries the `node.kubernetes.io/out-of-service` taint
//    (non-graceful node shutdown: an operator's taint on a node known to be down) is force-deleted;
//  - gcOrphaned: a pod bound to a node that no longer exists puts that node in quarantine
//    (quarantineTime, 40 s: a delaying queue, so the earliest wait counts); a pass after it, a node
//    still gone (checked with a GET: an error leaves it for a later pass) has its pods force-deleted,
//    each with DisruptionTarget DeletionByPodGC "PodGC: node no longer exists".
// Force-deleting (markFailedAndDeletePodWithCondition, v1.26+; current): a pod not yet Succeeded or
// Failed is first patched to phase Failed (and the condition, through PatchPodStatus with its UID as
// precondition) — it may be running on a node nobody hears from — then deleted with grace 0. Before
// (classic v1.20, transitional v1.23) it is only deleted with grace 0.
//  - gcTerminated, first, when --terminated-pod-gc-threshold is above 0 (spec.nodeLifecycle
//    .terminatedPodGCThreshold, default 12500): the terminated pods (isPodTerminated: a phase that
//    is neither Pending, Running nor Unknown) beyond the threshold are force-deleted, the oldest
//    first (byCreationTimestamp; v1.27+, #116167, byEvictionAndCreationTimestamp: evicted first).
// gcUnscheduledTerminating is not modelled (kss pods are always bound). Go's lister order is
// random: the orphans are taken in a seeded order.
import type { Engine, Process, Proc, Rng } from '../../engine/index.js';
import type { ApiServer } from '../../apiserver/index.js';
import { isPodPhaseTerminal, podKey, type Pod, type PodCondition, type PodStatus } from '../../model/pod.js';
import type { VClock } from '../../model/time.js';
import type { Tracer } from '../../model/trace.js';
import { CONTROLLER } from '../nodelifecycle/taint-eviction.js';
import { updatePodCondition } from '../pod-condition.js';

/** gcCheckPeriod */
export const POD_GC_CHECK_PERIOD_MS = 20_000;
/** quarantineTime */
export const POD_GC_QUARANTINE_MS = 40_000;
/** v1.TaintNodeOutOfService */
export const TAINT_NODE_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

export interface PodGCOptions {
  engine: Engine;
  clock: VClock;
  apiserver: ApiServer;
  tracer: Tracer;
  rng: Rng;
  /** gcTerminating (v1.24+) and markFailed before the delete (v1.26+): the current generation. */
  current: boolean;
  /** PodDisruptionConditions: the DisruptionTarget condition with the Failed phase (v1.31 marks
   *  the phase without it when the gate is off, JobPodReplacementPolicy being on). */
  disruptionConditions: boolean;
  /** --terminated-pod-gc-threshold (0: gcTerminated never runs). */
  terminatedPodThreshold: number;
  /** The transitional generation (v1.23): structured log lines where classic (v1.20) has printf. */
  transitional?: boolean;
}

export class PodGC {
  private proc: Process | null = null;
  /** nodeQueue: each quarantined node and the instant it is ready. */
  private readonly quarantine = new Map<string, number>();

  constructor(private readonly o: PodGCOptions) {}

  start(): Process {
    this.proc = this.o.engine.spawn('pod-gc-controller', this.loop(), 'controller');
    return this.proc;
  }

  stop(): void {
    if (this.proc !== null) this.o.engine.kill(this.proc);
    this.proc = null;
  }

  private *loop(): Proc<void> {
    for (;;) {
      this.gc();
      yield POD_GC_CHECK_PERIOD_MS;
    }
  }

  /** gc: from the informers' view (no list of every pod: only the pods of the nodes concerned,
   *  through the apiserver's index by spec.nodeName). */
  private gc(): void {
    if (this.o.terminatedPodThreshold > 0) this.gcTerminated();
    if (this.o.current) this.gcTerminating();
    this.gcOrphaned();
  }

  /** gcTerminating: terminating pods on out-of-service nodes that are not Ready, in
   *  byEvictionAndCreationTimestamp order. */
  private gcTerminating(): void {
    const { apiserver } = this.o;
    const doomed: Pod[] = [];
    for (const name of apiserver.nodes.names()) {
      const node = apiserver.nodes.node(name)!;
      if (node.ready.status === 'True' || !node.taints.some((t) => t.key === TAINT_NODE_OUT_OF_SERVICE)) continue;
      for (const p of apiserver.listOnNode(name)) if (p.metadata?.deletionTimestamp) doomed.push(p);
    }
    if (doomed.length === 0) return;
    this.log('V4', 'Garbage collecting pods that are terminating on node tainted with node.kubernetes.io/out-of-service', { numPods: doomed.length });
    for (const pod of doomed.sort(byEvictionAndCreationTimestamp)) this.markFailedAndDelete(pod, 'terminating-out-of-service');
  }

  /** gcTerminated: the terminated pods beyond the threshold, the first in sort order. */
  private gcTerminated(): void {
    const { apiserver, current } = this.o;
    const deleteCount = apiserver.terminatedCount - this.o.terminatedPodThreshold;
    if (deleteCount <= 0) return;
    if (current || this.o.transitional) this.log('info', 'Garbage collecting pods', { numPods: deleteCount });
    else this.log('info', `garbage collecting ${deleteCount} pods`, {});
    const pods = apiserver.listTerminated().sort(current ? byEvictionAndCreationTimestamp : byCreationTimestamp);
    for (const pod of pods.slice(0, deleteCount)) this.markFailedAndDelete(pod, 'terminated');
  }

  /** gcOrphaned: quarantine the missing nodes of bound pods; force-delete the pods of those still
   *  gone once their quarantine is over. */
  private gcOrphaned(): void {
    const { apiserver } = this.o;
    const now = this.o.engine.nowMs;
    for (const name of apiserver.boundNodeNames()) {
      if (apiserver.nodes.node(name) !== undefined) continue;
      const at = now + POD_GC_QUARANTINE_MS;
      const queued = this.quarantine.get(name);
      if (queued === undefined || at < queued) this.quarantine.set(name, at);
    }
    const orphans: Pod[] = [];
    for (const [name, readyAt] of [...this.quarantine]) {
      if (readyAt > now) continue;
      this.quarantine.delete(name);
      if (apiserver.nodes.node(name) !== undefined) continue;
      if (apiserver.down) { // checkIfNodeExists: the GET fails; a later pass finds the node again
        this.log('error', 'Error while getting node', { node: name });
        continue;
      }
      orphans.push(...apiserver.listOnNode(name));
    }
    const { current, transitional } = this.o;
    for (const pod of this.seeded(orphans)) {
      const key = podKey(pod);
      // the log lines as each release words them (v1.20 printf; v1.23 structured, with a full stop)
      if (current || transitional) this.log('V2', `Found orphaned Pod assigned to the Node, deleting${transitional ? '.' : ''}`, { pod: key, node: pod.spec?.nodeName });
      else this.log('V2', `Found orphaned Pod ${key} assigned to the Node ${pod.spec?.nodeName ?? ''}. Deleting.`, { pod: key });
      if (this.markFailedAndDelete(pod, 'orphaned', { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' })) {
        if (current || transitional) this.log('info', 'Forced deletion of orphaned Pod succeeded', { pod: key });
        else this.log('info', `Forced deletion of orphaned Pod ${key} succeeded`, { pod: key });
      }
    }
  }

  /** markFailedAndDeletePodWithCondition; whether the delete went through. */
  private markFailedAndDelete(pod: Pod, reason: 'orphaned' | 'terminating-out-of-service' | 'terminated', condition?: PodCondition): boolean {
    const { apiserver, tracer } = this.o;
    const key = podKey(pod);
    const [ns, name] = [pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? ''];
    const uid = pod.metadata?.uid ?? '';
    tracer.emit({ type: 'controller.pod-gc', actor: 'controller', pod: key, uid, reason });
    if (!this.o.current) {
      // deletePod (v1.20: printf; v1.23: structured)
      if (this.o.transitional) this.log('info', 'PodGC is force deleting Pod', { pod: key });
      else this.log('info', `PodGC is force deleting Pod: ${key}`, { pod: key });
    } else {
      this.log('info', 'PodGC is force deleting Pod', { pod: key });
      if (!isPodPhaseTerminal(pod.status?.phase)) {
        const status: PodStatus = { phase: 'Failed' };
        if (condition !== undefined && this.o.disruptionConditions) status.conditions = [updatePodCondition(pod, condition, this.o.clock.now()).condition];
        const r = apiserver.patchStatus(ns, name, { metadata: { uid }, status }, 'controller');
        if (!r.ok) return false;
      }
    }
    return apiserver.delete(ns, name, { gracePeriodSeconds: 0 }, 'controller').ok;
  }

  /** The pods in the lister's (Go map) order: sorted by key, then a seeded shuffle (none for one). */
  private seeded(pods: Pod[]): Pod[] {
    if (pods.length < 2) return pods;
    return this.o.rng.shuffle(pods.map((p) => [podKey(p), p] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1)).map((e) => e[1]));
  }

  private log(level: 'info' | 'error' | 'V2' | 'V4', msg: string, fields: Record<string, unknown>): void {
    this.o.tracer.log(level, msg, typeof fields.pod === 'string' ? fields.pod : undefined, { ...fields, ...CONTROLLER });
  }
}

/** byEvictionAndCreationTimestamp (v1.27+): evicted pods (eviction.PodIsEvicted: Failed, reason
 *  Evicted) first, then byCreationTimestamp. */
function byEvictionAndCreationTimestamp(a: Pod, b: Pod): number {
  const ea = a.status?.phase === 'Failed' && a.status.reason === 'Evicted';
  const eb = b.status?.phase === 'Failed' && b.status.reason === 'Evicted';
  if (ea !== eb) return ea ? -1 : 1;
  return byCreationTimestamp(a, b);
}

/** byCreationTimestamp: by creation time, then by name. */
function byCreationTimestamp(a: Pod, b: Pod): number {
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
