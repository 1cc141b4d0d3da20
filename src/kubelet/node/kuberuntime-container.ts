// pkg/kubelet/kuberuntime/kuberuntime_container.go startContainer, with the image manager's
// EnsureImageExists (pkg/kubelet/images/image_manager.go): the ways a start fails before or while
// the container is created, as an attempt's `startError` says — ErrImagePull (and, while the pull
// back-off lasts, ImagePullBackOff), CreateContainerConfigError, CreateContainerError, and a failed
// OCI start (RunContainerError: the runtime keeps an exited 128 StartError container), a
// StartContainer call cut off after CreateContainer (RunContainerError: the container stays created),
// and, with containerd down, the image's inspection (ImageInspectError).
import type { Container, Pod } from '../../model/pod.js';
import type { Attempt } from '../../scenario/types.js';
import type { KubeletState } from './kubelet-state.js';
import { DEFAULT_ATTEMPT } from './runtime.js';
import { markPresent, shouldPull } from './image-puller.js';

export const ErrImagePull = 'ErrImagePull';
export const ErrImagePullBackOff = 'ImagePullBackOff';
export const ErrCreateContainerConfig = 'CreateContainerConfigError';
export const ErrCreateContainer = 'CreateContainerError';
export const ErrRunContainer = 'RunContainerError';
export const ErrImageInspect = 'ImageInspectError';
/** The gRPC error of a CRI call while containerd is down (restartRuntime). */
export const CRI_UNAVAILABLE = 'rpc error: code = Unavailable desc = connection error';

/** A failed start: the error (the waiting reason) and its message. */
export interface StartFailureResult {
  error: string;
  message: string;
}

/** applyDefaultImageTag (v1.30+): an image with neither tag nor digest gets ":latest". */
export function applyDefaultImageTag(image: string): string {
  if (image.includes('@')) return image;
  const last = image.slice(image.lastIndexOf('/') + 1);
  return last.includes(':') ? image : `${image}:latest`;
}

/** The attempt the next start of the container runs: by the instances created so far and the
 *  starts that failed before creating one (the last attempt repeats). */
export function nextAttempt(kl: KubeletState, pod: Pod, c: Container): Attempt {
  const uid = pod.metadata?.uid ?? '';
  const prev = kl.runtime.latestContainer(uid, c.name);
  const n = (prev === undefined ? 0 : prev.restartCount + 1) + kl.runtime.failedStartsOf(uid, c.name);
  const attempts = kl.behaviour(pod)[c.name] ?? [];
  return attempts.length > 0 ? attempts[Math.min(n, attempts.length - 1)] : DEFAULT_ATTEMPT;
}

/** The image reference the pull back-off is keyed by (per pod; v1.30+ applies the default tag). */
export function pullRef(kl: KubeletState, c: Container): string {
  return kl.gen === 'current' ? applyDefaultImageTag(c.image ?? '') : c.image ?? '';
}

/** EnsureImageExists's failed pull: ErrImagePull, and the pull back-off moves on. */
function ensureImageExists(kl: KubeletState, pod: Pod, c: Container, attempt: Attempt): StartFailureResult {
  const image = pullRef(kl, c);
  kl.imageBackoff.next(`${pod.metadata?.uid ?? ''}_${image}`, kl.engine.nowMs);
  const message = attempt.message ?? `rpc error: code = NotFound desc = failed to pull and unpack image "${image}": not found`;
  return { error: ErrImagePull, message };
}

/** startContainer: pull the image (ImagePullBackOff while the pull back-off of the pod's image —
 *  10 s doubling to 5 min — lasts since its last failed pull), generate the config, create, start.
 *  Returns the failure, if the start fails (undefined: the container runs its attempt). A start
 *  refused by the back-off pulled nothing: its attempt is still to come. */
export function startContainerChecked(kl: KubeletState, pod: Pod, c: Container, attempt: Attempt = nextAttempt(kl, pod, c)): StartFailureResult | undefined {
  const uid = pod.metadata?.uid ?? '';
  // EnsureImageExists asks the pull back-off before any pull (only a failed pull makes an entry)
  const image = pullRef(kl, c);
  const key = `${uid}_${image}`;
  // containerd down (restartRuntime): EnsureImageExists's first call, GetImageRef, fails
  if (kl.runtime.criDown) return { error: ErrImageInspect, message: `Failed to inspect image "${c.image ?? ''}": ${CRI_UNAVAILABLE}` };
  if (kl.imageBackoff.isInBackOffSinceUpdate(key, kl.engine.nowMs)) return { error: ErrImagePullBackOff, message: `Back-off pulling image "${image}"` };
  // the interruptStart fault: CreateContainer done, StartContainer's call cut off (upstream
  // startContainer returns the gRPC message with ErrRunContainer); the instance stays created
  if (kl.runtime.takeInterruptedStart(uid, c.name)) {
    kl.runtime.createContainerOnly(pod, c, attempt);
    return { error: ErrRunContainer, message: 'context deadline exceeded' };
  }
  switch (attempt.startError) {
    case undefined:
      markPresent(kl.runtime, image);
      kl.runtime.startContainer(pod, c, attempt);
      kl.recorder?.containerStarted(pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '', c.name);
      return undefined;
    case 'ErrImagePull':
      kl.runtime.noteFailedStart(uid, c.name);
      return ensureImageExists(kl, pod, c, attempt);
    case 'CreateContainerConfigError':
      kl.runtime.noteFailedStart(uid, c.name);
      return { error: ErrCreateContainerConfig, message: attempt.message ?? 'secret "app-secret" not found' };
    case 'CreateContainerError':
      kl.runtime.noteFailedStart(uid, c.name);
      return { error: ErrCreateContainer, message: attempt.message ?? 'failed to reserve container name' };
    case 'StartError': {
      const message =
        attempt.message ??
        `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "${c.command?.[0] ?? '/app'}": executable file not found in $PATH: unknown`;
      kl.runtime.startContainerFailing(pod, c, attempt, message);
      return { error: ErrRunContainer, message };
    }
  }
}

/** The timed pull the next start of `c` makes before it creates the container, if any: the
 *  attempt's `pull` time, when the pull policy pulls and neither containerd being down nor the pull
 *  back-off refuses the pull first (startContainerChecked then fails at once, as before). */
export function timedPull(kl: KubeletState, pod: Pod, c: Container, attempt: Attempt): { ref: string; ms: number } | undefined {
  const ms = attempt.pullMs ?? 0;
  if (ms <= 0 || kl.runtime.criDown) return undefined;
  const ref = pullRef(kl, c);
  if (kl.imageBackoff.isInBackOffSinceUpdate(`${pod.metadata?.uid ?? ''}_${ref}`, kl.engine.nowMs)) return undefined;
  return shouldPull(kl.runtime, c, ref) ? { ref, ms } : undefined;
}
