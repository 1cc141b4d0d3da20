// write-matches-uid: every kubelet write lands on the object whose UID the kubelet meant. It judges
// the kubelet's writes only (trace records of actor kubelet); other writers' are not looked at.
//
// What the kubelet means: the status manager writes (PATCH status, the final DELETE) only after a
// GET of the same name in the same syncPod, and means the object that GET returned (upstream puts
// that object's UID into the patch and the delete preconditions; the buggy generation of BZ-09 sent
// no precondition and so wrote wherever the name pointed). So for each name the checker remembers
// the UID of the kubelet's last GET served there, and every kubelet `api.patch` / `api.delete`
// served there (a no-op patch too: its answer still tells the kubelet that object is up to date)
// must carry that UID. A write with no GET of its name before it has no intent to compare with.
//
// Mirror pods are deleted by the kubelet's mirror client, not by the status manager, with its own
// UID precondition and no GET first (the apiserver refuses a mismatch): deletes of mirror pods are
// left out. Per pod, whichever node's kubelet asks (spec.nodes: the apiserver traces a kubelet's
// GET and writes without a node; a pod's are its node's kubelet's).
import { isMirrorPod, type UID } from '../model/pod.js';
import type { TraceRecord } from '../model/trace.js';
import { Checker, type Feeds } from './checker.js';

export class WriteMatchesUID extends Checker {
  /** "ns/name" → UID of the object the kubelet's last GET of that name returned. */
  private readonly meant = new Map<string, UID>();
  private readonly mirrorUIDs = new Set<UID>();

  constructor(private readonly feeds: Feeds) {
    super('write-matches-uid', feeds.w);
    for (const p of feeds.w.apiserver.list()) if (isMirrorPod(p)) this.mirrorUIDs.add(p.metadata?.uid ?? '');
    feeds.onApiChange(({ type, next }) => {
      if (type === 'ADDED' && isMirrorPod(next)) this.mirrorUIDs.add(next.metadata?.uid ?? '');
    });
    feeds.onTrace(['api.get'], (r) => {
      if (r.actor === 'kubelet' && r.pod !== undefined && typeof r.uid === 'string') this.meant.set(r.pod, r.uid);
    });
    feeds.onTrace(['api.patch', 'api.delete'], (r) => this.onWrite(r));
  }

  private onWrite(r: TraceRecord): void {
    if (r.actor !== 'kubelet' || r.pod === undefined || typeof r.uid !== 'string') return;
    if (r.type === 'api.delete' && this.mirrorUIDs.has(r.uid)) return;
    const meant = this.meant.get(r.pod);
    if (meant === undefined || meant === r.uid) return;
    const verb = r.type === 'api.patch' ? 'patch' : 'delete';
    this.violation(r.pod, `the kubelet's ${verb} landed on uid ${r.uid}, but its GET of ${r.pod} returned uid ${meant}`, this.feeds.nodeOfRecord(r));
  }
}
