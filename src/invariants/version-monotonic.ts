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
import { isStaticPod, type UID } from '../model/pod.js';
import type { TraceRecord } from '../model/trace.js';
import { Checker, type Feeds } from './checker.js';
import type { KubeletView } from '../model/world-view.js';

/** What is tracked of one pod (by key): its cache entries and the apiStatusVersions of their
 *  API objects, each with the last number read (-1: none yet). */
interface Tracked {
  entries: Map<UID, number>;
  api: Map<UID, number>;
  /** A fresh entry's apiStatusVersions as the old entry left it (upstream's deletePodStatus keeps
   *  them): not this entry's, so not judged until the first write for it changes the number. */
  stale: Map<UID, number | undefined>;
}

export class VersionMonotonic extends Checker {
  private incarnation: KubeletView | null;
  private readonly byKey = new Map<string, Tracked>();
  private readonly keyOfUID = new Map<UID, string>();
  private readonly dirty = new Set<string>();

  constructor(feeds: Feeds) {
    super('version-monotonic', feeds.w);
    this.incarnation = feeds.w.kubelet();
    feeds.onTrace(['status.set'], (r) => this.onSet(r));
    feeds.onTrace(['kubelet.start', 'kubelet.stop'], () => this.forgetAll());
    feeds.onTrace(['step'], (r) => {
      if (r.action === 'setApiStatusVersion') for (const t of this.byKey.values()) t.api.clear();
    });
    feeds.onTrace(['*'], (r) => {
      if (r.actor !== 'kubelet') return;
      const key = r.pod ?? this.keyOfUID.get(String(r.uid ?? r.podUID ?? ''));
      if (key !== undefined && this.byKey.has(key)) this.dirty.add(key);
    });
  }

  private forgetAll(): void {
    this.byKey.clear();
    this.keyOfUID.clear();
    this.dirty.clear();
    this.incarnation = this.w.kubelet();
  }

  private onSet(r: TraceRecord): void {
    const v = r.version;
    const uid = r.uid;
    if (typeof v !== 'number' || typeof uid !== 'string' || r.pod === undefined) return;
    let t = this.byKey.get(r.pod);
    if (t === undefined) this.byKey.set(r.pod, (t = { entries: new Map(), api: new Map(), stale: new Map() }));
    this.keyOfUID.set(uid, r.pod);
    const last = t.entries.get(uid);
    if (v === 1) {
      // a fresh entry: its object's apiStatusVersion starts afresh too
      t.api.delete(uid);
      t.stale.set(uid, this.w.kubelet()?.statusManager.apiStatusVersion(uid));
    }
    else if (last !== undefined && v < last) this.violation(r.pod, `status.set version ${v} after version ${last} of the same cache entry (uid ${uid})`);
    t.entries.set(uid, v);
    this.dirty.add(r.pod);
  }

  endOfInstant(): void {
    const kl = this.w.kubelet();
    if (kl !== this.incarnation) this.forgetAll();
    if (kl === null || this.dirty.size === 0) return;
    const sm = kl.statusManager;
    for (const key of this.dirty) {
      const t = this.byKey.get(key)!;
      for (const [uid, last] of t.entries) {
        const e = sm.cachedEntry(uid);
        if (e === undefined) {
          t.entries.delete(uid);
          continue;
        }
        if (e.version < last) this.violation(key, `cache entry version went ${last} → ${e.version} (uid ${uid})`);
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
        } else if (v < last) this.violation(key, `apiStatusVersion went ${last} → ${v} (uid ${uid})`);
        t.api.set(uid, v);
      }
      if (t.entries.size === 0 && t.api.size === 0) this.byKey.delete(key);
    }
    this.dirty.clear();
    this.flush();
  }
}
