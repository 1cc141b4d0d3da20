// The world's read-only view: what the invariant checkers read of a run, as small structural
// interfaces. It lives below both the world (world/invariant-view.ts adapts the World to it) and
// the invariants (which read only this), so every import points down; tests hand in small fakes.
// Everything here is read only; a checker never writes to the world except its own
// `invariant.violation` trace records.
import type { Pod, PodStatus, UID } from './pod.js';
import type { TraceEvent, TraceRecord } from './trace.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change of the apiserver's store, as its watch gives it (synchronously, every write). */
export interface ApiWatchEvent {
  type: WatchEventType;
  object: Pod;
  /** Who wrote it: 'kubelet' for the kubelet's own requests; anyone else is the environment. */
  actor?: string;
}

/** The apiserver, read only: its own watch (not the kubelet's view over the network). */
export interface ApiServerView {
  watch(listener: (ev: ApiWatchEvent) => void): unknown;
  peek(namespace: string, name: string): Pod | undefined;
  list(): readonly Pod[];
}

/** The simulated container runtime (kubelet/node Runtime): the container instances of a pod UID
 *  that still run (one that got SIGTERM but has not exited yet still runs). */
export interface RuntimeView {
  runningContainers(podUID: UID): readonly { readonly name: string }[];
  /** The instance of that ID (still in the runtime): whether it runs, and its probes' answers. */
  container?(id: string): { readonly running: boolean; readonly probeAnswers: { readonly readiness?: boolean } } | undefined;
}

/** The status manager's inspection hooks (the read-only part of kubelet/api.ts StatusManagerApi). */
export interface StatusManagerView {
  cachedEntry(uid: UID): { status: PodStatus; version: number; podIsFinished?: boolean } | undefined;
  apiStatusVersion(apiUID: UID): number | undefined;
  cachedUIDs(): Iterable<UID>;
}

/** The pod manager, read only (kubelet/api.ts PodManagerApi's lookups). */
export interface PodManagerView {
  getPodByUID(uid: UID): Pod | undefined;
  getMirrorPodByPod(pod: Pod): Pod | undefined;
  getPodByMirrorPod(mirror: Pod): Pod | undefined;
}

/** One kubelet incarnation (a restart makes a new one, with a fresh status manager). */
export interface KubeletView {
  readonly n: number;
  readonly statusManager: StatusManagerView;
  readonly podManager: PodManagerView;
}

/** The run's trace: checkers listen to every record and emit their violations into it. */
export interface TraceView {
  readonly listeners: Array<(r: TraceRecord) => void>;
  emit(e: TraceEvent): void;
}

/** One node's kubelet configuration in this run, as the checkers read it. */
export interface NodeConfigView {
  readonly nodeName: string;
  readonly syncPeriodMs: number;
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** The client's QPS (bounded-staleness); absent in fakes: 5. */
  readonly apiQPS?: number;
  /** The node's stalenessBound (bounded-staleness judges a node only when it is set). */
  readonly stalenessBoundMs?: number;
}

/** One node of the run (spec.nodes; else the one node of spec.kubelet): what its kubelet holds,
 *  what its runtime runs, how it is configured. */
export interface NodeView {
  readonly name: string;
  /** null with `runtime: none`. */
  readonly runtime: RuntimeView | null;
  /** The node's kubelet incarnation now, or null while it is down. */
  kubelet(): KubeletView | null;
  readonly config: NodeConfigView;
  /** Whether the apiserver's status of `api` is equal to `cached`, as this node's kubelet judges
   *  equality (normalizeStatus on the API status, then isPodStatusByKubeletEqual, its gates). */
  statusEqual(api: Pod, cached: PodStatus): boolean;
}

/** Everything an invariant checker reads. */
export interface InvariantWorld {
  /** Virtual time now, the number of engine events run so far (the current event's number while
   *  it runs and right after), and the events still queued (0: the run is idle, nothing more can
   *  happen). */
  readonly engine: { readonly nowMs: number; readonly events: number; readonly pending: number };
  /** Absolute ms of virtual time 0 (spec.epoch): timestamps in statuses are epochMs + virtual ms. */
  readonly epochMs: number;
  readonly tracer: TraceView;
  readonly apiserver: ApiServerView;
  /** Every node of the run, the default node first (never empty). */
  readonly nodes: readonly NodeView[];
  /** Whether the run's trace names nodes (a scenario with spec.nodes: its kubelets' records carry
   *  `node`): violations then name theirs too. */
  readonly namesNodes: boolean;
  /** The node a pod ("ns/name") of the scenario is bound to: its spec.nodeName, else (no nodeName,
   *  a node the run lacks, a key the scenario never named: a mirror pod) the default node. */
  nodeOfPod(key: string): NodeView;
  readonly seed: number;
  /** The status-manager generation (scenario Variant). */
  readonly variant: 'classic' | 'transitional' | 'current';
  readonly untilMs: number;
  /** Keys ("ns/name") of apiserver objects on another node (`only: apiserver`): no kubelet of this
   *  run is responsible for them. */
  readonly foreignKeys: ReadonlySet<string>;
  /** The last instant at which the scenario itself still does something: its last timeline step or
   *  scheduled create (0 when there is none). */
  readonly lastScheduledMs: number;
}
