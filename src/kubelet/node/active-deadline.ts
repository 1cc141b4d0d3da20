// pkg/kubelet/active_deadline.go (identical v1.20..v1.31): the activeDeadlineHandler, a pod sync loop
// handler (ShouldSync: getPodsToSync syncs the pod on every 1 s tick once past the deadline) and a
// pod sync handler (ShouldEvict: generateAPIPodStatus writes Failed, DeadlineExceeded).
import type { Pod, PodStatus } from '../../model/pod.js';

export const DeadlineExceededReason = 'DeadlineExceeded';
export const DeadlineExceededMessage = 'Pod was active on the node longer than the specified deadline';

/** ShouldEvictResponse of an evicting handler. */
export interface EvictResponse {
  reason: string;
  message: string;
}

/** pastActiveDeadline: the pod has spec.activeDeadlineSeconds and at least that long has passed
 *  since its status's startTime (the status manager's cached status, else the API one). */
export function pastActiveDeadline(pod: Pod, cached: PodStatus | undefined, nowMs: number, toVirtual: (s: string) => number | undefined): boolean {
  const deadline = pod.spec?.activeDeadlineSeconds;
  if (deadline === undefined || deadline === null) return false;
  const status = cached ?? pod.status ?? {};
  if (!status.startTime) return false;
  const start = toVirtual(status.startTime);
  if (start === undefined) return false;
  return nowMs - start >= deadline * 1000;
}

/** ShouldEvict */
export function shouldEvict(pod: Pod, cached: PodStatus | undefined, nowMs: number, toVirtual: (s: string) => number | undefined): EvictResponse | undefined {
  if (!pastActiveDeadline(pod, cached, nowMs, toVirtual)) return undefined;
  return { reason: DeadlineExceededReason, message: DeadlineExceededMessage };
}
