// container-exit-kept (extension, runtime: simulated): a container the apiserver showed running,
// whose exit the runtime recorded, is never reported ContainerStatusUnknown. The kubelet writes
// ContainerStatusUnknown (137, "The container could not be located when the pod was terminated" /
// "… deleted.  The container used to be Running") for a container that was running and is no longer
// in the runtime's answer; that is honest when the runtime lost it (forgetContainer, wipeRuntime,
// sigkillNoExit leave no exit record) and a lie when the runtime had the exit and the kubelet's own
// container deletor removed the container before a status read it — BZ-26 (kubernetes#122160): an
// evicted pod's first container to stop is removed at the next relist (ShouldPodContentBeRemoved:
// evicted), before SyncTerminatingPod reads the runtime.
//
// Judged on the kubelet's writes, once per pod: a container status (regular or init) that turns
// ContainerStatusUnknown, in its state or its lastState, where the previous version showed it
// running as an instance whose exit the runtime traced (runtime.exit). An instance removed at the
// instant of a `gcContainers` step (the runtime losing it by the scenario's hand) does not count. A
// container in back-off when the pod ends (TerminatePod's "always report an error") was not
// running, so it does not count either.
import { podKey, type ContainerStatus, type Pod } from '../model/pod.js';
import type { TraceRecord } from '../model/trace.js';
import { ContainerReasonStatusUnknown as CONTAINER_STATUS_UNKNOWN } from '../kubelet/node/api-status.js';
import { Checker, type Feeds } from './checker.js';

interface Exit {
  exitCode: number;
  reason: string;
  atMs: number;
  /** When the runtime removed the instance (undefined: still there), and whether a fault did. */
  removedAtMs?: number;
  byFault?: boolean;
}

const unknown = (c: ContainerStatus | undefined) => c?.state?.terminated?.reason === CONTAINER_STATUS_UNKNOWN || c?.lastState?.terminated?.reason === CONTAINER_STATUS_UNKNOWN;

function statuses(p: Pod): ContainerStatus[] {
  const s = p.status;
  return [...(s?.initContainerStatuses ?? []), ...(s?.containerStatuses ?? [])];
}

export class ContainerExitKept extends Checker {
  /** The runtime's instances by "uid/container/attempt": their container IDs. */
  private readonly ids = new Map<string, string>();
  /** The recorded exits by container ID: only the newest instance's of each container counts (an
   *  older one is never the instance a status shows running), so a start drops the one before. */
  private readonly exits = new Map<string, Exit>();
  /** The newest instance's container ID by "uid/container". */
  private readonly newest = new Map<string, string>();
  /** The instant of the last gcContainers step: a removal at that instant is the fault's. */
  private faultAtMs: number | undefined;

  constructor(feeds: Feeds) {
    super('container-exit-kept', feeds.w);
    feeds.onTrace(['runtime.start', 'runtime.exit', 'runtime.remove', 'step'], (r) => this.onRecord(r));
    feeds.onApiChange((c) => {
      if (c.type !== 'MODIFIED' || c.prev === undefined || c.actor !== 'kubelet') return;
      const pod = podKey(c.next);
      if (this.hasReported(pod)) return;
      const why = this.lostExit(c.prev, c.next);
      if (why !== undefined) this.violation(pod, `${why} (uid ${c.next.metadata?.uid}, resourceVersion ${c.next.metadata?.resourceVersion})`, feeds.nodeOfObject(c.next));
    });
  }

  private onRecord(r: TraceRecord): void {
    const key = `${r.uid}/${r.container}/${r.attempt}`;
    if (r.type === 'step') {
      if (r.action === 'gcContainers') this.faultAtMs = r.t;
    } else if (r.type === 'runtime.start') {
      this.ids.set(key, r.containerID as string);
      const container = `${r.uid}/${r.container}`;
      const before = this.newest.get(container);
      if (before !== undefined) this.exits.delete(before);
      this.newest.set(container, r.containerID as string);
    } else if (r.type === 'runtime.exit') {
      const id = this.ids.get(key);
      if (id !== undefined) this.exits.set(id, { exitCode: r.exitCode as number, reason: (r.reason as string) ?? '', atMs: r.t });
    } else {
      const e = this.exits.get(r.containerID as string);
      if (e !== undefined && e.removedAtMs === undefined) {
        e.removedAtMs = r.t;
        e.byFault = this.faultAtMs === r.t;
      }
      this.ids.delete(key);
    }
  }

  /** Why `next` reports a recorded exit as ContainerStatusUnknown, if it does. */
  private lostExit(prev: Pod, next: Pod): string | undefined {
    const before = new Map(statuses(prev).map((c) => [c.name, c]));
    for (const c of statuses(next)) {
      const was = before.get(c.name);
      if (!unknown(c) || unknown(was) || !was?.state?.running || !was.containerID) continue;
      const e = this.exits.get(was.containerID);
      if (e === undefined || e.byFault) continue;
      const removed = e.removedAtMs === undefined ? '' : `, and removed it at ${(e.removedAtMs / 1000).toFixed(3)}s`;
      return `container ${c.name} reported ${CONTAINER_STATUS_UNKNOWN} (137), though the runtime recorded its exit (${e.exitCode}${e.reason ? ` ${e.reason}` : ''} at ${(e.atMs / 1000).toFixed(3)}s${removed}; ${was.containerID})`;
    }
    return undefined;
  }
}
