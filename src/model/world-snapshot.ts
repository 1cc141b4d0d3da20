// The world at one instant, as plain data: what `kss inspect` prints. world/world-snapshot.ts takes
// it from a World (through the read-only accessors), report/inspect.ts renders it; neither knows
// the other.
import type { PodStatus } from './pod.js';

export interface RequestInFlight {
  verb: string;
  sentAt: string;
  /** What the request carries (a PATCH's body, a DELETE's options). */
  sent?: unknown;
}

export interface PodSnapshot {
  pod: string;
  /** The node whose kubelet and runtime the fields below are read from (scenarios with spec.nodes). */
  node?: string;
  /** The apiserver's object, or null when it holds none. */
  apiserver: { uid?: string; resourceVersion?: string; deletionTimestamp?: string; status?: PodStatus } | null;
  /** The status manager's cache entry (null: none) and the version it last sent for the pod. */
  kubelet: {
    cached: { version: number; podIsFinished?: boolean; status: PodStatus } | null;
    apiStatusVersion?: number;
  } | null;
  /** The pod worker's state (the simulated node only). */
  podWorker?: Record<string, unknown>;
  /** The runtime's containers of the pod (the simulated node only). */
  runtime?: Array<Record<string, unknown>>;
  requestsInFlight: RequestInFlight[];
}

/** A Node object as the apiserver holds it (spec.nodeLifecycle): null once deleted. */
export interface NodeObjectSnapshot {
  name: string;
  object: {
    ready: { status: string; reason: string; message: string; lastHeartbeatTime: string; lastTransitionTime: string };
    taints?: Array<{ key: string; effect: string; value?: string; timeAdded: string }>;
    labels?: Record<string, string>;
    /** Its Lease's renewTime (null: no Lease). */
    leaseRenewTime: string | null;
  } | null;
}

/** A node's kubelet now. With its container runtime in trouble (restartRuntime, networkPluginDown):
 *  what containerd does, the kubelet's runtimeErrors and network error, and whether its sync loop
 *  sleeps on them (each absent while all is well). */
export interface KubeletSnapshot {
  up: boolean;
  incarnation?: number;
  statusChannel?: { queued: number; capacity: number };
  containerRuntime?: { down?: true; networkNotReady?: true };
  runtimeErrors?: string[];
  networkError?: string;
  syncLoop?: 'sleeping';
}

export interface WorldSnapshot {
  scenario: string;
  seed: number;
  variant: string;
  /** The instant, after every event at it. */
  at: string;
  /** The default node's kubelet (the only one without spec.nodes). */
  kubelet: KubeletSnapshot;
  /** With spec.nodes: every node's kubelet, in the scenario's order (the first is `kubelet`). */
  nodes?: Array<{ name: string; kubelet: KubeletSnapshot }>;
  /** With spec.nodeLifecycle: every Node by name (a scenario's node deleted: object null). */
  nodeObjects?: NodeObjectSnapshot[];
  faultsInForce: Array<{ fault: string; since: string; [k: string]: unknown }>;
  /** The apiserver under load (spec.apiserver.serviceTime / apf): requests executing, and each
   *  priority level's seats and queues. Absent without load. */
  apiserverLoad?: { executing: number; priorityLevels?: Array<{ name: string; seats: number; seatsInUse: number; waiting: number; rejected: number; dispatched: number }> };
  pods: PodSnapshot[];
}
