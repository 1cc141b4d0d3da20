// The simulated node (`runtime: simulated`): the kubelet around the status manager — config
// handlers, the sync loop (PLEG events, the work queue, housekeeping), pod workers and their sync
// functions, the runtime manager's SyncPod with CrashLoopBackOff, the prober glue, static and mirror
// pods — for both generations (pkg/kubelet/kubelet.go, kubelet_pods.go, pod_workers.go,
// kuberuntime/kuberuntime_manager.go).
//
// Restart-instant model. A container dies at F. The PLEG relists every plegRelistPeriod from the
// kubelet's start (a relist runs after the other events of its instant) and notices the death at
// the first relist R ≥ F; that relist syncs the pod at once. The first death restarts the container
// in that sync (no back-off entry yet). Later deaths find the container in back-off: the start is
// skipped (CrashLoopBackOff, kept in the reason cache so that the next generated status shows the
// container waiting), the sync returns the back-off error (upstream's attempt to swallow it never
// works: kubernetes#123602) and the pod worker requeues the pod after backOffPeriod = 10 s. The sync
// loop's 1 s ticker hands due pods to their workers (a pod due at the tick's instant counts as due).
// The restart happens at the first requeued sync with now − F ≥ back-off; every back-off (10, 20,
// 40, 80, 160, 300 s) is a multiple of 10 s, so at R + back-off. With whole-second runs (R = F), a
// container that runs 5 s and exits 1 under Always starts at 0, 5, 20, 45, 90, 175, 340, 645, 950 s:
// 0, 10, 20, 40, 80, 160, 300, 300 s after each death. Worker jitter is off (tuning.workerJitter).
//
// Generations. classic (v1.19/v1.20): dispatchWork hands a deleted pod whose containers are all
// terminal to TerminatePod and gives a pod whose cached phase is terminal no more work;
// syncPod kills a deleted or Failed pod with the pod's grace (≥ 2 s);
// removal from config forgets the worker and the pod killer stops what still runs; the deletion
// safety hook is PodResourcesAreReclaimed, which waits until the container deletor (run on a
// deleted pod's ContainerDied) has removed its containers and a relist has dropped them from the
// PLEG cache. current (v1.27+): the pod worker state machine
// syncing → terminating → terminated → finished; SyncTerminatingPod kills with the effective grace
// period and sets the status twice (before the kill, and with podIsTerminal after it);
// SyncTerminatedPod sets the final status and calls TerminatePod, for deleted pods and for pods that
// reached a terminal phase by themselves; PodCouldHaveRunningContainers follows the worker.
import { produce } from 'immer';
import { deepFreeze } from '../../model/freeze.js';
import { Deferred, type Engine, type Proc, type Process, type Rng, type Timer } from '../../engine/index.js';
import type { KubeClient, PodDeletionSafetyProvider } from '../../model/client.js';
import { isMirrorPod, isPodPhaseTerminal, isStaticPod, podFullName, podKey, type Container, type Pod, type PodStatus, type UID } from '../../model/pod.js';
import type { VClock } from '../../model/time.js';
import { emitsNothing, type LogLevel, type TraceEvent, type Tracer } from '../../model/trace.js';
import type { Attempt, KubeletConfig } from '../../scenario/types.js';
import type { PodManagerApi, StatusManagerApi } from '../api.js';
import { getPodConditionIndex, isRestartableInitContainer } from '../status/conditions.js';
import { generatePodReadyCondition } from '../status/generate.js';
import { PodReady, type StatusFeatureGates } from '../status/types.js';
import { generateAPIPodStatus, notRunning, type StartFailure } from './api-status.js';
import { Backoff, CRASH_LOOP_BACK_OFF, crashLoopBackOffMessage, getStableKey, stableStringify } from './backoff.js';
import { killContainerTimeoutSeconds, podTerminationGracePeriod } from './grace.js';
import { MirrorClient, isMirrorPodOf, staticPodFromManifest } from './mirror.js';
import { computePodActions, type PodActions } from './pod-actions.js';
import { PodWorkersClassic, PodWorkersCurrent, type PodSyncer, type SyncOutcome, type SyncPodResult, type SyncPodType, type UpdatePodOptions } from './pod-workers.js';
import { GenericPLEG, PodCache, type PodLifecycleEvent } from './pleg.js';
import { ProbeManager, hasProbe, type ProbeKind } from './prober.js';
import { DEFAULT_ATTEMPT, type Runtime, type RuntimeContainer } from './runtime.js';
import type { Generation, RuntimePodStatus } from './types.js';

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
  config: KubeletConfig;
  /** The container runtime; it outlives the kubelet (kept by the world across restarts). */
  runtime: Runtime;
  /** The scenario's container behaviour for a pod: attempts per container name (the last repeats). */
  behaviour: (pod: Pod) => Record<string, Attempt[]>;
  /** The process group of this kubelet incarnation (engine processes are named in it). */
  group: string;
  tuning?: Partial<NodeTuning>;
}

/** basicWorkQueue: when each pod is next due for a sync. */
export class BasicWorkQueue {
  private readonly queue = new Map<UID, number>();
  /** Every (due time, UID) ever enqueued and not yet due, as a binary min-heap on the due time kept
   *  in two parallel arrays, so that getWork takes what is due without walking every pod. An entry
   *  whose time is no longer its pod's time in `queue` (re-enqueued since) is dropped when it comes
   *  up: each pod's time in `queue` always has its entry in the heap, so the due pods are exactly
   *  the matching entries. */
  private readonly heapAt: number[] = [];
  private readonly heapUID: UID[] = [];
  constructor(private readonly clock: { readonly nowMs: number }) {}
  enqueue(uid: UID, delayMs: number): void {
    const at = this.clock.nowMs + delayMs;
    this.queue.set(uid, at);
    this.heapPush(at, uid);
  }
  /** GetWork: the pods due by now (removed from the queue), sorted. */
  getWork(): UID[] {
    const now = this.clock.nowMs;
    const out: UID[] = [];
    while (this.heapAt.length > 0 && this.heapAt[0] <= now) {
      const at = this.heapAt[0];
      const uid = this.heapPop();
      if (this.queue.get(uid) !== at) continue;
      out.push(uid);
      this.queue.delete(uid);
    }
    return sortStrings(out);
  }
  dueAt(uid: UID): number | undefined {
    return this.queue.get(uid);
  }

  private heapPush(at: number, uid: UID): void {
    const ats = this.heapAt;
    const uids = this.heapUID;
    let i = ats.length;
    ats.push(at);
    uids.push(uid);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (ats[parent] <= at) break;
      ats[i] = ats[parent];
      uids[i] = uids[parent];
      i = parent;
    }
    ats[i] = at;
    uids[i] = uid;
  }

  /** Remove the top entry; returns its UID. */
  private heapPop(): UID {
    const ats = this.heapAt;
    const uids = this.heapUID;
    const top = uids[0];
    const lastAt = ats.pop()!;
    const lastUID = uids.pop()!;
    const n = ats.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const c = l + 1 < n && ats[l + 1] < ats[l] ? l + 1 : l;
      if (ats[c] >= lastAt) break;
      ats[i] = ats[c];
      uids[i] = uids[c];
      i = c;
    }
    ats[i] = lastAt;
    uids[i] = lastUID;
    return top;
  }
}

/** a.sort() of strings (code unit order), in place: a few due pods per tick are sorted by insertion,
 *  which allocates nothing (Array.prototype.sort sets up its merge state on every call). */
function sortStrings(a: string[]): string[] {
  if (a.length > 16) return a.sort();
  for (let i = 1; i < a.length; i++) {
    const v = a[i];
    let j = i - 1;
    for (; j >= 0 && a[j] > v; j--) a[j + 1] = a[j];
    a[j + 1] = v;
  }
  return a;
}

/** podsDifferSemantically: spec, labels, annotations, deletion timestamp and grace. */
function podsDifferSemantically(a: Pod, b: Pod): boolean {
  // fast path: a status-only update keeps the other fields' objects (frozen, shared)
  const am = a.metadata;
  const bm = b.metadata;
  if (
    a.spec === b.spec &&
    am?.labels === bm?.labels &&
    am?.annotations === bm?.annotations &&
    am?.deletionTimestamp === bm?.deletionTimestamp &&
    am?.deletionGracePeriodSeconds === bm?.deletionGracePeriodSeconds
  ) {
    return false;
  }
  const key = (p: Pod) =>
    stableStringify({
      spec: p.spec,
      labels: p.metadata?.labels,
      annotations: p.metadata?.annotations,
      deletionTimestamp: p.metadata?.deletionTimestamp,
      deletionGracePeriodSeconds: p.metadata?.deletionGracePeriodSeconds,
    });
  return key(a) !== key(b);
}

/** A container start's result (kubecontainer.SyncResult of StartContainer): a failure has the
 *  error (reason) and message, and may carry its rendered error text. */
type StartResult = { readonly name: string; readonly error?: string; readonly message?: string; readonly text?: string };

/** ContainerGCPeriod (kubelet.go): how often the container garbage collector runs. */
export const CONTAINER_GC_PERIOD_MS = 60_000;

/** No start results (shared). */
const NO_RESULTS: readonly StartResult[] = Object.freeze([]);

/** results and r (most syncs start one container, or none). */
function withResult(results: readonly StartResult[], r: StartResult): readonly StartResult[] {
  return results.length === 0 ? [r] : [...results, r];
}

/** SyncResult.Error() of a failed start, as the sync's error lists it. */
function startFailureText(name: string, error: string, message: string | undefined): string {
  return `failed to "StartContainer" for "${name}" with ${error}: "${message ?? ''}"`;
}

/** The CrashLoopBackOff start result of a frozen container spec, with what its message is made of
 *  (the pod's name, namespace and UID; the back-off): a pod in back-off is synced every 10 s, and
 *  each sync would otherwise render the same message and error text again. */
const backOffResults = new WeakMap<Container, { name: string; namespace: string; uid: string; backoffMs: number; result: StartResult }>();

/** The start result of a container in back-off: CrashLoopBackOff with doBackOff's message. */
function crashLoopBackOffResult(backoffMs: number, container: Container, pod: Pod): StartResult {
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  const uid = pod.metadata?.uid ?? '';
  const kept = Object.isFrozen(container) ? backOffResults.get(container) : undefined;
  if (kept !== undefined && kept.backoffMs === backoffMs && kept.name === name && kept.namespace === namespace && kept.uid === uid) return kept.result;
  const message = crashLoopBackOffMessage(backoffMs, container.name, pod);
  const result: StartResult = Object.freeze({ name: container.name, error: CRASH_LOOP_BACK_OFF, message, text: startFailureText(container.name, CRASH_LOOP_BACK_OFF, message) });
  if (Object.isFrozen(container)) backOffResults.set(container, { name, namespace, uid, backoffMs, result });
  return result;
}

/** What SyncPod returns when it succeeded without reaching a terminal phase, and when it did. */
const SYNC_OK: SyncPodResult = Object.freeze({ isTerminal: false });
const SYNC_TERMINAL: SyncPodResult = Object.freeze({ isTerminal: true });


export class Node implements PodSyncer {
  readonly gen: Generation;
  readonly gates: StatusFeatureGates;
  readonly tuning: NodeTuning;
  readonly runtime: Runtime;
  readonly cache: PodCache;
  readonly pleg: GenericPLEG;
  readonly prober: ProbeManager;
  /** The container restart back-off (kubelet.backOff / crashLoopBackOff). */
  readonly backoff: Backoff;
  readonly workQueue: BasicWorkQueue;
  /** Exactly one of these is set, by generation. */
  readonly workersCurrent: PodWorkersCurrent | null;
  readonly workersClassic: PodWorkersClassic | null;
  /** The deletion-safety provider the status manager of this incarnation asks. */
  readonly deletionSafety: PodDeletionSafetyProvider;

  private readonly engine: Engine;
  private readonly clock: VClock;
  private readonly rng: Rng;
  private readonly tracer: Tracer;
  private readonly sm: StatusManagerApi;
  private readonly pm: PodManagerApi;
  private readonly mirrors: MirrorClient;
  private readonly behaviour: (pod: Pod) => Record<string, Attempt[]>;
  private readonly group: string;
  private readonly config: KubeletConfig;
  /** reasonCache: why the last start of each container failed. */
  private readonly reasonCache = new Map<UID, Map<string, StartFailure>>();
  /** Per pod, a counter bumped by every change of its reasonCache entries. */
  private readonly reasonVersions = new Map<UID, number>();
  /** generateAPIPodStatus's last answer per pod and what it was computed from (see there). */
  private readonly lastGenerated = new Map<UID, {
    pod: Pod;
    podStatus: RuntimePodStatus;
    podIsTerminal: boolean;
    cachedStatus: PodStatus | undefined;
    reasons: number;
    probes: number;
    status: PodStatus;
  }>();
  /** The config source's last view of each pod (to tell updates from status-only reconciles). */
  private readonly lastConfig = new Map<UID, Pod>();
  /** podManagerUIDs' last answer (housekeeping), with the pod manager's uidVersion it was built at. */
  private lastPodManagerUIDs: { version: number; uids: ReadonlySet<UID> } | null = null;
  /** Runtime pods being killed because nothing in config wants them. */
  private readonly orphanKills = new Set<UID>();
  /** clock.at, memoized: container timestamps are rendered on every sync. */
  private readonly rfc3339Memo = new Map<number, string>();
  private readonly rfc3339 = (ms: number): string => {
    let v = this.rfc3339Memo.get(ms);
    if (v === undefined) {
      if (this.rfc3339Memo.size > 4096) this.rfc3339Memo.clear();
      v = this.clock.at(ms);
      this.rfc3339Memo.set(ms, v);
    }
    return v;
  };
  /** The prober's startup results (computePodActions reads them). */
  private readonly startupResult = (containerID: string): boolean | undefined => this.prober.get('startup', containerID);
  /** Is a pod of this UID in the pod manager (SyncKnownPods' desired pods)? */
  private readonly inPodManager = (uid: UID): boolean => this.pm.getPodByUID(uid) !== undefined;
  private procs: Process[] = [];
  private timers: Timer[] = [];
  private running = false;
  private stopped = false;

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
  constructor(opts: NodeOptions) {
    this.engine = opts.engine;
    this.clock = opts.clock;
    this.rng = opts.rng;
    this.tracer = opts.tracer;
    this.sm = opts.statusManager;
    this.pm = opts.podManager;
    this.runtime = opts.runtime;
    this.behaviour = opts.behaviour;
    this.group = opts.group;
    this.config = opts.config;
    this.gen = opts.config.statusManager;
    this.gates = { ...opts.config.featureGates };
    this.tuning = { ...DEFAULT_NODE_TUNING, ...(opts.tuning ?? {}) };
    this.mirrors = new MirrorClient(opts.client, opts.tracer);
    this.cache = new PodCache(this.engine);
    this.pleg = new GenericPLEG(this.runtime, this.cache, this.rng.fork('pleg'), this.tracer, (evs) => this.onPlegEvents(evs));
    this.prober = new ProbeManager(this.gen, this.gates);
    this.backoff = new Backoff(this.engine);
    this.workQueue = new BasicWorkQueue(this.engine);
    const jitterRng = this.rng.fork('jitter');
    const workerOpts = {
      engine: this.engine,
      cache: this.cache,
      syncer: this as PodSyncer,
      workQueue: this.workQueue,
      tracer: this.tracer,
      spawn: (name: string, body: Proc<unknown>) => this.spawn(name, body),
      resyncIntervalMs: this.tuning.resyncIntervalMs,
      backOffPeriodMs: this.tuning.backOffPeriodMs,
      jitter: (ms: number, f: number) => (this.tuning.workerJitter ? ms + Math.floor(jitterRng.float() * f * ms) : ms),
    };
    this.workersCurrent = this.gen === 'current' ? new PodWorkersCurrent(workerOpts) : null;
    this.workersClassic = this.gen === 'classic' ? new PodWorkersClassic(workerOpts) : null;
    this.deletionSafety = {
      // classic PodResourcesAreReclaimed: nothing runs per the status, no container left in the PLEG cache
      podResourcesAreReclaimed: (pod: Pod, status: PodStatus) => this.podResourcesAreReclaimed(pod, status),
      // current PodCouldHaveRunningContainers: the pod worker has not reached terminated
      podCouldHaveRunningContainers: (pod: Pod) => this.couldHaveRunningContainers(pod.metadata?.uid ?? ''),
    };
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** Start the kubelet's loops: the PLEG relist (at once, then every plegRelistPeriod), the sync
   *  ticker that hands due pods from the work queue to their workers, and housekeeping. */
  start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    const period = Math.max(1, this.config.plegRelistPeriodMs || 1000);
    this.spawn('pleg', this.plegLoop(period));
    this.spawn('sync-ticker', this.syncTickerLoop());
    this.spawn('housekeeping', this.housekeepingLoop());
    if (this.gen === 'classic') this.spawn('container-gc', this.containerGCLoop());
  }

  /** The kubelet process dies: every process of this incarnation is killed and its timers are
   *  cancelled. Containers keep running; StopContainer calls in flight end without their SIGKILL. */
  stop(): void {
    this.stopped = true;
    this.running = false;
    this.runtime.abandonStops(this.group);
    this.pleg.stop();
    for (const p of this.procs) this.engine.kill(p);
    this.procs = [];
    for (const t of this.timers) t.cancel();
    this.timers = [];
  }

  private spawn(name: string, body: Proc<unknown>): Process {
    const p = this.engine.spawn(`${this.group}/${name}`, body, this.group);
    if (this.stopped) this.engine.kill(p);
    this.procs.push(p);
    if (this.procs.length > 512) this.procs = this.procs.filter((x) => x.alive);
    return p;
  }

  /** The relist runs behind everything already scheduled for its instant, so that a container that
   *  exits at a relist instant is seen by that relist (real time has no such ties). */
  private *plegLoop(periodMs: number): Proc<void> {
    for (;;) {
      yield 0;
      this.pleg.relist();
      yield periodMs;
    }
  }

  private *syncTickerLoop(): Proc<void> {
    for (;;) {
      yield this.tuning.syncTickMs;
      const due = this.workQueue.getWork();
      if (due.length === 0) continue;
      // getPodsToSync walks the pod manager's pods (a Go map: seeded order). getWork is sorted by
      // UID, as getPods is: the due pods in the pod manager's order, without listing all of them.
      const pods: Pod[] = [];
      for (const uid of due) {
        const p = this.pm.getPodByUID(uid);
        if (p !== undefined) pods.push(p);
      }
      // (the shuffle of one pod draws nothing)
      this.handlePodSyncs(pods.length < 2 ? pods : this.rng.shuffle(pods));
    }
  }

  private *housekeepingLoop(): Proc<void> {
    for (;;) {
      yield this.tuning.housekeepingPeriodMs;
      yield* this.handlePodCleanups();
    }
  }

  /** StartGarbageCollection's container GC (classic: v1.18–v1.20 kubelet.go, wait.Until at start,
   *  then every ContainerGCPeriod). */
  private *containerGCLoop(): Proc<void> {
    for (;;) {
      this.garbageCollectContainers();
      yield CONTAINER_GC_PERIOD_MS;
    }
  }

  /** containerGC.GarbageCollect, the part that changes what the kubelet sees: every exited container
   *  of a pod that IsPodDeleted says is gone (not in the pod manager; evicted; or deleted with no
   *  container running per its status) is removed, oldest first, so that the next relist drops it
   *  from the cache — the classic PodResourcesAreReclaimed waits for that when the container
   *  deletor was not run (the container died before the kubelet saw the deletion). Not modelled:
   *  the per-container and node-wide limits on the dead instances of pods that still run
   *  (MaxPerPodContainer 1, MaxContainers), and sandbox GC; neither changes a status. */
  private garbageCollectContainers(): void {
    const units = new Map<UID, string[]>(); // evictUnits: the exited containers, oldest first
    for (const uid of this.runtime.podUIDsUnordered()) {
      const exited = this.runtime.getPodStatus(uid).containers.filter((c) => c.state === 'exited');
      if (exited.length === 0 || !this.isPodDeletedClassic(uid)) continue;
      units.set(uid, exited.sort((a, b) => a.createdAtMs - b.createdAtMs).map((c) => c.id)); // removeOldestN
    }
    // evictUnits is a Go map: a seeded order (one pod's shuffle draws nothing)
    const pods = [...units.keys()].sort();
    for (const uid of pods.length < 2 ? pods : this.rng.shuffle(pods)) {
      for (const id of units.get(uid)!) this.runtime.removeContainer(id);
    }
  }

  /** IsPodDeleted (classic, v1.18–v1.20 kubelet_pods.go): the pod is gone from the pod manager, or
   *  its status (the status manager's, else the pod's) is evicted, or it is deleted and no container
   *  runs per that status. */
  private isPodDeletedClassic(uid: UID): boolean {
    const pod = this.pm.getPodByUID(uid);
    if (pod === undefined) return true;
    const status = this.sm.getPodStatus(uid) ?? pod.status ?? {};
    return podIsEvicted(status) || (!!pod.metadata?.deletionTimestamp && notRunning(status.containerStatuses));
  }

  // ---- the config source's updates (HandlePodAdditions / Updates / Removes / Reconcile) ---------

  /** HandlePodAdditions for one pod already in the pod manager. */
  podAdded(pod: Pod): void {
    if (this.stopped) return;
    this.lastConfig.set(pod.metadata?.uid ?? '', pod);
    if (isMirrorPod(pod)) return this.handleMirrorPod(pod);
    this.dispatch(pod, 'create');
  }

  /** HandlePodUpdates, or HandlePodReconcile when only the status changed. */
  podUpdated(pod: Pod): void {
    if (this.stopped) return;
    const uid = pod.metadata?.uid ?? '';
    const prev = this.lastConfig.get(uid);
    this.lastConfig.set(uid, pod);
    if (prev !== undefined && !podsDifferSemantically(prev, pod)) {
      // HandlePodReconcile: a status-only change syncs the pod only to reconcile readiness gates
      if (!isMirrorPod(pod) && this.needToReconcilePodReadiness(pod)) this.dispatch(pod, 'sync');
      return;
    }
    if (isMirrorPod(pod)) return this.handleMirrorPod(pod);
    this.dispatch(pod, 'update');
  }

  /** HandlePodRemoves for one pod already removed from the pod manager. */
  podRemoved(pod: Pod): void {
    if (this.stopped) return;
    const uid = pod.metadata?.uid ?? '';
    this.lastConfig.delete(uid);
    if (isMirrorPod(pod)) return this.handleMirrorPod(pod);
    if (this.workersCurrent) {
      // deletePod: the worker terminates the pod (if it has not already)
      this.workersCurrent.updatePod({ updateType: 'kill', pod });
      return;
    }
    // classic deletePod: forget the worker, and the pod killer stops whatever still runs
    this.workersClassic!.forgetWorker(uid);
    if (this.runtime.hasRunningContainers(uid)) this.spawnKill(pod, undefined, 'pod-killer');
    this.prober.removePod(uid);
  }

  /** The file source: a static pod (the manifest is completed as the file source does — UID, hash,
   *  config.source, nodeName) goes into the pod manager and is synced; its sync creates the mirror. */
  addStaticPod(manifest: Pod): Pod {
    const pod = staticPodFromManifest(manifest, this.config.nodeName);
    if (this.stopped) return pod;
    this.pm.addPod(pod);
    this.podAdded(pod);
    return pod;
  }

  /** NeedToReconcilePodReadiness */
  private needToReconcilePodReadiness(pod: Pod): boolean {
    if ((pod.spec?.readinessGates ?? []).length === 0) return false;
    const st = pod.status ?? {};
    const all = this.gen === 'current' ? [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])] : st.containerStatuses ?? [];
    const want = generatePodReadyCondition(pod.spec, st.conditions, all, st.phase, this.gen, this.gates);
    const i = getPodConditionIndex(st.conditions, PodReady);
    if (i < 0) return false;
    const cur = st.conditions![i];
    return cur.status !== want.status || (cur.message ?? '') !== (want.message ?? '');
  }

  /** handleMirrorPod: a mirror pod's change syncs its static pod. */
  private handleMirrorPod(mirror: Pod): void {
    const pod = this.pm.getPodByMirrorPod(mirror);
    if (pod === undefined) return;
    this.dispatch(pod, 'update', mirror);
  }

  /** HandlePodSyncs */
  private handlePodSyncs(pods: readonly Pod[]): void {
    for (const pod of pods) {
      if (isMirrorPod(pod)) continue;
      this.dispatch(pod, 'sync');
    }
  }

  /** current: podWorkers.UpdatePod; classic: dispatchWork. */
  private dispatch(pod: Pod, updateType: SyncPodType, mirrorPod?: Pod): void {
    const mirror = mirrorPod ?? this.pm.getMirrorPodByPod(pod);
    if (this.workersCurrent) {
      this.workersCurrent.updatePod({ updateType, pod, mirrorPod: mirror });
      return;
    }
    this.dispatchWork(pod, updateType, mirror);
  }

  /** dispatchWork (classic, v1.18–v1.20 kubelet.go): a deleted pod whose containers are all
   *  terminal is handed to TerminatePod instead of a worker; a pod whose cached phase is terminal
   *  gets no more work at all, even while its containers still run (v1.21's PR #98742 added
   *  `&& containersTerminal` to that optimization; v1.20 has the stale-containerStatuses bug
   *  #98718). */
  private dispatchWork(pod: Pod, updateType: SyncPodType, mirrorPod: Pod | undefined): void {
    const uid = pod.metadata?.uid ?? '';
    // check whether we are ready to delete the pod from the API server (all status up to date)
    const { containersTerminal, podWorkerTerminal } = this.podAndContainersAreTerminal(pod);
    if (pod.metadata?.deletionTimestamp && containersTerminal) {
      this.trace({ type: 'worker.terminated', actor: 'kubelet', pod: podKey(pod), uid, via: 'dispatchWork' });
      this.sm.terminatePod(pod);
      return;
    }
    // optimization: avoid invoking the pod worker if no further changes are possible to the pod definition
    if (podWorkerTerminal) {
      this.log('V4', `Pod has completed, ignoring remaining sync work: ${updateType}`, podKey(pod));
      return;
    }
    this.workersClassic!.updatePod({ updateType, pod, mirrorPod });
  }

  /** podAndContainersAreTerminal (classic, v1.18–v1.20 kubelet_pods.go): per the status manager's
   *  cache (else the API status), whether no container runs, and whether the pod worker is done:
   *  a terminal phase, or deleted with no container running. */
  private podAndContainersAreTerminal(pod: Pod): { containersTerminal: boolean; podWorkerTerminal: boolean } {
    const status = this.sm.getPodStatus(pod.metadata?.uid ?? '') ?? pod.status ?? {};
    const containersTerminal = notRunning(status.containerStatuses);
    const podWorkerTerminal = isPodPhaseTerminal(status.phase) || (!!pod.metadata?.deletionTimestamp && containersTerminal);
    return { containersTerminal, podWorkerTerminal };
  }

  /** PLEG events: every event but ContainerRemoved syncs the pod; in the classic generation a
   *  ContainerDied then runs the container deletor (cleanUpContainersInPod). */
  private onPlegEvents(events: PodLifecycleEvent[]): void {
    if (this.stopped) return;
    for (const e of events) {
      if (e.type !== 'ContainerRemoved') {
        const pod = this.pm.getPodByUID(e.uid);
        if (pod !== undefined) this.handlePodSyncs([pod]);
      }
      if (e.type === 'ContainerDied' && this.gen === 'classic') this.cleanUpContainersInPod(e.uid, e.containerID);
    }
  }

  /** cleanUpContainersInPod (classic, v1.19/v1.20 kubelet.go): when the pod was evicted, or is
   *  deleted and its status generated from the cache shows nothing running, the container deletor
   *  (podContainerDeletor.deleteContainersInPod with removeAll) removes every exited container of
   *  the pod; the next relist reports them ContainerRemoved and drops them from the cache, which
   *  is what PodResourcesAreReclaimed waits for. Not modelled: the other case, which removes all
   *  but the newest dead instance of the container that died (containersToKeep = 1), and the
   *  current generation's deletor (ShouldPodContentBeRemoved); neither changes a status. */
  private cleanUpContainersInPod(uid: UID, _exitedContainerID: string): void {
    const podStatus = this.cache.get(uid);
    const syncedPod = this.pm.getPodByUID(uid);
    if (syncedPod === undefined) return;
    // generate the api status using the cached runtime status to get up-to-date ContainerStatuses
    const apiPodStatus = this.generateAPIPodStatus(syncedPod, podStatus, false);
    const removeAll = podIsEvicted(syncedPod.status) || (!!syncedPod.metadata?.deletionTimestamp && notRunning(apiPodStatus.containerStatuses));
    if (!removeAll) return;
    // getContainersToDeleteInPod: the exited instances, newest attempt (then newest created) first
    const candidates = podStatus.containers.filter((c) => c.state === 'exited').sort((a, b) => b.restartCount - a.restartCount || b.createdAtMs - a.createdAtMs);
    for (const c of candidates) this.runtime.removeContainer(c.id);
  }

  // ---- status generation ---------------------------------------------------------------------

  /** generateAPIPodStatus with this kubelet's status cache, reason cache and prober. The status is
   *  handed to the status manager, which deep-freezes it. A pure function of the pod, the runtime
   *  status, the cached status (all immutable), the pod's reason-cache entries and probe results
   *  (versioned per pod): when none of them changed since the pod's previous call, that call's
   *  (frozen) answer is the answer. A generation that logged is never reused (its log must recur). */
  generateAPIPodStatus(pod: Pod, podStatus: RuntimePodStatus, podIsTerminal: boolean): PodStatus {
    const uid = pod.metadata?.uid ?? '';
    const cachedStatus = this.sm.getPodStatus(uid);
    const reasons = this.reasonVersions.get(uid) ?? 0;
    const probes = this.prober.podVersion(uid);
    const last = this.lastGenerated.get(uid);
    if (
      last !== undefined &&
      last.pod === pod &&
      last.podStatus === podStatus &&
      last.podIsTerminal === podIsTerminal &&
      last.cachedStatus === cachedStatus &&
      last.reasons === reasons &&
      last.probes === probes
    ) {
      return last.status;
    }
    let logged = false;
    const status = generateAPIPodStatus(pod, podStatus, podIsTerminal, {
      gen: this.gen,
      gates: this.gates,
      at: this.rfc3339,
      cachedStatus,
      reasonFor: (name) => this.reasonCache.get(uid)?.get(name),
      prober: this.prober,
      log: (msg) => {
        logged = true;
        this.log('error', msg, podKey(pod));
      },
    });
    if (logged || !Object.isFrozen(pod) || (cachedStatus !== undefined && !Object.isFrozen(cachedStatus))) this.lastGenerated.delete(uid);
    else if (last === undefined) this.lastGenerated.set(uid, { pod, podStatus, podIsTerminal, cachedStatus, reasons, probes, status: deepFreeze(status) });
    else {
      // the pod's record, kept (it lives as long as the pod: replaced, it would be copied by GC)
      last.pod = pod;
      last.podStatus = podStatus;
      last.podIsTerminal = podIsTerminal;
      last.cachedStatus = cachedStatus;
      last.reasons = reasons;
      last.probes = probes;
      last.status = deepFreeze(status);
    }
    return status;
  }

  // ---- the sync functions (PodSyncer) ---------------------------------------------------------

  /** SyncPod (current): generate and set the status; a terminal phase ends here (the worker then
   *  terminates the pod); otherwise mirror pod upkeep and the runtime's SyncPod (syncRuntime). */
  syncPod(updateType: SyncPodType, pod: Pod, mirrorPod: Pod | undefined, podStatus: RuntimePodStatus): SyncOutcome<SyncPodResult> {
    const uid = pod.metadata?.uid ?? '';
    if (emitsNothing(this.tracer)) this.tracer.skip!('worker.sync'); // (nothing reads it: counted, not built)
    else this.trace({ type: 'worker.sync', actor: 'kubelet', pod: podKey(pod), uid, updateType });
    const apiPodStatus = this.generateAPIPodStatus(pod, podStatus, false);
    if (isPodPhaseTerminal(apiPodStatus.phase)) {
      this.sm.setPodStatus(pod, apiPodStatus);
      return SYNC_TERMINAL;
    }
    this.sm.setPodStatus(pod, apiPodStatus);
    return this.syncRuntime(pod, mirrorPod, podStatus);
  }

  /** SyncTerminatingPod (current): set the status, stop every container with the grace period,
   *  check that nothing runs, regenerate with podIsTerminal and set it again. */
  *syncTerminatingPod(pod: Pod, podStatus: RuntimePodStatus, gracePeriodSeconds: number | undefined): Proc<{ err?: string }> {
    const uid = pod.metadata?.uid ?? '';
    this.trace({ type: 'worker.terminating', actor: 'kubelet', pod: podKey(pod), uid, gracePeriodSeconds });
    this.sm.setPodStatus(pod, this.generateAPIPodStatus(pod, podStatus, false));
    yield* this.killPod(pod, gracePeriodSeconds);
    this.prober.removePod(uid);
    const stopped = this.runtime.getPodStatus(uid);
    const still = stopped.containers.filter((c) => c.state === 'running').map((c) => c.id);
    if (still.length > 0) return { err: `detected running containers after a successful KillPod, CRI violation: ${still.join(' ')}` };
    this.sm.setPodStatus(pod, this.generateAPIPodStatus(pod, stopped, true));
    return {};
  }

  /** SyncTerminatedPod (current): the final status, then TerminatePod. */
  *syncTerminatedPod(pod: Pod, podStatus: RuntimePodStatus): Proc<{ err?: string }> {
    const uid = pod.metadata?.uid ?? '';
    this.trace({ type: 'worker.terminated', actor: 'kubelet', pod: podKey(pod), uid });
    this.sm.setPodStatus(pod, this.generateAPIPodStatus(pod, podStatus, true));
    this.sm.terminatePod(pod);
    return {};
  }

  /** syncPod (classic): generate and set the status; a deleted or Failed pod is killed (grace from
   *  the pod, at least 2 s); otherwise mirror upkeep and the runtime's SyncPod (syncRuntime). */
  syncPodClassic(o: UpdatePodOptions, podStatus: RuntimePodStatus): SyncOutcome<{ err?: string }> {
    const pod = o.pod;
    const uid = pod.metadata?.uid ?? '';
    this.trace({ type: 'worker.sync', actor: 'kubelet', pod: podKey(pod), uid, updateType: o.updateType });
    if (o.updateType === 'kill') {
      this.sm.setPodStatus(pod, this.generateAPIPodStatus(pod, podStatus, false));
      return this.killPodThenOK(pod, o.killPodOptions?.gracePeriodSecondsOverride);
    }
    const apiPodStatus = this.generateAPIPodStatus(pod, podStatus, false);
    this.sm.setPodStatus(pod, apiPodStatus);
    if (pod.metadata?.deletionTimestamp || apiPodStatus.phase === 'Failed') {
      if (pod.metadata?.deletionTimestamp && this.runtime.hasRunningContainers(uid)) {
        this.trace({ type: 'worker.terminating', actor: 'kubelet', pod: podKey(pod), uid, gracePeriodSeconds: killContainerTimeoutSeconds('classic', pod, undefined) });
      }
      return this.killPodThenOK(pod, undefined);
    }
    return this.syncRuntime(pod, o.mirrorPod, podStatus);
  }

  /** classic syncPod's kill: killPod, then a sync without error. */
  private *killPodThenOK(pod: Pod, gracePeriodOverride: number | undefined): Proc<SyncPodResult> {
    yield* this.killPod(pod, gracePeriodOverride);
    return SYNC_OK;
  }

  /** The end of a sync that goes on: the static pod's mirror upkeep, then kubeGenericRuntimeManager.
   *  SyncPod — its actions, the pod kill if they ask for one, the rest (runtimeSyncPod) — and the
   *  reason cache. Only the mirror upkeep and the kill wait: a sync that needs neither is done here
   *  and returns its result; otherwise the process that finishes it (syncRuntimeWaiting). */
  private syncRuntime(pod: Pod, mirrorPod: Pod | undefined, podStatus: RuntimePodStatus): SyncOutcome<SyncPodResult> {
    if (isStaticPod(pod)) return this.syncRuntimeWaiting(pod, mirrorPod, podStatus, undefined);
    const changes = computePodActions(pod, podStatus, this.gen, this.gates, this.startupResult);
    if (changes.killPod) return this.syncRuntimeWaiting(pod, undefined, podStatus, changes);
    return this.syncRuntimeEnd(pod, podStatus, changes);
  }

  /** syncRuntime when it waits: for a static pod, the mirror upkeep and then the actions (changes
   *  undefined); the pod kill if the actions ask for one. */
  private *syncRuntimeWaiting(pod: Pod, mirrorPod: Pod | undefined, podStatus: RuntimePodStatus, changes: PodActions | undefined): Proc<SyncPodResult> {
    if (changes === undefined) {
      yield* this.syncMirrorPod(pod, mirrorPod);
      changes = computePodActions(pod, podStatus, this.gen, this.gates, this.startupResult);
    }
    if (changes.killPod) yield* this.killPod(pod, undefined);
    return this.syncRuntimeEnd(pod, podStatus, changes);
  }

  /** The runtime's SyncPod after its actions and the pod kill, the reason cache, the sync's result. */
  private syncRuntimeEnd(pod: Pod, podStatus: RuntimePodStatus, changes: PodActions): SyncPodResult {
    const results = this.runtimeSyncPod(pod, podStatus, changes);
    this.updateReasonCache(pod.metadata?.uid ?? '', results);
    const err = this.syncError(results);
    return err === undefined ? SYNC_OK : { isTerminal: false, err };
  }

  /** The sync's error: the failed starts' syncResult errors, joined by "; " (none: undefined). */
  private syncError(results: readonly StartResult[]): string | undefined {
    let err: string | undefined;
    for (let i = 0; i < results.length; i++) {
      const r = results[i];
      if (r.error === undefined) continue;
      const text = r.text ?? startFailureText(r.name, r.error, r.message);
      err = err === undefined ? text : `${err}; ${text}`;
    }
    return err;
  }

  /** reasonCache.Update: a failed start is remembered, a successful one forgotten. (An entry equal
   *  to the one kept is not replaced; every change bumps the pod's reasonVersions.) */
  private updateReasonCache(uid: UID, results: readonly StartResult[]): void {
    for (let i = 0; i < results.length; i++) {
      const r = results[i];
      let m = this.reasonCache.get(uid);
      if (r.error !== undefined) {
        if (m === undefined) this.reasonCache.set(uid, (m = new Map()));
        const message = r.message ?? '';
        const cur = m.get(r.name);
        if (cur !== undefined && cur.reason === r.error && cur.message === message) continue;
        m.set(r.name, { reason: r.error, message });
        this.reasonVersions.set(uid, (this.reasonVersions.get(uid) ?? 0) + 1);
      } else if (m?.delete(r.name)) {
        this.reasonVersions.set(uid, (this.reasonVersions.get(uid) ?? 0) + 1);
      }
    }
  }

  // ---- mirror pods ---------------------------------------------------------------------------

  /** The static pod's mirror, as the update handed to the worker gave it (the pod manager's when it
   *  was dispatched; for a removed mirror, the removed one): delete it when it is being deleted or
   *  carries another hash, create it when missing (or just deleted). A stale mirror costs a request
   *  that fails (a delete whose UID precondition no longer holds, a create that finds the name
   *  taken), as upstream's does. */
  private *syncMirrorPod(pod: Pod, mirror: Pod | undefined): Proc<void> {
    let deleted = false;
    // revert #22626 (re-create a mirror pod that is being deleted): ignoreMirrorDeletion
    const beingDeleted = !!mirror?.metadata?.deletionTimestamp && !this.config.revertFixes?.includes('ignoreMirrorDeletion');
    if (mirror !== undefined && (beingDeleted || !isMirrorPodOf(mirror, pod))) {
      this.log('info', 'Trying to delete pod', podKey(pod), { mirrorUID: mirror.metadata?.uid });
      deleted = yield* this.mirrors.deleteMirrorPod(mirror, mirror.metadata?.uid);
    }
    if (mirror === undefined || deleted) yield* this.mirrors.createMirrorPod(pod);
  }

  // ---- the runtime manager -------------------------------------------------------------------

  /** kubeGenericRuntimeManager.SyncPod after computePodActions and the pod kill (the caller's, the
   *  only step that waits): create the sandbox, start the next init container(s), start the
   *  containers — each start subject to the restart back-off. */
  private runtimeSyncPod(pod: Pod, podStatus: RuntimePodStatus, changes: PodActions): readonly StartResult[] {
    let results = NO_RESULTS;
    if (changes.killPod && !changes.createSandbox) return results;
    if (changes.createSandbox) this.runtime.runPodSandbox(pod);
    const inits = pod.spec?.initContainers ?? [];
    if (changes.nextInitContainerToStart !== undefined) {
      const r = this.startWithBackOff(pod, changes.nextInitContainerToStart, podStatus);
      results = withResult(results, r);
      if (r.error !== undefined) return results;
    }
    for (let i = 0; i < changes.initContainersToStart.length; i++) {
      const c = inits[changes.initContainersToStart[i]];
      const r = this.startWithBackOff(pod, c, podStatus);
      results = withResult(results, r);
      if (r.error !== undefined && !isRestartableInitContainer(c, this.gen, this.gates)) return results;
    }
    const containers = pod.spec?.containers ?? [];
    for (let i = 0; i < changes.containersToStart.length; i++) results = withResult(results, this.startWithBackOff(pod, containers[changes.containersToStart[i]], podStatus));
    return results;
  }

  /** One start of SyncPod: skipped with CrashLoopBackOff while the container is in back-off, else
   *  the container is started. Returns the start's result (an error: not started). */
  private startWithBackOff(pod: Pod, c: Container, podStatus: RuntimePodStatus): StartResult {
    const backoff = this.doBackOff(pod, c, podStatus);
    if (backoff !== undefined) {
      if (emitsNothing(this.tracer)) this.tracer.skip!('runtime.backoff'); // (nothing reads it: counted, not built)
      else this.trace({ type: 'runtime.backoff', actor: 'kubelet', pod: podKey(pod), uid: pod.metadata?.uid, container: c.name, message: backoff.message });
      return backoff;
    }
    this.startContainer(pod, c);
    return { name: c.name };
  }

  /** doBackOff: a container whose latest instance exited is in back-off while less than its back-off
   *  has passed since that instance finished; otherwise the back-off moves on. Returns the
   *  CrashLoopBackOff start result when in back-off. */
  private doBackOff(pod: Pod, container: Container, podStatus: RuntimePodStatus): StartResult | undefined {
    let cStatus: RuntimePodStatus['containers'][number] | undefined;
    for (const c of podStatus.containers) {
      if (c.name === container.name && c.state === 'exited') {
        cStatus = c;
        break;
      }
    }
    if (cStatus === undefined) return undefined;
    const ts = cStatus.finishedAtMs ?? this.engine.nowMs;
    const key = getStableKey(pod, container);
    if (this.backoff.isInBackOffSince(key, ts)) return crashLoopBackOffResult(this.backoff.get(key), container, pod);
    this.backoff.next(key, ts);
    return undefined;
  }

  /** startContainer: the attempt for this instance from the scenario (the last one repeats), and
   *  the attempt's probe defaults. */
  private startContainer(pod: Pod, c: Container): RuntimeContainer {
    const uid = pod.metadata?.uid ?? '';
    const prev = this.runtime.latestContainer(uid, c.name);
    const n = prev === undefined ? 0 : prev.restartCount + 1;
    const attempts = this.behaviour(pod)[c.name] ?? [];
    const attempt = attempts.length > 0 ? attempts[Math.min(n, attempts.length - 1)] : DEFAULT_ATTEMPT;
    const inst = this.runtime.startContainer(pod, c, attempt);
    if (attempt.ready !== undefined && hasProbe(c, 'readiness')) this.prober.set('readiness', uid, inst.id, attempt.ready);
    if (attempt.started !== undefined && hasProbe(c, 'startup')) this.prober.set('startup', uid, inst.id, attempt.started);
    return inst;
  }

  /** killPod: stop every running container of the pod, then its sandbox. Regular (and plain init)
   *  containers get SIGTERM at once; sidecars (current, gate on) wait their turn as upstream's
   *  newTerminationOrdering says — for the regular containers and the next restartable init
   *  container in spec order (one that is not running counts as terminated) — each in a goroutine
   *  of its own, for at most the grace period, and lose the time waited. */
  private *killPod(pod: Pod, gracePeriodOverride: number | undefined): Proc<void> {
    const uid = pod.metadata?.uid ?? '';
    const running = this.runtime.runningContainers(uid);
    const inits = pod.spec?.initContainers ?? [];
    const sidecarIndex = new Map<string, number>();
    inits.forEach((c, i) => {
      if (isRestartableInitContainer(c, this.gen, this.gates)) sidecarIndex.set(c.name, i);
    });
    const regular = running.filter((c) => !sidecarIndex.has(c.name));
    const sidecars = running.filter((c) => sidecarIndex.has(c.name)).sort((a, b) => sidecarIndex.get(b.name)! - sidecarIndex.get(a.name)!);
    const t0 = this.engine.nowMs;
    const waits: Deferred<void>[] = [];
    for (const c of regular) waits.push(this.runtime.stopContainer(c.id, killContainerTimeoutSeconds(this.gen, pod, gracePeriodOverride), this.group));
    if (sidecars.length > 0) {
      const turnGrace = gracePeriodOverride ?? podTerminationGracePeriod(pod);
      const deadline = t0 + turnGrace * 1000;
      const self = this;
      for (const s of sidecars) {
        // the next restartable init container after this one in spec order, if it runs
        let next: RuntimeContainer | undefined;
        for (let i = sidecarIndex.get(s.name)! + 1; i < inits.length; i++) {
          if (!sidecarIndex.has(inits[i].name)) continue;
          next = sidecars.find((c) => c.name === inits[i].name);
          break;
        }
        const prereqs = next === undefined ? regular : [...regular, next];
        if (this.engine.nowMs >= deadline || prereqs.every((c) => !c.running)) {
          // its turn has come already: stopped from here, with no goroutine to wait in
          waits.push(this.runtime.stopContainer(s.id, killContainerTimeoutSeconds(this.gen, pod, gracePeriodOverride, (this.engine.nowMs - t0) / 1000), this.group));
          continue;
        }
        const stopped = new Deferred<void>();
        waits.push(stopped);
        this.spawn(`kill-sidecar/${uid}/${s.name}`, (function* (): Proc<void> {
          yield* self.waitExitsOrUntil(prereqs, deadline); // terminationOrdering.waitForTurn
          const waited = (self.engine.nowMs - t0) / 1000;
          yield* self.runtime.stopContainer(s.id, killContainerTimeoutSeconds(self.gen, pod, gracePeriodOverride, waited), self.group).wait();
          stopped.resolve(self.engine, undefined);
        })());
      }
    }
    for (const w of waits) yield* w.wait();
    this.runtime.stopPodSandbox(uid);
  }

  /** Wait until every container has exited, or until deadlineMs. */
  private *waitExitsOrUntil(cs: readonly RuntimeContainer[], deadlineMs: number): Proc<void> {
    const pending = cs.filter((c) => c.running);
    if (pending.length === 0 || this.engine.nowMs >= deadlineMs) return;
    const d = new Deferred<void>();
    let left = pending.length;
    for (const c of pending)
      c.onExit(() => {
        if (--left === 0) d.resolve(this.engine, undefined);
      });
    const t = this.engine.at(deadlineMs, () => d.resolve(this.engine, undefined));
    this.timers.push(t);
    yield* d.wait();
    t.cancel();
  }

  /** Kill a pod's containers in a process of its own (pod killer, orphaned runtime pods). */
  private spawnKill(pod: Pod, override: number | undefined, why: string): void {
    const uid = pod.metadata?.uid ?? '';
    if (this.orphanKills.has(uid)) return;
    this.orphanKills.add(uid);
    const self = this;
    this.spawn(`${why}/${uid}`, (function* (): Proc<void> {
      try {
        yield* self.killPod(pod, override);
      } finally {
        self.orphanKills.delete(uid);
      }
    })());
  }

  // ---- housekeeping --------------------------------------------------------------------------

  /** HandlePodCleanups: prune pod workers, stop runtime pods nothing wants, RemoveOrphanedStatuses
   *  (regular and mirror pods of the pod manager), delete orphaned mirror pods, back-off GC. */
  *handlePodCleanups(): Proc<void> {
    const mirrorPods = this.pm.getMirrorPods();
    if (this.workersCurrent) {
      // allPods: the pod manager's pods, asked by UID
      const working = this.workersCurrent.syncKnownPods(this.inPodManager);
      for (const uid of this.runningPodsOutside(working)) {
        // an orphaned runtime pod: SyncTerminatingRuntimePod, grace 1 s
        // (runningPod.ToAPIPod(): every container a plain one, so no sidecar termination ordering)
        const pod = this.runtime.podOf(uid);
        if (pod !== undefined) this.spawnKill(asRunningPod(pod), 1, 'runtime-pod-killer');
      }
    } else {
      const desired = new Set<UID>();
      for (const p of this.pm.getPods()) if (!this.podIsTerminated(p)) desired.add(p.metadata?.uid ?? '');
      this.workersClassic!.forgetNonExistingPodWorkers(desired);
      for (const uid of this.runningPodsOutside(desired)) {
        const pod = this.runtime.podOf(uid);
        if (pod !== undefined) this.spawnKill(produce(pod, (d) => void (d.metadata && delete d.metadata.deletionGracePeriodSeconds)), undefined, 'pod-killer');
      }
    }
    this.sm.removeOrphanedStatuses(this.podManagerUIDs(mirrorPods));
    for (const m of mirrorPods) {
      if (this.pm.getPodByMirrorPod(m) !== undefined) continue;
      if (this.workersCurrent?.isPodForMirrorPodTerminatingByFullName(podFullName(m))) continue;
      yield* this.mirrors.deleteMirrorPod(m, undefined);
    }
    this.backoff.gc();
  }

  /** The UIDs of the pod manager's pods and mirror pods, as a set. The previous answer is reused while
   *  the pod manager's uidVersion stands still (no UID added or removed since). */
  private podManagerUIDs(mirrorPods: readonly Pod[]): ReadonlySet<UID> {
    const prev = this.lastPodManagerUIDs;
    if (prev !== null && prev.version === this.pm.uidVersion) return prev.uids;
    const uids = new Set<UID>();
    for (const p of this.pm.getPods()) uids.add(p.metadata?.uid ?? '');
    for (const p of mirrorPods) uids.add(p.metadata?.uid ?? '');
    this.lastPodManagerUIDs = { version: this.pm.uidVersion, uids };
    return uids;
  }

  /** The runtime's pods with a running container that `known` does not hold, sorted by UID (the
   *  runtime's pods walked unsorted: usually none qualifies). */
  private runningPodsOutside(known: { has(uid: UID): boolean }): UID[] {
    const out: UID[] = [];
    for (const uid of this.runtime.podUIDsUnordered()) if (!known.has(uid) && this.runtime.hasRunningContainers(uid)) out.push(uid);
    return out.sort();
  }

  /** podIsTerminated (classic): terminal phase, or deleted with no container running, per the status
   *  manager's cache (else the API status). */
  private podIsTerminated(pod: Pod): boolean {
    const st = this.sm.getPodStatus(pod.metadata?.uid ?? '') ?? pod.status ?? {};
    return isPodPhaseTerminal(st.phase) || (!!pod.metadata?.deletionTimestamp && notRunning(st.containerStatuses));
  }

  /** PodResourcesAreReclaimed (classic, v1.18–v1.20 kubelet_pods.go): no container runs per the
   *  status, and the PLEG cache lists no container of the pod — exited ones too, which leave the
   *  cache only after the container deletor removed them and a relist saw it. Volumes and the pod
   *  cgroup, upstream's further checks, are not modelled (always reclaimed). */
  podResourcesAreReclaimed(pod: Pod, status: PodStatus): boolean {
    if (!notRunning(status.containerStatuses)) {
      this.log('V3', 'Pod is terminated, but some containers are still running', podKey(pod));
      return false;
    }
    const runtimeStatus = this.cache.get(pod.metadata?.uid ?? '');
    if (runtimeStatus.containers.length > 0) {
      this.log('V3', 'Pod is terminated, but some containers have not been cleaned up', podKey(pod), { containers: runtimeStatus.containers.map((c) => `${c.name}:${c.state}`) });
      return false;
    }
    return true;
  }

  /** PodCouldHaveRunningContainers (current: the pod worker's state). The classic kubelet has no
   *  such hook; it answers from the runtime. */
  couldHaveRunningContainers(uid: UID): boolean {
    if (this.workersCurrent) return this.workersCurrent.couldHaveRunningContainers(uid);
    return this.runtime.hasRunningContainers(uid);
  }

  // ---- the timeline's node actions -----------------------------------------------------------

  /** The running container exits now with code (reason Completed/Error unless given). */
  exit(podUID: UID, container: string, code: number, reason?: string, message?: string): void {
    if (!this.runtime.exit(podUID, container, code, reason, message)) this.log('warning', `exit: no running container ${container}`, undefined, { uid: podUID });
  }

  /** The running container is OOM-killed (exit 137, OOMKilled). */
  oom(podUID: UID, container: string): void {
    if (!this.runtime.oom(podUID, container)) this.log('warning', `oom: no running container ${container}`, undefined, { uid: podUID });
  }

  /** The readiness probe of the running container now reports value. */
  setReady(podUID: UID, container: string, value: boolean): void {
    this.probeResult('readiness', podUID, container, value);
  }

  /** The startup probe of the running container now reports value. */
  setStarted(podUID: UID, container: string, value: boolean): void {
    this.probeResult('startup', podUID, container, value);
  }

  /** A probe worker's result: cached per container instance; a change goes to the status manager
   *  (SetContainerReadiness / SetContainerStartup with the container ID) and, in the current
   *  generation, also syncs the pod (handleProbeSync). */
  private probeResult(kind: ProbeKind, podUID: UID, container: string, value: boolean): void {
    if (this.stopped) return;
    const c = this.runtime.runningContainer(podUID, container);
    const pod = this.pm.getPodByUID(podUID);
    if (c === undefined || pod === undefined) {
      this.log('warning', `${kind} result for ${container}: no running container`, pod ? podKey(pod) : undefined, { uid: podUID });
      return;
    }
    const changed = this.prober.set(kind, podUID, c.id, value);
    if (emitsNothing(this.tracer)) this.tracer.skip!('probe.result'); // (nothing reads it: counted, not built)
    else this.trace({ type: 'probe.result', actor: 'kubelet', pod: podKey(pod), uid: podUID, container, probe: kind, result: value, changed });
    if (!changed) return;
    if (kind === 'readiness') this.sm.setContainerReadiness(podUID, c.id, value);
    else this.sm.setContainerStartup(podUID, c.id, value);
    if (this.gen === 'current') this.handlePodSyncs([pod]);
  }

  // ---- helpers -------------------------------------------------------------------------------

  private trace(e: TraceEvent): void {
    this.tracer.emit(e);
  }

  private log(level: LogLevel, msg: string, pod?: string, fields?: Record<string, unknown>): void {
    this.tracer.log(level, msg, pod, fields);
  }
}

/** kubecontainer.Pod.ToAPIPod for a runtime pod: the containers it runs, all as plain containers
 *  (no init containers, hence no sidecars). */
function asRunningPod(pod: Pod): Pod {
  const inits = pod.spec?.initContainers;
  if (!inits || inits.length === 0) return pod;
  return produce(pod, (d) => {
    d.spec!.containers = [...(d.spec!.initContainers ?? []), ...d.spec!.containers];
    delete d.spec!.initContainers;
  });
}

/** eviction.PodIsEvicted: phase Failed with reason Evicted. */
function podIsEvicted(status: PodStatus | undefined): boolean {
  return status?.phase === 'Failed' && status.reason === 'Evicted';
}
