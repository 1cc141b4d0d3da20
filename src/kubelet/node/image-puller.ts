// pkg/kubelet/images: the image manager's pull (EnsureImageExists after its pull policy check) and
// the puller behind it — serialImagePuller, one pull at a time in request order, the default
// (serializeImagePulls: true), or parallelImagePuller (spec.kubelet.serializeImagePulls: false; its
// maxParallelImagePulls limit is not modelled). A pull takes the attempt's `pull` time (none: no
// wait, as kss always had it); while it runs the pod's sync waits in SyncPod, so the container is
// still ContainerCreating. The pull policy: Always pulls every start, IfNotPresent only an image the
// node does not have, Never none; a container without one has the apiserver's default (Always for
// an untagged or :latest image, else IfNotPresent).
import type { Engine, Proc } from '../../engine/index.js';
import type { Container } from '../../model/pod.js';
import { goDuration } from './backoff.js';
import { normalizeImageRef } from './image-ref.js';
import type { Runtime } from './runtime.js';

/** containerd's image store per node: it outlives the kubelet (images stay on disk). */
const presentImages = new WeakMap<Runtime, Set<string>>();

/** SetDefaults_Container's imagePullPolicy: Always for a reference that is :latest once normalized
 *  (no tag, or that tag; never a digest), else IfNotPresent. */
export function pullPolicyOf(c: Container): 'Always' | 'IfNotPresent' | 'Never' {
  if (c.imagePullPolicy) return c.imagePullPolicy as 'Always' | 'IfNotPresent' | 'Never';
  const ref = normalizeImageRef(c.image ?? '');
  return !ref.includes('@') && ref.endsWith(':latest') ? 'Always' : 'IfNotPresent';
}

/** Whether the start of `c` pulls `ref` on the node of `runtime` (imagePullPrecheck). */
export function shouldPull(runtime: Runtime, c: Container, ref: string): boolean {
  const policy = pullPolicyOf(c);
  if (policy === 'Never') return false;
  return policy === 'Always' || !(presentImages.get(runtime)?.has(ref) ?? false);
}

/** The node's puller (one per kubelet incarnation: a restart forgets the queue, not the images). */
export class ImagePuller {
  /** When the pull in progress (and those queued behind it) ends: the serial puller's queue. */
  private busyUntilMs = 0;
  /** When the last pull scheduled of each image ends. */
  private readonly endsOf = new Map<string, number>();

  constructor(
    private readonly serialize: boolean,
    private readonly h: { engine: Engine; runtime: Runtime; log: (level: 'info', msg: string, pod: string) => void },
  ) {}

  /** pullImage: wait for the pulls ahead (serial puller), then pull for `ms` — or for no time when a
   *  pull of the same image ahead of it has brought it (containerd finds every layer present); the
   *  image is then present. */
  *pull(podKey: string, ref: string, requestedMs: number): Proc<void> {
    const asked = this.h.engine.nowMs;
    const startMs = this.serialize ? Math.max(asked, this.busyUntilMs) : asked;
    const ahead = this.endsOf.get(ref);
    const ms = ahead !== undefined && ahead <= startMs ? 0 : requestedMs;
    if (this.serialize) this.busyUntilMs = startMs + ms;
    this.endsOf.set(ref, Math.max(ahead ?? 0, startMs + ms));
    this.h.log('info', `Pulling image ${JSON.stringify(ref)}`, podKey);
    yield startMs + ms - asked;
    markPresent(this.h.runtime, ref);
    this.h.log('info', `Successfully pulled image ${JSON.stringify(ref)} in ${goDuration(ms)} (${goDuration(startMs + ms - asked)} including waiting)`, podKey);
  }
}

/** The image is on the node (a pull ended, or a start that needed none or pulled in no time). */
export function markPresent(runtime: Runtime, ref: string): void {
  let present = presentImages.get(runtime);
  if (present === undefined) presentImages.set(runtime, (present = new Set()));
  present.add(ref);
}
