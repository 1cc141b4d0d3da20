// Static pods and their mirror pods (pkg/kubelet/pod mirror_client.go, kubelet_pods.go,
// pkg/kubelet/config file source).
import { produce } from 'immer';
import type { Proc } from '../../engine/index.js';
import type { KubeClient } from '../../model/client.js';
import {
  ANNOTATION_CONFIG_HASH,
  ANNOTATION_CONFIG_MIRROR,
  ANNOTATION_CONFIG_SOURCE,
  podKey,
  type Pod,
  type UID,
} from '../../model/pod.js';
import type { Tracer } from '../../model/trace.js';
import { fnv1a32, stableStringify } from './backoff.js';

/** getPodHash: the static pod's kubernetes.io/config.hash. */
export function getPodHash(pod: Pod): string {
  return pod.metadata?.annotations?.[ANNOTATION_CONFIG_HASH] ?? '';
}

/** getHashFromMirrorPod */
export function getHashFromMirrorPod(mirror: Pod): string | undefined {
  return mirror.metadata?.annotations?.[ANNOTATION_CONFIG_MIRROR];
}

/** IsMirrorPodOf: same name and namespace, and the mirror carries the static pod's hash. */
export function isMirrorPodOf(mirror: Pod, pod: Pod): boolean {
  if (mirror.metadata?.name !== pod.metadata?.name || mirror.metadata?.namespace !== pod.metadata?.namespace) return false;
  const h = getHashFromMirrorPod(mirror);
  return h !== undefined && h === getPodHash(pod);
}

/** A 32-hex-digit hash (what the file source's md5 is for). */
function hex32(s: string): string {
  let out = '';
  for (let i = 0; i < 4; i++) out += fnv1a32(`${i}:${s}`).toString(16).padStart(8, '0');
  return out;
}

/** What the file source does to a manifest: namespace default, spec.nodeName the node, a UID and a
 *  config hash derived from the content and the node name (kept when the manifest already has them),
 *  and kubernetes.io/config.source = file. */
export function staticPodFromManifest(manifest: Pod, nodeName: string): Pod {
  return produce(manifest, (d) => {
    d.metadata ??= {};
    d.metadata.namespace ||= 'default';
    d.spec ??= { containers: [] };
    d.spec.nodeName ||= nodeName;
    const hash = hex32(`${stableStringify(manifest)}/${nodeName}`);
    d.metadata.uid ||= hash;
    const ann = { ...(d.metadata.annotations ?? {}) };
    ann[ANNOTATION_CONFIG_HASH] ||= d.metadata.uid;
    ann[ANNOTATION_CONFIG_SOURCE] ||= 'file';
    d.metadata.annotations = ann;
  });
}

/** The mirror pod the kubelet creates for a static pod: a copy with the config.mirror annotation set
 *  to the static pod's hash, without UID, version or status (the apiserver assigns those). */
export function mirrorPodFor(pod: Pod): Pod {
  return produce(pod, (d) => {
    d.metadata ??= {};
    delete d.metadata.uid;
    delete d.metadata.resourceVersion;
    delete d.metadata.creationTimestamp;
    delete d.metadata.deletionTimestamp;
    delete d.metadata.deletionGracePeriodSeconds;
    d.metadata.annotations = { ...(d.metadata.annotations ?? {}), [ANNOTATION_CONFIG_MIRROR]: getPodHash(pod) };
    delete d.status;
  });
}

/** mirrorClient */
export class MirrorClient {
  constructor(private readonly client: KubeClient, private readonly tracer: Tracer) {}

  /** CreateMirrorPod: AlreadyExists is success (the existing mirror is judged on the next sync). */
  *createMirrorPod(pod: Pod): Proc<boolean> {
    const mirror = mirrorPodFor(pod);
    const r = yield* this.client.createPod(mirror);
    if (r.ok) {
      this.tracer.emit({ type: 'mirror.create', actor: 'kubelet', pod: podKey(pod), uid: pod.metadata?.uid, mirrorUID: r.value.metadata?.uid, code: 201 });
      return true;
    }
    this.tracer.emit({ type: 'mirror.create', actor: 'kubelet', pod: podKey(pod), uid: pod.metadata?.uid, code: r.code });
    if (r.code !== 409) this.tracer.log('error', `Failed creating a mirror pod: ${r.message}`, podKey(pod));
    return false;
  }

  /** DeleteMirrorPod(podFullName, uid): grace 0 and, when given, a UID precondition. NotFound and
   *  Conflict are quietly "not deleted". */
  *deleteMirrorPod(mirror: Pod, uid: UID | undefined): Proc<boolean> {
    const ns = mirror.metadata?.namespace ?? '';
    const name = mirror.metadata?.name ?? '';
    const opts = uid === undefined ? { gracePeriodSeconds: 0 } : { gracePeriodSeconds: 0, uid };
    const r = yield* this.client.deletePod(ns, name, opts);
    this.tracer.emit({ type: 'mirror.delete', actor: 'kubelet', pod: podKey(mirror), uid: mirror.metadata?.uid, precondition: uid, code: r.ok ? 200 : r.code });
    if (r.ok) return true;
    if (r.code !== 404 && r.code !== 409) this.tracer.log('error', `Failed deleting a mirror pod: ${r.message}`, podKey(mirror));
    return false;
  }
}
