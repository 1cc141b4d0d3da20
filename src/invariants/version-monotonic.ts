// version-monotonic: within one cache entry's life and one kubelet lifetime, the status manager's
// versions (podStatuses[uid].version) and apiStatusVersions never go down.
//
// Two feeds, both cheap:
//   - every `status.set {version}` record is compared with the last version of that pod's entry
//     (version 1 is how a fresh entry starts: updateStatusInternal bumps the cached version, 0
//     when there is none, so a removed-and-recreated entry always shows version 1);
//   - at the end of every instant, the entries and apiStatusVersions this checker has seen are
//     read back from the status manager: an entry that is gone is forgotten (it starts afresh), a
//     number lower than the last one read is a violation. This catches what no record announces
//     (apiStatusVersions move when a patch's answer arrives).
// A kubelet restart (a new incarnation) forgets everything; the `setApiStatusVersion` step
// overwrites apiStatusVersions as upstream tests do, so it forgets the apiStatusVersions seen.
import { podKey, type UID } from '../model/pod.js';
import type { TraceRecord } from '../world/tracer.js';
import { Checker, type Feeds } from './checker.js';
import type { KubeletView } from './ports.js';

interface Seen {
  value: number;
  pod: string;
}

export class VersionMonotonic extends Checker {
  private incarnation: KubeletView | null = null;
  /** Cache entry versions by pod UID (the status manager's key). */
  private readonly versions = new Map<UID, Seen>();
  /** apiStatusVersions by API object UID. */
  private readonly apiVersions = new Map<UID, Seen>();
  /** Pods whose last status.set carried no uid: their versions by pod key. */
  private readonly versionsByKey = new Map<string, number>();

  constructor(feeds: Feeds) {
    super('version-monotonic', feeds.w);
    feeds.onTrace(['status.set'], (r) => this.onSet(r));
    feeds.onTrace(['kubelet.start', 'kubelet.stop'], () => this.forgetAll());
    feeds.onTrace(['step'], (r) => {
      if (r.action === 'setApiStatusVersion') this.apiVersions.clear();
    });
  }

  private forgetAll(): void {
    this.versions.clear();
    this.apiVersions.clear();
    this.versionsByKey.clear();
    this.incarnation = this.w.kubelet();
  }

  private onSet(r: TraceRecord): void {
    const v = r.version;
    if (typeof v !== 'number') return;
    const pod = r.pod ?? '';
    const uid = typeof r.uid === 'string' && r.uid !== '' ? r.uid : undefined;
    const last = uid !== undefined ? this.versions.get(uid)?.value : this.versionsByKey.get(pod);
    if (last !== undefined && v !== 1 && v < last) this.violation(pod, `status.set version ${v} after version ${last} of the same cache entry${uid ? ` (uid ${uid})` : ''}`);
    if (uid !== undefined) {
      this.versions.set(uid, { value: v, pod });
      if (v === 1) this.apiVersions.delete(uid); // a fresh entry: its object's apiStatusVersion starts afresh too
    }
    else this.versionsByKey.set(pod, v);
  }

  endOfInstant(): void {
    const kl = this.w.kubelet();
    if (kl !== this.incarnation) this.forgetAll();
    if (kl === null) return;
    const sm = kl.statusManager;
    // New entries: start watching them (cachedUIDs is the status manager's small map of pods).
    for (const uid of sm.cachedUIDs()) {
      if (!this.versions.has(uid)) {
        const p = kl.podManager.getPodByUID(uid);
        this.versions.set(uid, { value: -1, pod: p ? podKey(p) : '' });
      }
    }
    for (const [uid, seen] of this.versions) {
      const e = sm.cachedEntry(uid);
      if (e === undefined) {
        this.versions.delete(uid);
        continue;
      }
      if (e.version < seen.value) this.violation(seen.pod, `cache entry version went ${seen.value} → ${e.version} (uid ${uid})`);
      seen.value = e.version;
      // The entry's API object: its own UID, or its mirror's for a static pod.
      const p = kl.podManager.getPodByUID(uid);
      const apiUID = (p && kl.podManager.getMirrorPodByPod(p)?.metadata?.uid) || uid;
      if (!this.apiVersions.has(apiUID)) this.apiVersions.set(apiUID, { value: -1, pod: seen.pod });
    }
    for (const [uid, seen] of this.apiVersions) {
      const v = sm.apiStatusVersion(uid);
      if (v === undefined) {
        this.apiVersions.delete(uid);
        continue;
      }
      if (v < seen.value) this.violation(seen.pod, `apiStatusVersion went ${seen.value} → ${v} (uid ${uid})`);
      seen.value = v;
    }
    this.flush();
  }
}
