// The Kubelet struct (pkg/kubelet/kubelet.go, type Kubelet): the state of one kubelet incarnation that
// the function modules share — kubelet.ts and kubelet-sync.ts (kubelet.go), kubelet-pods.ts
// (kubelet_pods.go), kuberuntime-manager.ts, kuberuntime-gc.ts, pod-container-deletor.ts,
// reason-cache.ts — each taking it as `kl`, as upstream's methods take `kl *Kubelet`. The bottom of the
// node's modules: it imports none of them.
import type { Taint } from '../../model/node.js';
import { ImagePuller } from './image-puller.js';
import { EventRecorder } from './events.js';
import type { Engine, Proc, Process, Rng, Timer } from '../../engine/index.js';
import type { KubeClient } from '../../model/client.js';
import type { Pod, PodStatus, UID } from '../../model/pod.js';
import type { VClock } from '../../model/time.js';
import type { LogLevel, TraceEvent, Tracer } from '../../model/trace.js';
import type { Attempt, KubeletConfig } from '../../scenario/types.js';
import type { PodManagerApi, StatusManagerApi } from '../api.js';
import type { StatusFeatureGates } from '../status/types.js';
import type { StartFailure } from './api-status.js';
import { Backoff } from './backoff.js';
import { MirrorClient } from './mirror.js';
import { GenericPLEG, PodCache, type PodLifecycleEvent } from './pleg.js';
import { PodWorkersClassic } from './pod-workers-classic.js';
import { PodWorkersCurrent } from './pod-workers-current.js';
import type { PodSyncer } from './pod-workers.js';
import { ProbeManager, type ProbeKind, type ProbeResult } from './prober.js';
import { ProbeWorkers } from './prober-worker.js';
import type { Runtime } from './runtime.js';
import { RuntimeState } from './runtime-state.js';
import { SyncLoopGate } from './sync-loop.js';
import type { Generation, RuntimePodStatus } from './types.js';
import { BasicWorkQueue } from './work-queue.js';

/** Periods of the kubelet's loops. Defaults are upstream's. */
export interface NodeTuning {
  /** The per-pod resync (SyncFrequency): 1 min. */
  resyncIntervalMs: number;
  /** housekeepingPeriod: 2 s. */
  housekeepingPeriodMs: number;
  /** The sync loop's ticker that hands due pods from the work queue to their workers: 1 s. */
  syncTickMs: number;
  /** The pod worker's requeue after a failed sync (backOffPeriod): 10 s. */
  backOffPeriodMs: number;
  /** Apply upstream's wait.Jitter (up to +50 %) to worker requeues, drawn from the node's RNG.
   *  Off by default so that restart instants are exact. */
  workerJitter: boolean;
}

export const DEFAULT_NODE_TUNING: NodeTuning = {
  resyncIntervalMs: 60_000,
  housekeepingPeriodMs: 2_000,
  syncTickMs: 1_000,
  backOffPeriodMs: 10_000,
  workerJitter: false,
};

export interface NodeOptions {
  engine: Engine;
  clock: VClock;
  /** A fork for the node's seeded choices (Go map orders, optional jitter). */
  rng: Rng;
  tracer: Tracer;
  statusManager: StatusManagerApi;
  /** The pod manager of this kubelet incarnation. The caller (the config source / watch) adds,
   *  updates and removes pods in it before calling podAdded / podUpdated / podRemoved; the node adds
   *  static pods itself (addStaticPod). */
  podManager: PodManagerApi;
  client: KubeClient;
  /** The event sink's client (spec.kubelet.events; default: `client`). */
  eventClient?: KubeClient;
  config: KubeletConfig;
  /** The container runtime; it outlives the kubelet (kept by the world across restarts). */
  runtime: Runtime;
  /** The scenario's container behaviour for a pod: attempts per container name (the last repeats). */
  behaviour: (pod: Pod) => Record<string, Attempt[]>;
  /** The process group of this kubelet incarnation (engine processes are named in it). */
  group: string;
  tuning?: Partial<NodeTuning>;
  /** The taints of the kubelet's Node as its node informer has them (none: no Node object). */
  nodeTaints?: () => readonly Taint[];
  /** Its labels as the informer has them (undefined: no Node object, the configured labels hold). */
  nodeLabels?: () => Readonly<Record<string, string>> | undefined;
}

/** ContainerGCPeriod (kubelet.go): how often the container garbage collector runs. */
export const CONTAINER_GC_PERIOD_MS = 60_000;

/** generateAPIPodStatus's last answer for a pod and what it was computed from (see there). */
export interface GeneratedStatus {
  pod: Pod;
  podStatus: RuntimePodStatus;
  podIsTerminal: boolean;
  cachedStatus: PodStatus | undefined;
  reasons: number;
  probes: number;
  /** The active-deadline handler said evict. */
  evicted: boolean;
  status: PodStatus;
}

/** The kubelet's state: what it was given, its managers, and the caches its functions keep. */
export class KubeletState {
  readonly gen: Generation;
  readonly gates: StatusFeatureGates;
  readonly tuning: NodeTuning;
  readonly runtime: Runtime;
  /** NodeOptions.nodeTaints (no Node object: none). */
  readonly nodeTaints: () => readonly Taint[];
  /** NodeOptions.nodeLabels. */
  readonly nodeLabels: () => Readonly<Record<string, string>> | undefined;
  readonly cache: PodCache;
  readonly pleg: GenericPLEG;
  readonly prober: ProbeManager;
  /** The probe manager's workers (prober-worker.ts). */
  readonly probeWorkers: ProbeWorkers;
  /** The results managers' updates go here (kubelet.ts sets it: syncLoopIteration's probe cases). */
  onProbeUpdate: (kind: ProbeKind, podUID: UID, containerName: string, containerID: string, result: ProbeResult) => void = () => {};
  /** The container restart back-off (kubelet.backOff / crashLoopBackOff). */
  readonly backoff: Backoff;
  /** The image pull back-off (image_manager.go: flowcontrol.NewBackOff(10 s, 5 min)). */
  readonly imageBackoff: Backoff;
  /** The image puller (serial unless spec.kubelet.serializeImagePulls is false). */
  readonly imagePuller: ImagePuller;
  readonly workQueue: BasicWorkQueue;
  /** Exactly one of these is set, by generation. */
  readonly workersCurrent: PodWorkersCurrent | null;
  readonly workersClassic: PodWorkersClassic | null;

  readonly engine: Engine;
  readonly clock: VClock;
  readonly rng: Rng;
  readonly tracer: Tracer;
  readonly sm: StatusManagerApi;
  readonly pm: PodManagerApi;
  readonly mirrors: MirrorClient;
  readonly behaviour: (pod: Pod) => Record<string, Attempt[]>;
  readonly group: string;
  readonly config: KubeletConfig;
  /** reasonCache: why the last start of each container failed. */
  readonly reasonCache = new Map<UID, Map<string, StartFailure>>();
  /** Per pod, a counter bumped by every change of its reasonCache entries. */
  readonly reasonVersions = new Map<UID, number>();
  /** generateAPIPodStatus's last answer per pod and what it was computed from (see there). */
  readonly lastGenerated = new Map<UID, GeneratedStatus>();
  /** The config source's last view of each pod (to tell updates from status-only reconciles). */
  readonly lastConfig = new Map<UID, Pod>();
  /** podManagerUIDs' last answer (housekeeping), with the pod manager's uidVersion it was built at. */
  lastPodManagerUIDs: { version: number; uids: ReadonlySet<UID> } | null = null;
  /** Runtime pods being killed because nothing in config wants them. */
  readonly orphanKills = new Set<UID>();
  /** The kubelet's API client (the token manager's TokenRequests, volume-manager.ts). */
  readonly client: KubeClient;
  /** The token manager's cache: "uid/volume/source" of each projected token already fetched. */
  readonly mountedTokens = new Set<string>();
  /** The event recorder (spec.kubelet.events), or null: no events are posted. */
  readonly recorder: EventRecorder | null;
  /** clock.at, memoized: container timestamps are rendered on every sync. */
  readonly rfc3339Memo = new Map<number, string>();
  readonly rfc3339 = (ms: number): string => {
    let v = this.rfc3339Memo.get(ms);
    if (v === undefined) {
      if (this.rfc3339Memo.size > 4096) this.rfc3339Memo.clear();
      v = this.clock.at(ms);
      this.rfc3339Memo.set(ms, v);
    }
    return v;
  };
  /** The prober's startup results (computePodActions reads them). */
  readonly startupResult = (containerID: string): boolean | undefined => this.prober.get('startup', containerID);
  /** The prober's liveness / startup verdicts (computePodActions kills a container that failed one). */
  readonly probeFailure = (containerID: string): 'liveness' | 'startup' | undefined =>
    this.prober.getResult('liveness', containerID) === 'Failure' ? 'liveness' : this.prober.getResult('startup', containerID) === 'Failure' ? 'startup' : undefined;
  /** clock.toVirtual, memoized: probes, the active-deadline handler and back-off parse the same
   *  few timestamps (a container's startedAt, a pod's startTime) over and over. */
  private readonly toVirtualMemo = new Map<string, number | undefined>();
  /** RFC 3339 → virtual ms. */
  readonly toVirtual = (s: string): number | undefined => {
    const memo = this.toVirtualMemo;
    const v = memo.get(s);
    if (v !== undefined || memo.has(s)) return v;
    if (memo.size > 4096) memo.clear();
    const ms = this.clock.toVirtual(s);
    memo.set(s, ms);
    return ms;
  };
  /** The pods with spec.activeDeadlineSeconds (getPodsToSync asks the active-deadline handler
   *  about them on every tick). */
  readonly deadlinePods = new Set<UID>();
  /** Is a pod of this UID in the pod manager (SyncKnownPods' desired pods)? */
  readonly inPodManager = (uid: UID): boolean => this.pm.getPodByUID(uid) !== undefined;
  /** The processes and timers of this incarnation (stop() ends them). */
  procs: Process[] = [];
  /** procs' length after its last compaction: the list is compacted when it has doubled since
   *  (amortised O(1) per spawn, where filtering on every spawn past 512 was O(N) per spawn). */
  private procsCompacted = 256;
  timers: Timer[] = [];
  /** start() has run; stop() has run (the incarnation is dead: every handler returns at once). */
  running = false;
  stopped = false;
  /** The node shutdown manager's nodeShuttingDownNow: logind announced a shutdown (nodeshutdown.ts). */
  shuttingDown = false;
  /** kl.syncNodeStatus, when the node lifecycle runs (its heartbeats set it). */
  syncNodeStatus: (() => void) | null = null;
  /** runtimeState (runtime-state.ts) and the sync loop's guard on it (sync-loop.ts). */
  readonly runtimeState: RuntimeState;
  readonly loop: SyncLoopGate;

  /**
   * @param opts.engine     the engine every process runs on
   * @param opts.clock      the virtual clock (RFC 3339 timestamps of container states)
   * @param opts.rng        a fork for node-level seeded choices (map orders; jitter when enabled)
   * @param opts.tracer     trace sink: worker.*, pleg.event, probe.result, mirror.*, runtime.backoff
   * @param opts.statusManager  the status manager this kubelet feeds (SetPodStatus & co.)
   * @param opts.podManager the pod manager (desired pods and mirror pods); see NodeOptions
   * @param opts.client     the kubelet's API client (mirror pods)
   * @param opts.config     the kubelet configuration (generation, gates, PLEG period)
   * @param opts.runtime    the container runtime, kept by the caller across kubelet restarts
   * @param opts.behaviour  container attempts per pod
   * @param opts.group      process group of this incarnation
   * @param opts.tuning     loop periods (defaults: upstream)
   */
  /** syncer: the sync functions the pod workers call; onPlegEvents: the sync loop's PLEG channel. */
  constructor(opts: NodeOptions, syncer: PodSyncer, onPlegEvents: (events: PodLifecycleEvent[]) => void) {
    this.engine = opts.engine;
    this.clock = opts.clock;
    this.rng = opts.rng;
    this.tracer = opts.tracer;
    this.sm = opts.statusManager;
    this.pm = opts.podManager;
    this.runtime = opts.runtime;
    this.nodeTaints = opts.nodeTaints ?? (() => []);
    this.nodeLabels = opts.nodeLabels ?? (() => undefined);
    this.behaviour = opts.behaviour;
    this.group = opts.group;
    this.config = opts.config;
    this.gen = opts.config.statusManager;
    this.gates = { ...opts.config.featureGates };
    this.tuning = { ...DEFAULT_NODE_TUNING, ...(opts.tuning ?? {}) };
    this.client = opts.client;
    this.recorder = opts.config.events ? new EventRecorder(opts.eventClient ?? opts.client, opts.engine) : null;
    this.mirrors = new MirrorClient(opts.client, opts.tracer);
    this.cache = new PodCache(this.engine);
    this.pleg = new GenericPLEG(this.runtime, this.cache, this.rng.fork('pleg'), this.tracer, onPlegEvents);
    this.prober = new ProbeManager(this.gen, this.gates);
    const probeRng = this.rng.fork('probe');
    this.probeWorkers = new ProbeWorkers({
      gen: this.gen,
      gates: this.gates,
      results: this.prober,
      rng: probeRng,
      startMs: this.engine.nowMs,
      nowMs: () => this.engine.nowMs,
      spawn: (name, body) => this.spawn(name, body),
      wake: (p, v) => this.engine.wake(p, v),
      kill: (p) => this.engine.kill(p),
      getPodStatus: (uid) => this.sm.getPodStatus(uid),
      answer: (id, kind) => this.runtime.container(id)?.probeAnswers[kind],
      criDown: () => this.runtime.criDown,
      toVirtual: (s) => this.toVirtual(s), // (memoized: every probe tick reads its container's startedAt)
      onUpdate: (kind, uid, name, id, result) => this.onProbeUpdate(kind, uid, name, id, result),
    });
    this.backoff = new Backoff(this.engine);
    this.imageBackoff = new Backoff(this.engine);
    this.imagePuller = new ImagePuller(this.config.serializeImagePulls !== false, { engine: this.engine, runtime: this.runtime, log: (level, msg, pod) => this.log(level, msg, pod) });
    this.workQueue = new BasicWorkQueue(this.engine);
    const jitterRng = this.rng.fork('jitter');
    const workerOpts = {
      engine: this.engine,
      cache: this.cache,
      syncer,
      workQueue: this.workQueue,
      tracer: this.tracer,
      spawn: (name: string, body: Proc<unknown>) => this.spawn(name, body),
      resyncIntervalMs: this.tuning.resyncIntervalMs,
      backOffPeriodMs: this.tuning.backOffPeriodMs,
      jitter: (ms: number, f: number) => (this.tuning.workerJitter ? ms + Math.floor(jitterRng.float() * f * ms) : ms),
    };
    this.workersCurrent = this.gen !== 'classic' ? new PodWorkersCurrent({ ...workerOpts, v123: this.gen === 'transitional', noUIDReuseRestart: this.config.revertFixes?.includes('noUIDReuseRestart'), noOrphanTerminationRetry: this.config.revertFixes?.includes('noOrphanTerminationRetry'), keepEvictedContentUntilFinished: this.config.proposedFixes?.includes('keepEvictedContentUntilFinished') }) : null;
    this.workersClassic = this.gen === 'classic' ? new PodWorkersClassic(workerOpts) : null;
    const startMs = this.engine.nowMs;
    const nowMs = () => this.engine.nowMs;
    const logError = (msg: string) => this.log('error', msg);
    const spawn = (name: string, body: Proc<void>) => void this.spawn(name, body);
    this.runtimeState = new RuntimeState({
      nowMs,
      startMs,
      criUp: () => !this.runtime.criDown,
      networkDown: () => this.runtime.networkDown,
      // (klog.Errorf's wording before the structured logs of v1.21)
      networkErrorPrefix: this.gen === 'classic' ? 'runtime network not ready' : 'container runtime network not ready',
      plegHealth: (t) => this.pleg.health(t),
      spawn,
      logError,
    });
    let loopRng: Rng | undefined;
    this.loop = new SyncLoopGate({ nowMs, troubled: () => this.runtimeState.troubled, runtimeErrors: (t) => this.runtimeState.runtimeErrors(t), spawn, logError, rng: () => (loopRng ??= this.rng.fork('sync-loop')) });
  }

  /** Spawn a process of this incarnation (stop() kills it). */
  spawn(name: string, body: Proc<unknown>): Process {
    const p = this.engine.spawn(`${this.group}/${name}`, body, this.group);
    if (this.stopped) this.engine.kill(p);
    this.procs.push(p);
    if (this.procs.length > 2 * this.procsCompacted) {
      this.procs = this.procs.filter((x) => x.alive);
      this.procsCompacted = Math.max(256, this.procs.length);
    }
    return p;
  }

  trace(e: TraceEvent): void {
    this.tracer.emit(e);
  }

  log(level: LogLevel, msg: string, pod?: string, fields?: Record<string, unknown>): void {
    this.tracer.log(level, msg, pod, fields);
  }
}
