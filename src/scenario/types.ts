// The typed, defaulted Scenario that the loader produces from YAML (scenario-format.md, v1alpha1).
// Durations are integer ms. `@<duration>` strings inside status values are already resolved to
// RFC 3339 text. Pod references are normalized to "namespace/name".
import type { Container, Pod, PodStatus } from '../model/pod.js';
import type { FixName, ProposedFixName } from '../model/fixes.js';

/** Where a node of the YAML document came from, for verdicts that point back at the file. */
export interface SourcePos {
  line: number; // 1-based
  col: number; // 1-based
}

export type Variant = 'classic' | 'transitional' | 'current';
export type RuntimeKind = 'simulated' | 'none';

export interface LatencyRange {
  minMs: number;
  maxMs: number;
}
export interface Latency {
  get: LatencyRange;
  patch: LatencyRange;
  delete: LatencyRange;
  create: LatencyRange;
}

export type FeatureGate = 'PodDisruptionConditions' | 'PodReadyToStartContainersCondition' | 'SidecarContainers' | 'ChangeContainerStatusOnKubeletRestart' | 'RecursiveReadOnlyMounts';

/** A gate's default: on in current, off in classic and transitional; ChangeContainerStatusOnKubeletRestart
 *  (KEP-4781, after every release kss ports) is on everywhere: the restart resets probe state, as
 *  those releases do. */
export function featureGateDefault(gate: string, variant: 'classic' | 'transitional' | 'current'): boolean {
  return gate === 'ChangeContainerStatusOnKubeletRestart' ? true : variant === 'current';
}

export interface KubeletEventsConfig {
  /** Post through the kubelet's API client and its QPS (the 2015 kubelet) instead of an event client of its own. */
  sharedClient: boolean; // default false
  eventRecordQPS: number; // default 50
  eventBurst: number; // default 100
  /** Also the infra ("POD") container's three events when a sandbox is made (docker-era kubelet). */
  podInfraContainer: boolean; // default false
}

export interface KubeletConfig {
  nodeName: string; // default node-a
  statusManager: Variant; // default current
  syncPeriodMs: number; // default 10000
  statusChannelCapacity: number; // default 1000 (classic only)
  runtime: RuntimeKind; // default simulated
  plegRelistPeriodMs: number; // default 1000
  apiQPS: number; // default 50 (current), 5 (classic, transitional: before v1.27)
  apiBurst: number; // default 100 (current), 10 (classic, transitional)
  requestTimeoutMs: number; // default 10000
  /** The kubelet's event recorder (absent: no events are posted). */
  events?: KubeletEventsConfig;
  deletionSafety: { podResourcesReclaimed: boolean; podCouldHaveRunningContainers: boolean }; // true / false
  /** Every gate resolved: explicit values, else the generation's default (off classic, on current). */
  featureGates: Record<FeatureGate, boolean>;
  /** The gates the file set explicitly (the rest follow the generation, also under --status-manager). */
  explicitFeatureGates: Partial<Record<FeatureGate, boolean>>;
  /** Extension: the upstream fixes taken back out (model/fixes.ts; default none). */
  revertFixes: FixName[];
  /** Extension: fixes proposed upstream and never merged, put in (model/fixes.ts; default none). */
  proposedFixes: ProposedFixName[];
  /** Extension: the bounded-staleness invariant's base bound (absent: that invariant judges nothing). */
  stalenessBoundMs?: number;
  /** The node's allocatable resources the predicate admit handler checks (absent: no limit). */
  allocatable?: Allocatable;
  /** --serialize-image-pulls (default true: one pull at a time). */
  serializeImagePulls?: boolean;
  /** The node's labels from spec.nodes[].labels (the predicate admit handler's node affinity;
   *  the kubelet's own hostname, os and arch labels are added under them). */
  nodeLabels?: Record<string, string>;
}

/** node.status.allocatable as `spec.kubelet.allocatable` gives it (quantities as written). */
export interface Allocatable {
  cpu?: string | number;
  memory?: string | number;
  'ephemeral-storage'?: string | number;
  pods?: number;
}

/** One container attempt of `x-kss.containers`. The last entry repeats. */
export interface Attempt {
  runMs: number | 'forever';
  exit: number; // default 0
  /** How the attempt meets SIGTERM: exits 143 that long after it (default 0), or ignores it. */
  term: number | 'ignore';
  reason?: string;
  message?: string;
  /** Extension: the readiness / startup probe results while this attempt runs (default: ready
   *  once running when the container has a probe... see README). */
  ready?: boolean;
  started?: boolean;
  /** Extension: what the liveness probe answers while this attempt runs (default: no answer). */
  live?: boolean;
  /** Extension: this start fails (the image pull, the container config, the create, or the OCI
   *  start); `message` is the error's text. */
  startError?: StartErrorKind;
  /** Extension: the exit code on SIGTERM (default 143; 0 is a clean exit, reason Completed). */
  onTerm?: number;
  /** Extension: how long the container's preStop hook (spec lifecycle.preStop) takes, ms. */
  preStopMs?: number;
  /** Extension: how long its postStart hook takes, ms (the start waits for it). */
  postStartMs?: number;
  /** Extension: how long the image pull before this attempt takes, ms (when the pull policy pulls). */
  pullMs?: number;
  /** Extension: the postStart hook fails (non-zero: an exec hook's exit code, an httpGet hook's
   *  refused connection); the kubelet kills the container, PostStartHookError. */
  postStartExit?: number;
}

/** The start failures an attempt can name (kuberuntime_container.go startContainer's errors). */
export type StartErrorKind = 'ErrImagePull' | 'CreateContainerConfigError' | 'CreateContainerError' | 'StartError';

export interface ScenarioPod {
  /** The manifest with apiserver defaults applied (namespace, restartPolicy, grace, nodeName,
   *  status Pending + qosClass when no status was given). uid is set when the file gave one. */
  pod: Pod;
  key: string; // "ns/name"
  createAtMs: number | 'never';
  only?: 'kubelet' | 'apiserver';
  containers: Record<string, Attempt[]>;
  static: boolean;
  pos: SourcePos;
}

export type StepAction =
  | { action: 'create'; pod: string }
  | { action: 'delete'; pod: string; gracePeriodSeconds?: number }
  | { action: 'recreate'; pod: string }
  | { action: 'externalPatch'; pod: string; status: PodStatus }
  | { action: 'restartApiserver'; downForMs: number }
  | { action: 'partition' }
  | { action: 'repair' }
  | { action: 'fail'; verbs: Verb[]; code: 404 | 409 | 429 | 500 | 'timeout'; count?: number; forMs?: number; retryAfter?: number }
  | { action: 'latency'; latency: Latency; node?: string }
  | { action: 'taintNode'; key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }
  | { action: 'labelNode'; key: string; value: string | null }
  | { action: 'untaintNode'; key: string; effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }
  | { action: 'deleteNode' }
  | { action: 'createMirror'; pod: string }
  | { action: 'deleteMirror'; pod: string }
  | { action: 'exit'; pod: string; container: string; code: number; reason?: string; message?: string }
  | { action: 'oom'; pod: string; container: string }
  | { action: 'ready'; pod: string; container: string; value: boolean }
  | { action: 'started'; pod: string; container: string; value: boolean }
  | { action: 'live'; pod: string; container: string; value: boolean }
  | { action: 'addEphemeralContainer'; pod: string; container: Container }
  | { action: 'forgetContainer'; pod: string; container: string }
  | { action: 'wipeRuntime' }
  | { action: 'restartRuntime'; downForMs: number }
  | { action: 'networkPluginDown'; downForMs: number }
  | { action: 'interruptStart'; pod: string; container: string }
  | { action: 'dropPlegEvent'; pod: string; container?: string; event?: 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved'; count: number }
  | { action: 'gcContainers'; pod?: string; container?: string }
  | { action: 'removeStaticPod'; pod: string }
  | { action: 'addStaticPod'; pod: string }
  | { action: 'scrapeKubeletPods'; everyMs?: number; forMs?: number }
  | { action: 'restartKubelet'; downForMs: number }
  | { action: 'evict'; pod: string; signal: EvictionSignal; soft?: boolean; maxPodGracePeriodSeconds?: number; threshold?: string; available?: string }
  | { action: 'nodeShutdown'; gracePeriodSeconds: number; criticalPodsGracePeriodSeconds: number; powerOffDelayMs?: number }
  | { action: 'sigkillNoExit'; pod: string; container: string }
  | { action: 'stopFails'; pod: string; container: string; forMs: number }
  | { action: 'setPodStatus'; pod: string; status: PodStatus }
  | { action: 'setContainerReadiness'; pod: string; container: string; ready: boolean }
  | { action: 'setContainerStartup'; pod: string; container: string; started: boolean }
  | { action: 'terminatePod'; pod: string }
  | { action: 'removeOrphanedStatuses'; keep: string[] }
  | { action: 'syncBatch'; all: boolean }
  | { action: 'markDeleted'; pod: string }
  | { action: 'setDeletionSafety'; pod?: string; podResourcesReclaimed?: boolean; podCouldHaveRunningContainers?: boolean }
  | { action: 'setApiStatusVersion'; pod: string; version: number };

/** The kubelet's eviction signals (evictionapi.Signal), for the `evict` step. */
export const EVICTION_SIGNALS = [
  'memory.available',
  'allocatableMemory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'containerfs.available',
  'containerfs.inodesFree',
  'pid.available',
] as const;
export type EvictionSignal = (typeof EVICTION_SIGNALS)[number];

/** `node:` of a node-level action (spec.nodes): the node it acts on; absent: the pod's node, else
 *  the default node. restartKubelet may also name `nodes: all` or a list. */
export type Step = StepAction & { atMs: number; index: number; pos: SourcePos; node?: string; nodes?: 'all' | string[] };
export type ActionName = StepAction['action'];

export type Verb = 'get' | 'patch' | 'delete' | 'create';

/** A matcher value: a plain value, or an operator object ({$exists}, {$ne}, {$len}). */
export type Expected = unknown;

/** A scalar expectation: the value, {$ne: value}, or {$exists: bool}. */
export type Scalar<T> = T | { $ne: T } | { $exists: boolean };

export type AssertionBody =
  | { kind: 'apiserver'; pod: string; atMs?: number; exists?: boolean; uid?: Scalar<string>; status?: Expected; deletionTimestamp?: 'set' | 'unset' }
  | { kind: 'kubelet'; pod: string; atMs?: number; cached?: boolean; version?: Scalar<number>; apiStatusVersion?: Scalar<number>; status?: Expected }
  | { kind: 'requests'; pod?: string; node?: string; verbs?: Verb[]; count?: Partial<Record<Verb, number>>; fromMs?: number; toMs?: number }
  | { kind: 'log'; contains: string; pod?: string; count?: number }
  | { kind: 'events'; type: string; pod?: string; where?: Record<string, unknown>; count?: number; min?: number; fromMs?: number; toMs?: number }
  | { kind: 'converged'; withinMs: number }
  | { kind: 'violation'; invariant: InvariantName; pod?: string }
  | { kind: 'podStartup'; of: 'running' | 'ready'; count?: number; p50?: Bound; p99?: Bound; max?: Bound }
  | { kind: 'requestRate'; verb: Verb | 'event' | 'token'; max: number; windowMs: number; fromMs?: number; toMs?: number; node?: string };

/** A bound on a latency: at most a duration, or within [minMs, maxMs]. */
export type Bound = { minMs?: number; maxMs?: number };

export type Assertion = AssertionBody & { index: number; pos: SourcePos };

/** The fault kinds `kss explore` injects (`spec.explore.faults`). */
export const EXPLORE_FAULT_KINDS = ['partition', 'restartApiserver', 'restartKubelet', 'fail', 'latency', 'externalPatch', 'delete', 'restartRuntime', 'networkPluginDown', 'stopFails', 'evict'] as const;
/** The kinds explore draws when spec.explore.faults names none (restartRuntime, networkPluginDown,
 *  stopFails and evict only when named: a new kind in the default set would change every search's draws). */
export const DEFAULT_EXPLORE_FAULT_KINDS: readonly ExploreFaultKind[] = ['partition', 'restartApiserver', 'restartKubelet', 'fail', 'latency', 'externalPatch', 'delete'];
export type ExploreFaultKind = (typeof EXPLORE_FAULT_KINDS)[number];
export interface ExploreSpec {
  faults?: ExploreFaultKind[];
  /** Faults start within [fromMs, toMs]. */
  window?: { fromMs: number; toMs: number };
  maxFaults?: number;
}

export const INVARIANT_NAMES = [
  'terminal-phase-sticky',
  'no-illegal-container-transition',
  'no-ready-when-terminal',
  'write-matches-uid',
  'transition-time-honest',
  'version-monotonic',
  'no-terminal-while-running',
  'status-converges',
  'deletion-completes',
  'phase-never-goes-back',
  'deleted-pod-reaches-terminal',
  'write-budget',
  'terminated-container-started',
  'bounded-staleness',
  'ready-stable-across-restart',
  'deleted-pod-stops',
  'container-exit-kept',
] as const;
export type InvariantName = (typeof INVARIANT_NAMES)[number];

/** spec.apiserver.serviceTime: a request that starts while n others execute takes
 *  baseMs + perInflightMs × n. */
export interface ServiceTimeConfig {
  baseMs: number;
  perInflightMs: number;
}

/** The default priority levels (apiserver/apf/bootstrap.ts). */
export const APF_LEVEL_NAMES = ['system', 'node-high', 'leader-election', 'workload-high', 'workload-low', 'global-default', 'catch-all'] as const;
export type ApfLevelName = (typeof APF_LEVEL_NAMES)[number];

/** A priority level's settings as a scenario overrides them (`seats` replaces the nominal
 *  concurrency limit computed from the shares). */
export interface ApfLevelConfig {
  shares?: number;
  seats?: number;
  queues?: number;
  handSize?: number;
  queueLengthLimit?: number;
}

/** spec.apiserver.apf, defaulted. */
export interface ApfConfig {
  /** --max-requests-inflight + --max-mutating-requests-inflight (400 + 200). */
  serverConcurrency: number;
  /** How long a request may wait in a queue (15s: a quarter of the 60 s request timeout). */
  requestWaitLimitMs: number;
  /** 'dynamic': the dropped-requests tracker (v1.28+, kubernetes#117547); a number: always that
   *  many seconds (1 before v1.28). Default: dynamic for current, 1 for classic and transitional. */
  retryAfter: 'dynamic' | number;
  /** The node-high level and its flow schema system-node-high (v1.22+, kubernetes#101151): the
   *  kubelet's Lease and node status apart from its pod requests. Default: false for classic (v1.20),
   *  true otherwise. */
  nodeHigh: boolean;
  levels: Partial<Record<ApfLevelName, ApfLevelConfig>>;
}

/** spec.nodeLifecycle, defaulted as kube-controller-manager and the kubelet are. */
export interface NodeLifecycleConfig {
  /** --node-monitor-period: 5s */
  nodeMonitorPeriodMs: number;
  /** --node-monitor-grace-period: 40s */
  nodeMonitorGracePeriodMs: number;
  /** the kubelet's nodeLeaseDurationSeconds: 40s (renewed every quarter of it) */
  leaseDurationMs: number;
  /** the kubelet's nodeStatusUpdateFrequency: 10s */
  nodeStatusUpdateFrequencyMs: number;
  /** the cluster's other nodes, always Ready, without pods: 2 */
  healthyNodes: number;
  /** --node-eviction-rate: 0.1 nodes/s (the tainter's rate in a healthy zone) */
  nodeEvictionRate: number;
  /** --secondary-node-eviction-rate: 0.01 nodes/s (a partially disrupted large zone) */
  secondaryNodeEvictionRate: number;
  /** --large-cluster-size-threshold: 50 */
  largeClusterSizeThreshold: number;
  /** --unhealthy-zone-threshold: 0.55 */
  unhealthyZoneThreshold: number;
  /** --terminated-pod-gc-threshold: 12500 (0: PodGC's gcTerminated never runs) */
  terminatedPodGCThreshold: number;
}

/** One node of spec.nodes: its name and its kubelet (spec.kubelet's settings under its own). */
export interface NodeSpec {
  name: string;
  kubelet: KubeletConfig;
  /** Its labels: spec.nodes[].labels, with .zone and .region as topology.kubernetes.io/zone and
   *  /region. */
  labels: Record<string, string>;
  pos: SourcePos;
}

export interface Scenario {
  /** Path of the file it was loaded from ("<string>" when loaded from text). */
  file: string;
  /** sha256 (hex) of the file's bytes. */
  sha256: string;
  name: string;
  description?: string;
  tags: string[];
  seed: number;
  epoch: string; // RFC 3339
  untilMs: number; // default 10m
  /** The default node's kubelet (with spec.nodes: spec.kubelet under spec.nodes[0]'s settings). */
  kubelet: KubeletConfig;
  /** spec.nodes: every node's kubelet, the default node first; absent: the one node of `kubelet`. */
  nodes?: NodeSpec[];
  apiserver: {
    latency: Latency; // default 1ms..5ms for every verb
    /** Extension: spec.apiserver.serviceTime (absent: a request is served the instant it arrives). */
    serviceTime?: ServiceTimeConfig;
    /** Extension: spec.apiserver.apf, API Priority and Fairness (absent: no flow control). */
    apf?: ApfConfig;
  };
  pods: ScenarioPod[];
  staticPods: ScenarioPod[]; // names already suffixed with -<nodeName>
  timeline: Step[];
  expect: Assertion[];
  invariants: InvariantName[]; // `all` → every name, `none` → []
  /** Settings that hold only at the scenario's own value (`spec.pinned`, default none). */
  pinned: Array<'seed' | 'statusManager'>;
  /** Extension: what `kss explore` may inject (README "Extensions"). */
  explore?: ExploreSpec;
  /** The node lifecycle (spec.nodeLifecycle); undefined when the scenario has none. */
  nodeLifecycle?: NodeLifecycleConfig;
  /** Extension fields under x-kss at the top of spec (reserved). */
}
