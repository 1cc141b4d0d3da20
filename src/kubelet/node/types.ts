// The container runtime's view of a pod (upstream kubecontainer.PodStatus / kubecontainer.Status):
// what the PLEG caches and what the pod workers turn into an API status.
import type { UID } from '../../model/pod.js';

/** kubecontainer.State */
export type ContainerRuntimeState = 'created' | 'running' | 'exited' | 'unknown';

/** kubecontainer.Status: one container instance (one attempt) as the runtime reports it. */
export interface RuntimeContainerStatus {
  /** "containerd://<hex>" (kubecontainer.ContainerID.String()). */
  readonly id: string;
  readonly name: string;
  readonly state: ContainerRuntimeState;
  /** Virtual ms. */
  readonly createdAtMs: number;
  readonly startedAtMs: number;
  readonly finishedAtMs?: number;
  readonly exitCode?: number;
  readonly reason?: string;
  readonly message?: string;
  /** The restart count the runtime recorded on this instance (0 for the first attempt). */
  readonly restartCount: number;
  readonly image: string;
  /** ImageRef: the image's repo digest (the API's imageID). */
  readonly imageRef: string;
}

/** The pod sandbox (only its existence and readiness matter to status). */
export interface RuntimeSandboxStatus {
  readonly id: string;
  /** How many sandboxes this pod has had before this one. */
  readonly attempt: number;
  readonly ready: boolean;
  /** The sandbox's pod IP (the CNI's answer). */
  readonly ip: string;
}

/** kubecontainer.PodStatus: every container instance of the pod, newest first. */
export interface RuntimePodStatus {
  readonly uid: UID;
  readonly name: string;
  readonly namespace: string;
  readonly sandbox: RuntimeSandboxStatus | null;
  readonly containers: readonly RuntimeContainerStatus[];
}

/** kubecontainer.PodStatus.FindContainerStatusByName: the newest instance of that name. */
export function findContainerStatusByName(status: RuntimePodStatus, name: string): RuntimeContainerStatus | undefined {
  for (const c of status.containers) if (c.name === name) return c;
  return undefined;
}

/** An empty runtime status (the pod has nothing in the runtime). */
export function emptyRuntimePodStatus(uid: UID, name = '', namespace = ''): RuntimePodStatus {
  return { uid, name, namespace, sandbox: null, containers: [] };
}

/** The kubelet generation a piece of node behaviour follows (the status manager's, scenario
 *  `statusManager`): classic = v1.19/v1.20, current = v1.27+ (baseline v1.31). */
export type { Generation } from '../status/types.js';
