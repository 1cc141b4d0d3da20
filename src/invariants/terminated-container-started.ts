// terminated-container-started: a container the kubelet reports terminated with exit code 0 (it
// succeeded) had started.
//
// The CRI reports a container it created but never started with started_at 0, which the kubelet
// turns into startedAt 1970-01-01T00:00:00Z (the Unix epoch). Such a container did not run, so it
// cannot have succeeded: before #107845 (v1.24; BZ-08) the kubelet converted a created container
// as if it had exited — terminated, exit 0, startedAt the epoch — and a pod whose start failed while
// it was being deleted (restartPolicy Never) went Succeeded. A failed start the runtime reports as
// exited (128 StartError, also at the epoch) is a failure, not a success, and is not judged; nor is
// a terminated state with no startedAt at all (TerminatePod's inference for a container it cannot
// account for: BZ-01's exit 0 is a different lie, named by the apiserver state it leaves).
//
// Judged on the kubelet's writes (regular and init containers), once per pod, on the write that
// makes it so: a version the scenario created is the run's input.
import { podKey, type ContainerStatus, type Pod } from '../model/pod.js';
import { Checker, type Feeds } from './checker.js';

/** startedAt of a container the runtime never started (containerd's started_at 0). */
export const NEVER_STARTED_AT = '1970-01-01T00:00:00Z';

/** The first container of the version reported terminated with exit 0 though it never started. */
export function succeededWithoutStarting(pod: Pod): string | undefined {
  const find = (list: readonly ContainerStatus[] | undefined, kind: string) => {
    for (const c of list ?? []) {
      const t = c.state?.terminated;
      if (t && (t.exitCode ?? 0) === 0 && t.startedAt === NEVER_STARTED_AT) return `${kind} ${c.name} reported terminated with exit 0 (${t.reason || 'no reason'}) but never started (startedAt ${NEVER_STARTED_AT})`;
    }
    return undefined;
  };
  return find(pod.status?.containerStatuses, 'container') ?? find(pod.status?.initContainerStatuses, 'init container');
}

export class TerminatedContainerStarted extends Checker {
  constructor(feeds: Feeds) {
    super('terminated-container-started', feeds.w);
    feeds.onApiChange((c) => {
      if (c.type !== 'MODIFIED' || c.prev === undefined || c.actor !== 'kubelet') return;
      const pod = podKey(c.next);
      if (this.hasReported(pod) || succeededWithoutStarting(c.prev) !== undefined) return;
      const why = succeededWithoutStarting(c.next);
      if (why !== undefined) this.violation(pod, `${why} (uid ${c.next.metadata?.uid}, resourceVersion ${c.next.metadata?.resourceVersion})`, feeds.nodeOfObject(c.next));
    });
  }
}
