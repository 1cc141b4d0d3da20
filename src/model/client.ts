// What the kubelet may ask of the apiserver. The kubelet holds only this interface; requests travel
// over network/ (latency, injected errors, partitions, client QPS) to apiserver/.
import type { Proc } from '../engine/index.js';
import type { Pod } from './pod.js';

/** An HTTP-ish failure: 404 NotFound, 409 Conflict, 429, 500, a timeout (no answer within
 *  requestTimeout), or 503 while the apiserver is down. */
export type ApiErrorCode = 404 | 409 | 422 | 429 | 500 | 503 | 'timeout';

/** A failure may carry the answer's Retry-After header (seconds): the apiserver's 429 from flow
 *  control does; client-go's rest client then waits and retries (network-client.ts). */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; code: ApiErrorCode; message: string; retryAfterSeconds?: number };

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  /** Preconditions.UID */
  uid?: string;
}

export interface KubeClient {
  getPod(namespace: string, name: string): Proc<ApiResult<Pod>>;
  /** PATCH pods/<name>/status with a strategic merge patch ({metadata:{uid}, status:{...}}). */
  patchPodStatus(namespace: string, name: string, patch: object): Proc<ApiResult<Pod>>;
  /** DELETE; value is the object after a graceful delete, or null once removed. */
  deletePod(namespace: string, name: string, opts: DeleteOptions): Proc<ApiResult<Pod | null>>;
  createPod(pod: Pod): Proc<ApiResult<Pod>>;
  /** POST serviceaccounts/{sa}/token bound to a pod (the token manager's CreateToken). */
  /** POST events: one event about a pod's container (the kubelet's event sink). */
  createEvent?(namespace: string, podName: string, reason: string, container: string): Proc<ApiResult<string>>;
  createToken?(namespace: string, serviceAccount: string, podName: string): Proc<ApiResult<string>>;
}

/** What the status manager asks about whether a pod may be deleted from the API.
 *  classic: PodResourcesAreReclaimed(pod, status); current: PodCouldHaveRunningContainers(pod). */
export interface PodDeletionSafetyProvider {
  podResourcesAreReclaimed(pod: Pod, status: import('./pod.js').PodStatus): boolean;
  podCouldHaveRunningContainers(pod: Pod): boolean;
}
