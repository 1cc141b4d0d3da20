// phase-never-goes-back: a pod's phase moves only forward, Pending → Running → Succeeded/Failed.
//
// The backward moves out of a terminal phase are terminal-phase-sticky's; this one judges the move
// that checker leaves alone: Running → Pending (BZ-02: a terminated container generated as Waiting
// again during deletion; BZ-04: a running pod whose runtime forgot it after a reboot). Judged on the
// apiserver's own history, write by write (two successive versions of one object, same UID), as
// object-history.ts judges: only the kubelet's writes (another writer's are the environment); the
// version an object is created with is the run's input, not judged.
import { podKey, type Pod } from '../model/pod.js';
import { Checker, type Feeds } from './checker.js';

/** Running in `prev`, Pending (or no phase) in `next`. */
export function phaseWentBack(prev: Pod, next: Pod): string | undefined {
  const from = prev.status?.phase;
  const to = next.status?.phase;
  if (from !== 'Running' || (to !== 'Pending' && to !== undefined && to !== '')) return undefined;
  return `phase went Running → ${to || '(none)'}`;
}

export class PhaseNeverGoesBack extends Checker {
  constructor(feeds: Feeds) {
    super('phase-never-goes-back', feeds.w);
    feeds.onApiChange((c) => {
      if (c.type !== 'MODIFIED' || c.prev === undefined || c.actor !== 'kubelet') return;
      const pod = podKey(c.next);
      if (this.hasReported(pod)) return;
      const why = phaseWentBack(c.prev, c.next);
      if (why !== undefined) this.violation(pod, `${why} (uid ${c.next.metadata?.uid}, resourceVersion ${c.next.metadata?.resourceVersion})`, feeds.nodeOfObject(c.next));
    });
  }
}
