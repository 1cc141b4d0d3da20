// ready-stable-across-restart: a kubelet restart alone never flips a container's readiness
// (BZ-21: #78733, #100277, #113646, #135795; KEP-4781).
//
// After a kubelet restart (a kubelet.start of incarnation 2 or later) the new kubelet's status
// manager and prober start empty: a readiness worker starts at Failure, a container with no result
// yet may read as ready. Judged on the apiserver's history, kubelet write by kubelet write (two
// successive versions of one object): a container status whose `ready` flips, while the same
// instance (containerID) still runs in the runtime, away from what its readiness probe answers
// there (the instance's answer; no probe: ready), is a flip the restart caused. The legitimate
// causes of a change are left alone: a probe whose answer changed (the flip goes towards it), a
// container that exited or was replaced (another containerID, or no longer running), a terminal
// phase (Ready forced False) and a deletion. Before the first restart nothing is judged; needs the
// simulated runtime (the probes' answers). Per node (spec.nodes): a write is judged after a restart
// of its own node's kubelet, against its own node's runtime.
import { isPodPhaseTerminal, podKey, type ContainerStatus, type Pod } from '../model/pod.js';
import type { RuntimeView } from '../model/world-view.js';
import { Checker, type Feeds } from './checker.js';

export class ReadyStableAcrossRestart extends Checker {
  /** When each node's kubelet first restarted, by node name. */
  private readonly restartedAtMs = new Map<string, number>();

  constructor(feeds: Feeds) {
    super('ready-stable-across-restart', feeds.w);
    if (!feeds.w.nodes.some((n) => n.runtime?.container !== undefined)) return;
    feeds.onTrace(['kubelet.start'], (r) => {
      const node = feeds.nodeOfRecord(r).name;
      if (typeof r.incarnation === 'number' && r.incarnation >= 2 && !this.restartedAtMs.has(node)) this.restartedAtMs.set(node, r.t);
    });
    feeds.onApiChange((c) => {
      if (this.restartedAtMs.size === 0 || c.type !== 'MODIFIED' || c.prev === undefined || c.actor !== 'kubelet') return;
      const node = feeds.nodeOfObject(c.next);
      const restartedAtMs = this.restartedAtMs.get(node.name);
      const runtime = node.runtime;
      if (restartedAtMs === undefined || runtime === null || runtime.container === undefined) return;
      const pod = podKey(c.next);
      if (this.hasReported(pod) || c.next.metadata?.deletionTimestamp || isPodPhaseTerminal(c.next.status?.phase)) return;
      const why = this.restartFlip(c.prev, c.next, runtime);
      if (why !== undefined) this.violation(pod, `${why} (uid ${c.next.metadata?.uid}, resourceVersion ${c.next.metadata?.resourceVersion}; kubelet restarted at ${restartedAtMs} ms)`, node);
    });
  }

  /** The first container of `next` whose ready flipped away from its probe's answer. */
  private restartFlip(prev: Pod, next: Pod, runtime: RuntimeView): string | undefined {
    const before = new Map<string, ContainerStatus>();
    for (const cs of prev.status?.containerStatuses ?? []) before.set(cs.name, cs);
    for (const cs of next.status?.containerStatuses ?? []) {
      const old = before.get(cs.name);
      if (old === undefined || !cs.containerID || old.containerID !== cs.containerID || !!old.ready === !!cs.ready) continue;
      const inst = runtime.container!(cs.containerID);
      if (inst === undefined || !inst.running) continue;
      const spec = next.spec?.containers?.find((c) => c.name === cs.name);
      const answer = spec?.readinessProbe ? inst.probeAnswers.readiness : true;
      if (answer === undefined || !!old.ready !== answer) continue;
      return `container ${cs.name} went ready ${!!old.ready} → ${!!cs.ready} while the same instance runs and its readiness probe still answers ${answer}`;
    }
    return undefined;
  }
}
