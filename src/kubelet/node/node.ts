// The simulated node (`runtime: simulated`), the Kubelet as the world sees it (pkg/kubelet/kubelet.go):
// a thin composition of the modules that follow upstream's files — kubelet-state.ts (the Kubelet
// struct), kubelet.ts (kubelet.go: loops, config handlers, dispatch), kubelet-sync.ts (kubelet.go: the
// sync functions), kubelet-pods.ts (kubelet_pods.go), pod-workers*.ts (pod_workers.go),
// kuberuntime-manager.ts, kuberuntime-gc.ts, pod-container-deletor.ts, reason-cache.ts, pod-config.ts
// (config/config.go) and work-queue.ts (util/queue/work_queue.go) — for both generations.
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
import type { Proc } from '../../engine/index.js';
import type { PodDeletionSafetyProvider } from '../../model/client.js';
import type { Pod, PodStatus, UID } from '../../model/pod.js';
import type { StatusFeatureGates } from '../status/types.js';
import type { Backoff } from './backoff.js';
import { evictPod, type EvictionRequest } from './eviction.js';
import { NODE_SHUTTING_DOWN, startShutdown, type ShutdownConfig } from './nodeshutdown.js';
import { getPods } from './kubelet-getters.js';
import { addStaticPod, onPlegEvents, podAdded, podRemoved, podUpdated, probeResult, probeUpdate, start, stop } from './kubelet.js';
import { generateAPIPodStatus, handlePodCleanups, podResourcesAreReclaimed, couldHaveRunningContainers } from './kubelet-pods.js';
import { KubeletState, type NodeOptions, type NodeTuning } from './kubelet-state.js';
import { syncPod, syncPodClassic, syncTerminatedPod, syncTerminatingPod } from './kubelet-sync.js';
import type { GenericPLEG, PodCache } from './pleg.js';
import type { PodWorkersClassic } from './pod-workers-classic.js';
import type { PodWorkersCurrent } from './pod-workers-current.js';
import type { PodStatusFunc, PodSyncer, SyncOutcome, SyncPodResult, SyncPodType, UpdatePodOptions } from './pod-workers.js';
import type { ProbeManager } from './prober.js';
import type { Runtime } from './runtime.js';
import type { Generation, RuntimePodStatus } from './types.js';
import type { BasicWorkQueue } from './work-queue.js';

export { CONTAINER_GC_PERIOD_MS, DEFAULT_NODE_TUNING, type NodeOptions, type NodeTuning } from './kubelet-state.js';
export { BasicWorkQueue } from './work-queue.js';

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
  /** The kubelet's state, which every function module takes. */
  private readonly kl: KubeletState;

  /** @param opts see NodeOptions (and KubeletState's constructor) */
  constructor(opts: NodeOptions) {
    const kl = new KubeletState(opts, this, (evs) => onPlegEvents(kl, evs));
    this.kl = kl;
    kl.onProbeUpdate = (kind, uid, name, id, result) => probeUpdate(kl, kind, uid, name, id, result);
    this.gen = kl.gen;
    this.gates = kl.gates;
    this.tuning = kl.tuning;
    this.runtime = kl.runtime;
    this.cache = kl.cache;
    this.pleg = kl.pleg;
    this.prober = kl.prober;
    this.backoff = kl.backoff;
    this.workQueue = kl.workQueue;
    this.workersCurrent = kl.workersCurrent;
    this.workersClassic = kl.workersClassic;
    this.deletionSafety = {
      // classic PodResourcesAreReclaimed: nothing runs per the status, no container left in the PLEG cache
      podResourcesAreReclaimed: (pod: Pod, status: PodStatus) => podResourcesAreReclaimed(kl, pod, status),
      // current PodCouldHaveRunningContainers: the pod worker has not reached terminated
      podCouldHaveRunningContainers: (pod: Pod) => couldHaveRunningContainers(kl, pod.metadata?.uid ?? ''),
    };
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** Start the kubelet's loops: the PLEG relist (at once, then every plegRelistPeriod), the sync
   *  ticker that hands due pods from the work queue to their workers, and housekeeping. */
  start(): void {
    start(this.kl);
  }

  /** The kubelet process dies: every process of this incarnation is killed and its timers are
   *  cancelled. Containers keep running; StopContainer calls in flight end without their SIGKILL. */
  stop(): void {
    stop(this.kl);
  }

  // ---- the config source's updates -----------------------------------------------------------

  /** HandlePodAdditions for one pod already in the pod manager. */
  podAdded(pod: Pod): void {
    podAdded(this.kl, pod);
  }

  /** HandlePodUpdates, or HandlePodReconcile when only the status changed. */
  podUpdated(pod: Pod): void {
    podUpdated(this.kl, pod);
  }

  /** HandlePodRemoves for one pod already removed from the pod manager. */
  podRemoved(pod: Pod): void {
    podRemoved(this.kl, pod);
  }

  /** The file source: a static pod goes into the pod manager and is synced (see kubelet.ts). */
  addStaticPod(manifest: Pod): Pod {
    return addStaticPod(this.kl, manifest);
  }

  /** GetPods: what the kubelet's read API (/pods, the summary API) serves (kubelet-getters.ts). */
  getPods(): Pod[] {
    return getPods(this.kl);
  }

  // ---- the sync functions (PodSyncer), status generation, housekeeping -----------------------

  /** SyncPod (current) */
  syncPod(updateType: SyncPodType, pod: Pod, mirrorPod: Pod | undefined, podStatus: RuntimePodStatus): SyncOutcome<SyncPodResult> {
    return syncPod(this.kl, updateType, pod, mirrorPod, podStatus);
  }

  /** SyncTerminatingPod (current) */
  syncTerminatingPod(pod: Pod, podStatus: RuntimePodStatus, gracePeriodSeconds: number | undefined, podStatusFn?: PodStatusFunc): Proc<{ err?: string }> {
    return syncTerminatingPod(this.kl, pod, podStatus, gracePeriodSeconds, podStatusFn);
  }

  /** SyncTerminatedPod (current) */
  syncTerminatedPod(pod: Pod, podStatus: RuntimePodStatus): Proc<{ err?: string }> {
    return syncTerminatedPod(this.kl, pod, podStatus);
  }

  /** syncPod (classic) */
  syncPodClassic(o: UpdatePodOptions, podStatus: RuntimePodStatus): SyncOutcome<{ err?: string }> {
    return syncPodClassic(this.kl, o, podStatus);
  }

  /** generateAPIPodStatus with this kubelet's status cache, reason cache and prober. */
  generateAPIPodStatus(pod: Pod, podStatus: RuntimePodStatus, podIsTerminal: boolean): PodStatus {
    return generateAPIPodStatus(this.kl, pod, podStatus, podIsTerminal);
  }

  /** HandlePodCleanups */
  handlePodCleanups(): Proc<void> {
    return handlePodCleanups(this.kl);
  }

  /** PodResourcesAreReclaimed (classic) */
  podResourcesAreReclaimed(pod: Pod, status: PodStatus): boolean {
    return podResourcesAreReclaimed(this.kl, pod, status);
  }

  /** PodCouldHaveRunningContainers (current: the pod worker's state; classic: the runtime). */
  couldHaveRunningContainers(uid: UID): boolean {
    return couldHaveRunningContainers(this.kl, uid);
  }

  // ---- the timeline's node actions -----------------------------------------------------------

  /** The running container exits now with code (reason Completed/Error unless given). */
  exit(podUID: UID, container: string, code: number, reason?: string, message?: string): void {
    if (!this.kl.runtime.exit(podUID, container, code, reason, message)) this.kl.log('warning', `exit: no running container ${container}`, undefined, { uid: podUID });
  }

  /** The running container is OOM-killed (exit 137, OOMKilled). */
  oom(podUID: UID, container: string): void {
    if (!this.kl.runtime.oom(podUID, container)) this.kl.log('warning', `oom: no running container ${container}`, undefined, { uid: podUID });
  }

  /** The readiness probe of the running container now reports value. */
  setReady(podUID: UID, container: string, value: boolean): void {
    probeResult(this.kl, 'readiness', podUID, container, value);
  }

  /** The startup probe of the running container now reports value. */
  setStarted(podUID: UID, container: string, value: boolean): void {
    probeResult(this.kl, 'startup', podUID, container, value);
  }

  /** The eviction manager evicts the pod (eviction.ts); false when it refuses (a critical pod). */
  evict(pod: Pod, req: EvictionRequest): boolean {
    return evictPod(this.kl, pod, req);
  }

  /** logind's PrepareForShutdown: the node shutdown manager kills the pods (nodeshutdown.ts);
   *  powerOff runs when its inhibitor lock is released or logind's delay is over. */
  shutdown(c: ShutdownConfig, powerOff: () => void): void {
    startShutdown(this.kl, c, powerOff);
  }

  /** The Ready setter's failing checks: runtimeErrors and networkErrors (runtime-state.ts), then the shutdown
   *  manager's ShutdownStatus ("node is shutting down" once logind announced it). */
  readyErrors(): string[] {
    const { runtimeErrors: errs, networkError } = this.runtimeHealth();
    if (networkError !== undefined) errs.push(networkError);
    if (this.kl.shuttingDown) errs.push(NODE_SHUTTING_DOWN);
    return errs;
  }

  /** restartRuntime / networkPluginDown: the container runtime (or its network) went down now;
   *  updateRuntimeUp starts to notice. */
  runtimeChanged(): void {
    this.kl.runtimeState.runtimeChanged();
  }

  /** runtimeErrors and networkErrors now (runtime-state.ts), for inspection. */
  runtimeHealth(): { runtimeErrors: string[]; networkError: string | undefined } {
    return { runtimeErrors: this.kl.runtimeState.runtimeErrors(this.kl.engine.nowMs), networkError: this.kl.runtimeState.networkErrors() };
  }

  /** The sync loop sleeps on runtime errors (sync-loop.ts): a config update waits in its channel. */
  get syncLoopClosed(): boolean {
    return this.kl.loop.closed;
  }

  /** A config update for the sleeping sync loop, handled when it wakes. */
  deferToSyncLoop(fn: () => void): void {
    this.kl.loop.defer('config', fn);
  }

  /** The kubelet's syncNodeStatus, for its shutdown manager to call (set with the heartbeats). */
  onSyncNodeStatus(fn: () => void): void {
    this.kl.syncNodeStatus = fn;
  }

  /** The liveness probe of the running container now reports value. */
  setLive(podUID: UID, container: string, value: boolean): void {
    probeResult(this.kl, 'liveness', podUID, container, value);
  }
}
