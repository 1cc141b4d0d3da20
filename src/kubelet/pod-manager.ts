// pkg/kubelet/pod basicManager: the kubelet's desired pods and mirror pods, and the translation
// between a static pod's UID and its mirror pod's UID.
//
// Pods are stored by reference (as upstream stores pointers): the manager neither copies nor
// freezes what it is given. Lists are returned sorted by UID, never in Map insertion order.
import { isMirrorPod, isStaticPod, podFullName, podUID, ANNOTATION_CONFIG_HASH, ANNOTATION_CONFIG_MIRROR } from '../model/pod.js';
import type { Pod, UID } from '../model/pod.js';
import type { PodManagerApi } from './api.js';

function byUID(a: Pod, b: Pod): number {
  const x = podUID(a);
  const y = podUID(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export class PodManager implements PodManagerApi {
  /** Regular (non-mirror) pods by UID. */
  private podByUID = new Map<UID, Pod>();
  /** Mirror pods by UID. */
  private mirrorPodByUID = new Map<UID, Pod>();
  /** Regular pods by full name "name_namespace". */
  private podByFullName = new Map<string, Pod>();
  /** Mirror pods by full name. */
  private mirrorPodByFullName = new Map<string, Pod>();
  /** Mirror pod UID → static pod UID. */
  private translationByUID = new Map<UID, UID>();
  /** podByUID's values, sorted by UID (getPods hands out copies), and each UID's index there; null
   *  when a key was added or removed. An update of a known UID replaces its pod in place. */
  private sorted: { pods: Pod[]; index: Map<UID, number> } | null = null;
  /** How many pods of podByUID are static (getUIDTranslations walks them only when there are any). */
  private staticPods = 0;
  /** getUIDTranslations' answer, until a change that could alter it: of a mirror pod, of a static
   *  pod (before or after), of a pod with a mirror pod of its full name, or SetPods. */
  private translations: { podToMirror: ReadonlyMap<UID, UID>; mirrorToPod: ReadonlyMap<UID, UID> } | null = null;
  /** See uidVersion. */
  private uids = 0;

  constructor(pods: Iterable<Pod> = []) {
    this.updatePodsInternal(pods);
  }

  /** A counter bumped whenever a pod or mirror pod UID is added or removed: while it stands still,
   *  the UIDs of getPods and getMirrorPods are the same. */
  get uidVersion(): number {
    return this.uids;
  }

  /** SetPods: replace everything with these pods. */
  setPods(pods: Iterable<Pod>): void {
    this.translations = null;
    this.uids++;
    this.podByUID.clear();
    this.mirrorPodByUID.clear();
    this.podByFullName.clear();
    this.mirrorPodByFullName.clear();
    this.translationByUID.clear();
    this.sorted = null;
    this.staticPods = 0;
    this.updatePodsInternal(pods);
  }

  /** AddPod (same as UpdatePod upstream). */
  addPod(pod: Pod): void {
    this.updatePodsInternal([pod]);
  }

  /** UpdatePod */
  updatePod(pod: Pod): void {
    this.updatePodsInternal([pod]);
  }

  /** updatePodsInternal: index each pod; a translation is recorded when a mirror pod and a regular
   *  pod share a full name, whichever of the two arrives second. */
  private updatePodsInternal(pods: Iterable<Pod>): void {
    for (const pod of pods) {
      const fullName = podFullName(pod);
      const uid = podUID(pod);
      if (isMirrorPod(pod)) {
        this.translations = null;
        if (!this.mirrorPodByUID.has(uid)) this.uids++;
        this.mirrorPodByUID.set(uid, pod);
        this.mirrorPodByFullName.set(fullName, pod);
        const p = this.podByFullName.get(fullName);
        if (p) this.translationByUID.set(uid, podUID(p));
      } else {
        const prev = this.podByUID.get(uid);
        if (prev === undefined) {
          this.sorted = null;
          this.uids++;
        } else {
          if (isStaticPod(prev)) this.staticPods--;
          if (this.sorted !== null) this.sorted.pods[this.sorted.index.get(uid)!] = pod;
        }
        if (isStaticPod(pod)) this.staticPods++;
        this.podByUID.set(uid, pod);
        this.podByFullName.set(fullName, pod);
        const m = this.mirrorPodByFullName.get(fullName);
        if (m) this.translationByUID.set(podUID(m), uid);
        if (m || isStaticPod(pod) || (prev !== undefined && isStaticPod(prev))) this.translations = null;
      }
    }
  }

  /** DeletePod: a mirror pod takes its translation with it; a regular (static) pod leaves the
   *  translation in place. */
  removePod(pod: Pod): void {
    const fullName = podFullName(pod);
    const uid = podUID(pod);
    if (isMirrorPod(pod)) {
      this.translations = null;
      if (this.mirrorPodByUID.delete(uid)) this.uids++;
      this.mirrorPodByFullName.delete(fullName);
      this.translationByUID.delete(uid);
    } else {
      const prev = this.podByUID.get(uid);
      if (prev !== undefined) {
        if (isStaticPod(prev)) {
          this.staticPods--;
          this.translations = null;
        }
        this.podByUID.delete(uid);
        this.sorted = null;
        this.uids++;
      }
      this.podByFullName.delete(fullName);
    }
  }

  /** DeletePod, upstream's name. */
  deletePod(pod: Pod): void {
    this.removePod(pod);
  }

  /** GetPods: every regular pod, sorted by UID. */
  getPods(): Pod[] {
    if (this.sorted === null) {
      const pods = [...this.podByUID.values()].sort(byUID);
      this.sorted = { pods, index: new Map(pods.map((p, i) => [podUID(p), i])) };
    }
    return this.sorted.pods.slice();
  }

  /** Calls f with the UID of every regular pod, in no particular order (for sets, where GetPods'
   *  sort and copy would be wasted). */
  forEachPodUID(f: (uid: UID) => void): void {
    for (const uid of this.podByUID.keys()) f(uid);
  }

  /** Every mirror pod, sorted by UID. */
  getMirrorPods(): Pod[] {
    return [...this.mirrorPodByUID.values()].sort(byUID);
  }

  /** GetPodsAndMirrorPods */
  getPodsAndMirrorPods(): { pods: Pod[]; mirrorPods: Pod[] } {
    return { pods: this.getPods(), mirrorPods: this.getMirrorPods() };
  }

  /** GetPodByUID: regular pods only; a mirror UID is never found here. */
  getPodByUID(uid: UID): Pod | undefined {
    return this.podByUID.get(uid);
  }

  /** GetPodByFullName: regular pods only. */
  getPodByFullName(fullName: string): Pod | undefined {
    return this.podByFullName.get(fullName);
  }

  /** GetPodByName */
  getPodByName(namespace: string, name: string): Pod | undefined {
    return this.podByFullName.get(`${name}_${namespace}`);
  }

  /** GetMirrorPodByPod: the mirror pod with the same full name (for any pod). */
  getMirrorPodByPod(pod: Pod): Pod | undefined {
    // every sync asks; without static pods there is nothing to find (and no full name to build)
    if (this.mirrorPodByFullName.size === 0) return undefined;
    return this.mirrorPodByFullName.get(podFullName(pod));
  }

  /** GetPodByMirrorPod: the regular pod with the mirror pod's full name. */
  getPodByMirrorPod(mirror: Pod): Pod | undefined {
    return this.podByFullName.get(podFullName(mirror));
  }

  /** The mirror pod with that UID (inspection). */
  getMirrorPodByUID(uid: UID): Pod | undefined {
    return this.mirrorPodByUID.get(uid);
  }

  /** TranslatePodUID: "" stays ""; a mirror UID with a translation becomes its static pod's UID;
   *  anything else is returned unchanged. */
  translatePodUID(uid: UID): UID {
    if (uid === '') return uid;
    return this.translationByUID.get(uid) ?? uid;
  }

  /** GetUIDTranslations: podToMirror holds "" for every static pod (in podByUID), overwritten by the
   *  real translations; mirrorToPod is a copy of the translation map. (Every status syncBatch asks:
   *  the answer is kept until a change that could alter it, see `translations`.) */
  getUIDTranslations(): { podToMirror: ReadonlyMap<UID, UID>; mirrorToPod: ReadonlyMap<UID, UID> } {
    if (this.translations !== null) return this.translations;
    const podToMirror = new Map<UID, UID>();
    const mirrorToPod = new Map<UID, UID>();
    if (this.staticPods > 0) for (const [uid, pod] of this.podByUID) if (isStaticPod(pod)) podToMirror.set(uid, '');
    for (const [mirror, pod] of this.translationByUID) {
      mirrorToPod.set(mirror, pod);
      podToMirror.set(pod, mirror);
    }
    this.translations = { podToMirror, mirrorToPod };
    return this.translations;
  }

  /** GetOrphanedMirrorPodNames: full names of mirror pods without a regular pod, sorted. */
  getOrphanedMirrorPodNames(): string[] {
    const out: string[] = [];
    for (const fullName of this.mirrorPodByFullName.keys()) if (!this.podByFullName.has(fullName)) out.push(fullName);
    return out.sort();
  }

  /** IsMirrorPodOf: same name and namespace, and the mirror's config.mirror annotation equals the
   *  static pod's config.hash annotation. */
  isMirrorPodOf(mirror: Pod, pod: Pod): boolean {
    if (pod.metadata?.name !== mirror.metadata?.name || pod.metadata?.namespace !== mirror.metadata?.namespace) return false;
    const hash = mirror.metadata?.annotations?.[ANNOTATION_CONFIG_MIRROR];
    if (hash === undefined) return false;
    // Go reads a missing annotation as "".
    return hash === (pod.metadata?.annotations?.[ANNOTATION_CONFIG_HASH] ?? '');
  }
}
