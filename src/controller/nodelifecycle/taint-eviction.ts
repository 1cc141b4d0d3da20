// pkg/controller/tainteviction/taint_eviction.go (v1.29+; before: pkg/controller/nodelifecycle/
// scheduler/taint_manager.go, the same logic): evicts the pods of a node with NoExecute taints that
// they do not tolerate. On a change of the node's taints every pod on it is processed
// (processPodOnNode): a pod that does not tolerate every NoExecute taint is evicted at once; one that
// does is evicted after the smallest tolerationSeconds of the tolerations used (never, when one of
// them tolerates forever), counted from when its eviction was first scheduled; taints gone cancel
// the eviction. A pod added to a tainted node is processed too (PodUpdated), and a pod deleted has
// its eviction cancelled. Evicting (addConditionAndDeletePod): with the PodDisruptionConditions gate, the
// DisruptionTarget condition (DeletionByTaintManager) is written first; then an ordinary DELETE,
// which takes the pod's own grace period.
import type { Engine, Timer } from '../../engine/index.js';
import type { ApiServer } from '../../apiserver/index.js';
import { tolerationsWithDefaults, toleratesTaint, type Taint, type Toleration } from '../../model/node.js';
import { podKey, type Pod } from '../../model/pod.js';
import { updatePodCondition } from '../pod-condition.js';
import type { VClock } from '../../model/time.js';
import type { Tracer } from '../../model/trace.js';

/** The fields of the controllers' log lines: theirs, not the kubelet's (tracer.log's default). */
export const CONTROLLER: Readonly<Record<string, unknown>> = Object.freeze({ actor: 'controller' });

export interface TaintEvictionOptions {
  engine: Engine;
  clock: VClock;
  apiserver: ApiServer;
  tracer: Tracer;
  /** PodDisruptionConditions: write DisruptionTarget before the delete (v1.26+ default). */
  disruptionConditions: boolean;
}

interface Scheduled {
  readonly createdAtMs: number;
  readonly fireAtMs: number;
  readonly timer: Timer;
}

/** getMinTolerationTime: the smallest tolerationSeconds, in ms; -1 when one tolerates forever. */
function minTolerationMs(used: readonly Toleration[]): number {
  let min = -1;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) return -1;
    const ms = Math.max(0, t.tolerationSeconds) * 1000;
    if (min < 0 || ms < min) min = ms;
  }
  return min;
}

export class TaintEviction {
  private readonly scheduled = new Map<string, Scheduled>();

  constructor(private readonly o: TaintEvictionOptions) {}

  /** PodUpdated / handlePodUpdate: a pod bound to a node with NoExecute taints is processed (at
   *  this instant, after the write that added it: upstream queues it to a worker); a pod gone has
   *  its eviction cancelled. (kss pods never change their tolerations or node in place.) */
  podUpdated(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: Pod): void {
    if (type === 'DELETED') return this.cancel(podKey(pod));
    if (type !== 'ADDED') return;
    const node = pod.spec?.nodeName;
    if (!node) return;
    const taints = this.o.apiserver.nodes.node(node)?.taints.filter((t) => t.effect === 'NoExecute') ?? [];
    if (taints.length === 0) return;
    const uid = pod.metadata?.uid;
    this.o.engine.call(this.o.engine.nowMs, () => {
      const now = this.o.apiserver.peek(pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '');
      if (now !== undefined && now.metadata?.uid === uid) this.processPodOnNode(now, taints);
    });
  }

  /** The process exits: no scheduled eviction fires. */
  stop(): void {
    for (const s of this.scheduled.values()) s.timer.cancel();
    this.scheduled.clear();
  }

  /** handleNodeUpdate: the node's NoExecute taints changed; process every pod bound to it. */
  nodeTaintsChanged(nodeName: string, taints: readonly Taint[], pods: readonly Pod[]): void {
    const noExecute = taints.filter((t) => t.effect === 'NoExecute');
    for (const pod of pods) this.processPodOnNode(pod, noExecute);
  }

  /** processPodOnNode */
  private processPodOnNode(pod: Pod, taints: readonly Taint[]): void {
    const key = podKey(pod);
    if (taints.length === 0) {
      this.cancel(key);
      return;
    }
    const tolerations = tolerationsWithDefaults(pod);
    const used: Toleration[] = [];
    let allTolerated = true;
    for (const taint of taints) {
      const t = tolerations.find((x) => toleratesTaint(x, taint));
      if (t === undefined) allTolerated = false;
      else used.push(t);
    }
    const now = this.o.engine.nowMs;
    if (!allTolerated) {
      this.o.tracer.log('V2', 'Not all taints are tolerated after update for pod on node', key, CONTROLLER);
      this.schedule(key, now, now);
      return;
    }
    const min = minTolerationMs(used);
    if (min < 0) {
      this.o.tracer.log('V4', 'Current tolerations for pod tolerate forever, cancelling any scheduled deletion', key, CONTROLLER);
      this.cancel(key);
      return;
    }
    const prev = this.scheduled.get(key);
    const createdAt = prev?.createdAtMs ?? now;
    if (prev !== undefined && createdAt + min >= prev.fireAtMs) return;
    this.schedule(key, createdAt, createdAt + min);
  }

  private schedule(key: string, createdAtMs: number, fireAtMs: number): void {
    this.cancel(key);
    const timer = this.o.engine.at(fireAtMs, () => {
      this.scheduled.delete(key);
      this.evict(key);
    });
    this.scheduled.set(key, { createdAtMs, fireAtMs, timer });
  }

  private cancel(key: string): void {
    const s = this.scheduled.get(key);
    if (s === undefined) return;
    s.timer.cancel();
    this.scheduled.delete(key);
  }

  /** deletePodHandler → addConditionAndDeletePod */
  private evict(key: string): void {
    const { apiserver, tracer, clock } = this.o;
    const [ns, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const pod = apiserver.peek(ns, name);
    if (pod === undefined) return;
    tracer.emit({ type: 'controller.evict', actor: 'controller', pod: key, uid: pod.metadata?.uid ?? '', reason: 'NoExecute taint' });
    if (this.o.disruptionConditions) {
      // written only when it changes; the transition time kept while the status stays True
      const dt = updatePodCondition(pod, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' }, clock.now());
      if (dt.changed) apiserver.externalPatch(ns, name, { conditions: [dt.condition] }, 'controller'); // (conditions merge by type)
    }
    apiserver.delete(ns, name, {}, 'controller');
  }
}
