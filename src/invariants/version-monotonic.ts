// version-monotonic: within one cache entry's life and one kubelet lifetime, the status manager's
// versions (podStatuses[uid].version) and apiStatusVersions never go down. It judges the kubelet's
// own state only: no apiserver write (the kubelet's or another writer's) is looked at.
//
// Two feeds:
//   - every `status.set {uid, version}` is compared with the last version of that entry. Version 1
//     is how a fresh entry starts (updateStatusInternal bumps the cached version, 0 when there is
//     none), so a removed-and-recreated entry always shows version 1 and starts afresh;
//   - at the end of an instant, the entries and apiStatusVersions of the pods the kubelet did
//     something for in that instant (a trace record of actor kubelet naming the pod or its UID) are
//     read back from the status manager: an entry that is gone is forgotten (it starts afresh), a
//     number lower than the last one read is a violation. This catches what no status.set
//     announces (apiStatusVersions move when a patch's answer arrives, next to a kubelet log line).
// A kubelet restart (a new incarnation) forgets everything; the `setApiStatusVersion` step
// overwrites apiStatusVersions as upstream tests do, so it forgets the apiStatusVersions seen.
// Per node (spec.nodes): each node's kubelet is tracked on its own (its records, its restarts, its
// status manager read back), and only the nodes something happened on are read at an instant's end.
import { isStaticPod, type UID } from '../model/pod.js';
import type { TraceRecord } from '../model/trace.js';
import { Checker, type Feeds } from './checker.js';
import type { KubeletView, NodeView } from '../model/world-view.js';

/** What is tracked of one pod (by key): its cache entries and the apiStatusVersions of their
 *  API objects, each with the last number read (-1: none yet). */
interface Tracked {
  entries: Map<UID, number>;
  api: Map<UID, number>;
  /** A fresh entry's apiStatusVersions as the old entry left it (upstream's deletePodStatus keeps
   *  them): not this entry's, so not judged until the first write for it changes the number. */
  stale: Map<UID, number | undefined>;
}

/** One node's kubelet as tracked: the incarnation, its pods, and those to read back. */
class NodeTrack {
  incarnation: KubeletView | null;
  readonly byKey = new Map<string, Tracked>();
  readonly keyOfUID = new Map<UID, string>();
  readonly dirty = new Set<string>();
  constructor(readonly node: NodeView) {
    this.incarnation = node.kubelet();
  }
  forgetAll(): void {
    this.byKey.clear();
    this.keyOfUID.clear();
    this.dirty.clear();
    this.incarnation = this.node.kubelet();
  }
}

export class VersionMonotonic extends Checker {
  private readonly nodes = new Map<string, NodeTrack>();
  /** The nodes to look at when the instant ends: something of theirs is dirty, or their kubelet
   *  started or stopped (a new incarnation forgets everything). */
  private readonly touched = new Set<NodeTrack>();

  constructor(feeds: Feeds) {
    super('version-monotonic', feeds.w);
    for (const node of feeds.w.nodes) this.nodes.set(node.name, new NodeTrack(node));
    const trackOf = (r: TraceRecord): NodeTrack => this.nodes.get(feeds.nodeOfRecord(r).name)!;
    feeds.onTrace(['status.set'], (r) => this.onSet(trackOf(r), r));
    feeds.onTrace(['kubelet.start', 'kubelet.stop'], (r) => {
      const n = trackOf(r);
      n.forgetAll();
      this.touched.add(n);
    });
    feeds.onTrace(['step'], (r) => {
      if (r.action === 'setApiStatusVersion') for (const t of trackOf(r).byKey.values()) t.api.clear();
    });
    feeds.onTrace(['*'], (r) => {
      if (r.actor !== 'kubelet') return;
      const n = trackOf(r);
      const key = r.pod ?? n.keyOfUID.get(String(r.uid ?? r.podUID ?? ''));
      if (key !== undefined && n.byKey.has(key)) {
        n.dirty.add(key);
        this.touched.add(n);
      }
    });
  }

  private onSet(n: NodeTrack, r: TraceRecord): void {
    const v = r.version;
    const uid = r.uid;
    if (typeof v !== 'number' || typeof uid !== 'string' || r.pod === undefined) return;
    let t = n.byKey.get(r.pod);
    if (t === undefined) n.byKey.set(r.pod, (t = { entries: new Map(), api: new Map(), stale: new Map() }));
    n.keyOfUID.set(uid, r.pod);
    const last = t.entries.get(uid);
    if (v === 1) {
      // a fresh entry: its object's apiStatusVersion starts afresh too
      t.api.delete(uid);
      t.stale.set(uid, n.node.kubelet()?.statusManager.apiStatusVersion(uid));
    }
    else if (last !== undefined && v < last) this.violation(r.pod, `status.set version ${v} after version ${last} of the same cache entry (uid ${uid})`, n.node);
    t.entries.set(uid, v);
    n.dirty.add(r.pod);
    this.touched.add(n);
  }

  /** A node's kubelet changes only with a kubelet.start or kubelet.stop of that node (the site sets
   *  and clears it in the same event), so the nodes touched in the instant are the only ones whose
   *  incarnation can differ from the one tracked. */
  endOfInstant(): void {
    if (this.touched.size === 0) return;
    const nodes = [...this.touched];
    this.touched.clear();
    for (const n of nodes) this.endOfInstantOn(n);
  }

  private endOfInstantOn(n: NodeTrack): void {
    const kl = n.node.kubelet();
    if (kl !== n.incarnation) n.forgetAll();
    if (kl === null || n.dirty.size === 0) return;
    const sm = kl.statusManager;
    for (const key of n.dirty) {
      const t = n.byKey.get(key)!;
      for (const [uid, last] of t.entries) {
        const e = sm.cachedEntry(uid);
        if (e === undefined) {
          t.entries.delete(uid);
          continue;
        }
        if (e.version < last) this.violation(key, `cache entry version went ${last} → ${e.version} (uid ${uid})`, n.node);
        t.entries.set(uid, e.version);
        // The entry's API object: the pod's own, or a static pod's mirror.
        const p = kl.podManager.getPodByUID(uid);
        const apiUID = (p && isStaticPod(p) && kl.podManager.getMirrorPodByPod(p)?.metadata?.uid) || uid;
        if (!t.api.has(apiUID)) t.api.set(apiUID, -1);
      }
      for (const [uid, last] of t.api) {
        const v = sm.apiStatusVersion(uid);
        if (v === undefined) {
          t.api.delete(uid);
          t.stale.delete(uid);
          continue;
        }
        if (t.stale.has(uid)) {
          if (v === t.stale.get(uid)) continue; // still the old entry's number
          t.stale.delete(uid);
        } else if (v < last) this.violation(key, `apiStatusVersion went ${last} → ${v} (uid ${uid})`, n.node);
        t.api.set(uid, v);
      }
      if (t.entries.size === 0 && t.api.size === 0) n.byKey.delete(key);
    }
    n.dirty.clear();
    this.flush();
  }
}
