// pkg/kubelet/status/status_manager.go: the kubelet's source of truth for pod status, and the loop
// that writes it to the apiserver. Both generations:
//   classic (v1.19/v1.20): podStatusChannel carries {podUID, status snapshot} requests (capacity
//     1000); the sync loop runs syncPod per request and, on the 10 s ticker, drops the queued
//     requests and runs syncBatch();
//   current (v1.27+, baseline v1.31): podStatusChannel is a one-slot wake-up; a wake-up runs
//     syncBatch(false) (only newer versions), the ticker runs syncBatch(true) (deletion retries,
//     drift repair, orphan cleanup).
//
// The sync goroutine is an engine process; the API calls yield through the KubeClient. Go's random
// map iteration (`for uid := range m.podStatuses`) is a seeded permutation; Go's random select is
// the engine's seeded select.
import { deepFreeze } from '../../model/freeze.js';
import { Channel, select, type Engine, type Proc, type Process, type Rng } from '../../engine/index.js';
import { createTwoWayMergePatch } from '../../model/strategic-merge.js';
import {
  isMirrorPod,
  isPodPhaseTerminal,
  isStaticPod,
  podKey,
  podUID,
  type ContainerStatus,
  type Pod,
  type PodCondition,
  type PodStatus,
  type UID,
} from '../../model/pod.js';
import type { KubeClient, PodDeletionSafetyProvider } from '../../model/client.js';
import { emitsNothing, type LogLevel, type TraceType, type Tracer } from '../../model/trace.js';
import type { VClock } from '../../model/time.js';
import type { PodManagerApi, StatusManagerApi } from '../api.js';
import { getPodConditionIndex } from './conditions.js';
import { generateContainersReadyCondition, generatePodReadyCondition } from './generate.js';
import { mergePodStatus } from './merge.js';
import { isPodStatusByKubeletEqual, normalizeStatus } from './normalize.js';
import { goJsonPodStatus } from './semantic.js';
import { terminatePodStatus } from './terminate.js';
import { checkContainerStateTransition, updateLastTransitionTimes } from './transition.js';
import {
  ContainersReady,
  DisruptionTarget,
  PodInitialized,
  PodReady,
  PodReadyToStartContainers,
  PodScheduled,
  type Generation,
  type StatusFeatureGates,
} from './types.js';

/** versionedPodStatus: a cached status and its version (per pod, from 1). */
export interface VersionedPodStatus {
  readonly status: PodStatus;
  readonly version: number;
  readonly podName: string;
  readonly podNamespace: string;
  /** current: when the first not-yet-synced update was cached (carried forward; metrics only). */
  readonly at?: string;
  /** current: set by TerminatePod; sticky for non-static pods; gates the final delete. */
  readonly podIsFinished: boolean;
}

/** classic podStatusSyncRequest. */
export interface PodStatusSyncRequest {
  readonly podUID: UID;
  readonly status: VersionedPodStatus;
}

export interface StatusManagerConfig {
  variant: Generation;
  syncPeriodMs: number;
  /** classic only (default 1000); current always uses a one-slot channel. */
  statusChannelCapacity: number;
  featureGates?: StatusFeatureGates;
}

export interface StatusManagerOptions {
  engine: Engine;
  clock: VClock;
  /** null: Start() only logs (no sync loop), as upstream with a nil client. */
  client: KubeClient | null;
  podManager: PodManagerApi;
  deletionSafety: PodDeletionSafetyProvider;
  tracer: Tracer;
  config: StatusManagerConfig;
  /** Engine process group of this kubelet incarnation (the world kills it on kubelet restart). */
  group: string;
  /** Stream for Go's map iteration order. Absent: engine.chooser, label 'status/map-order'. */
  rng?: Rng;
}

/** updateStatusInternal stamps lastTransitionTime on these condition types. */
const LTT_TYPES: Record<Generation, readonly string[]> = {
  classic: [ContainersReady, PodReady, PodInitialized, PodScheduled],
  current: [ContainersReady, PodReady, PodInitialized, PodReadyToStartContainers, PodScheduled, DisruptionTarget],
};

const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

function isZeroTime(t: string | undefined): boolean {
  return t === undefined || t === null || t === '' || t === GO_ZERO_TIME;
}

/** The "type://id" lookup of findContainerStatus: regular statuses first, then init ones. */
function findContainerStatus(status: PodStatus, containerID: string): { list: 'containerStatuses' | 'initContainerStatuses'; index: number } | undefined {
  const cs = status.containerStatuses ?? [];
  for (let i = 0; i < cs.length; i++) if (cs[i].containerID === containerID) return { list: 'containerStatuses', index: i };
  const ics = status.initContainerStatuses ?? [];
  for (let i = 0; i < ics.length; i++) if (ics[i].containerID === containerID) return { list: 'initContainerStatuses', index: i };
  return undefined;
}

function withContainer(status: PodStatus, at: { list: 'containerStatuses' | 'initContainerStatuses'; index: number }, patch: Partial<ContainerStatus>): PodStatus {
  const list = [...status[at.list]!]; // (not slice(): V8's slice is slow on frozen arrays)
  list[at.index] = { ...list[at.index], ...patch };
  return { ...status, [at.list]: list };
}

/** Go's append(a, b...) for the nil-ness that the condition generators look at. */
function goAppend(a: readonly ContainerStatus[] | undefined, b: readonly ContainerStatus[] | undefined): ContainerStatus[] | undefined {
  if (!b || b.length === 0) return a as ContainerStatus[] | undefined;
  return [...(a ?? []), ...b];
}

/** A "same" answer of updateStatusInternal (see StatusManager.sameMemo). */
interface SameMemo {
  status: PodStatus;
  pod: Pod;
  entry: VersionedPodStatus;
}

export class StatusManager implements StatusManagerApi {
  readonly gen: Generation;
  /** Cached statuses by source pod UID (the static pod's UID for static pods). */
  readonly podStatuses = new Map<UID, VersionedPodStatus>();
  /** Latest version sent, by the UID of the API object (the mirror pod's UID for static pods). */
  readonly apiStatusVersions = new Map<UID, number>();
  /** classic: sync requests; current: wake-ups (the value is unused). */
  readonly podStatusChannel: Channel<PodStatusSyncRequest | undefined>;

  private readonly engine: Engine;
  private readonly clock: VClock;
  private readonly client: KubeClient | null;
  private readonly podManager: PodManagerApi;
  private readonly deletionSafety: PodDeletionSafetyProvider;
  private readonly tracer: Tracer;
  private readonly gates: StatusFeatureGates | undefined;
  private readonly syncPeriodMs: number;
  private readonly group: string;
  private readonly rng: Rng | undefined;
  /** The sync loop and its ticker, while started. */
  private readonly loopProcs: Process[] = [];
  /** `syncBatch` steps waiting for the sync loop (not a channel of upstream's: the simulator's way
   *  to put a batch on the loop). */
  private readonly manualBatches: Channel<boolean>;
  /** Batches run by triggerBatch that may still be in flight. */
  private batchProcs: Process[] = [];
  /** sortedStatusUIDs' list; null when podStatuses gained or lost a key. */
  private sortedUIDs: UID[] | null = null;
  /** updateStatusInternal's "same" answers, by input status: the pod and the cache entry it was
   *  judged against. The answer is a function of those three alone: the transition check reads the
   *  entry, the pod's spec and the status; the transition times that `now` stamps are never
   *  compared; and an answer "same" implies the cached start time was kept (a fresh one never
   *  compares equal). The node hands the same frozen status again when nothing it reads changed. */
  private readonly sameMemo = new Map<UID, SameMemo>();
  /** isApiStatusEqual's answers, by cached status (see there). */
  private readonly reconcileMemo = new Map<UID, { status: PodStatus; pod: Pod; equal: boolean }>();
  /** The cached UIDs whose version apiStatusVersions (under the same UID) has not reached: what a
   *  syncBatch(false) without static pods syncs. Kept by noteVersions at every write of either map,
   *  so that the batch need not walk the whole cache. */
  private readonly unsent = new Set<UID>();

  constructor(opts: StatusManagerOptions) {
    this.engine = opts.engine;
    this.clock = opts.clock;
    this.client = opts.client;
    this.podManager = opts.podManager;
    this.deletionSafety = opts.deletionSafety;
    this.tracer = opts.tracer;
    this.gen = opts.config.variant;
    this.gates = opts.config.featureGates;
    this.syncPeriodMs = opts.config.syncPeriodMs;
    this.group = opts.group;
    this.rng = opts.rng;
    const cap = this.gen === 'classic' ? opts.config.statusChannelCapacity : 1;
    this.podStatusChannel = new Channel(this.engine, cap, 'status/podStatusChannel');
    this.manualBatches = new Channel<boolean>(this.engine, 1 << 20, 'status/manualBatches');
  }

  // ----------------------------------------------------------------------------------------------
  // Trace and log

  private emit(type: TraceType, pod: string, uid: UID, fields?: Record<string, unknown>): void {
    if (emitsNothing(this.tracer)) this.tracer.skip!(type);
    else this.tracer.emit({ type, actor: 'kubelet', pod, uid, ...fields });
  }

  private log(level: LogLevel, msg: string, pod?: string, fields?: Record<string, unknown>): void {
    this.tracer.log(level, msg, pod, fields);
  }

  /** True when nothing reads the trace: a log line on the hot path is then only counted (see
   *  skipLog), without its pod string and fields being built. */
  private get quiet(): boolean {
    return emitsNothing(this.tracer);
  }

  /** What tracer.log does with a line when nothing reads the trace (quiet): count a `log` event. */
  private skipLog(): void {
    this.tracer.skip!('log');
  }

  // ----------------------------------------------------------------------------------------------
  // The sync loop

  /** Start: spawn the sync loop (select over podStatusChannel and the syncPeriod ticker). With a nil
   *  client it only logs, as upstream. */
  start(): void {
    if (this.client === null) {
      this.log('info', 'Kubernetes client is nil, not starting status manager');
      return;
    }
    if (this.loopProcs.length > 0) return;
    this.log('info', 'Starting to sync pod status with apiserver');
    // time.NewTicker(syncPeriod): a one-slot channel that drops ticks nobody reads. A process of
    // this manager's group, so that it dies with the kubelet incarnation.
    const ticks = new Channel<number>(this.engine, 1, 'status/syncTicker');
    const period = this.syncPeriodMs;
    const engine = this.engine;
    this.loopProcs.push(
      engine.spawn('status/ticker', (function* (): Proc<void> {
        for (;;) {
          yield period;
          ticks.trySend(engine.nowMs);
        }
      })(), this.group),
    );
    this.loopProcs.push(engine.spawn('status/sync-loop', this.syncLoop(ticks), this.group));
  }

  /** Kill the sync loop, its ticker and any triggered batch in flight. The cache stays readable. */
  stop(): void {
    for (const p of this.loopProcs) this.engine.kill(p);
    for (const p of this.batchProcs) this.engine.kill(p);
    this.loopProcs.length = 0;
    this.batchProcs = [];
  }

  private *syncLoop(ticks: Channel<number>): Proc<void> {
    const manual = this.manualBatches;
    const cases = [this.podStatusChannel.recvCase(), ticks.recvCase(), manual.recvCase()]; // (select only reads them)
    for (;;) {
      const r = yield* select(this.engine, 'status/select', cases);
      if (r.index === 2) {
        // A `syncBatch` step: handled on the loop, as a tick would be.
        if (this.gen === 'classic') this.drainPodStatusChannel();
        yield* this.syncBatch(this.gen === 'classic' ? true : (r.value as boolean));
        continue;
      }
      if (r.index === 0) {
        if (this.gen === 'classic') {
          const req = r.value as PodStatusSyncRequest;
          yield* this.syncPod(req.podUID, req.status);
        } else {
          yield* this.syncBatch(false);
        }
      } else if (this.gen === 'classic') {
        this.drainPodStatusChannel();
        yield* this.syncBatch(true);
      } else {
        yield* this.syncBatch(true);
      }
    }
  }

  /** classic, on a tick: "remove any entries in the status channel since the batch will handle them" —
   *  exactly len(channel) requests, counted once. */
  private drainPodStatusChannel(): void {
    for (let i = this.podStatusChannel.len; i > 0; i--) this.podStatusChannel.tryRecv();
  }

  /** The timeline's `syncBatch` step: one batch on the sync loop now, as the ticker would (after the
   *  sync in progress, if any). A manager whose loop is not started (unit tests, as upstream's call
   *  syncBatch directly) runs the batch as a process of its own. */
  triggerBatch(all: boolean): void {
    if (this.client === null) {
      this.log('info', 'Kubernetes client is nil, not syncing pod statuses');
      return;
    }
    if (this.loopProcs.length > 0) {
      this.manualBatches.trySend(all);
      return;
    }
    const self = this;
    this.batchProcs = this.batchProcs.filter((p) => p.alive);
    this.batchProcs.push(
      this.engine.spawn('status/sync-batch', (function* (): Proc<void> {
        if (self.gen === 'classic') {
          self.drainPodStatusChannel();
          yield* self.syncBatch(true);
        } else {
          yield* self.syncBatch(all);
        }
      })(), this.group),
    );
  }

  /** The draws mapOrder takes for n keys, without the order (when no one reads it). */
  private mapOrderDraws(n: number): void {
    if (n < 2) return;
    if (this.rng) {
      this.rng.skipShuffle(n);
      return;
    }
    for (let i = n - 1; i > 0; i--) this.engine.chooser.choose('status/map-order', i + 1);
  }

  /** Go's random map order, seeded: keys sorted, then a Fisher-Yates shuffle. */
  private mapOrder(sorted: readonly UID[]): UID[] {
    if (sorted.length < 2) return sorted.slice();
    if (this.rng) return this.rng.shuffle(sorted);
    const out = sorted.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.engine.chooser.choose('status/map-order', i + 1);
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }

  // ----------------------------------------------------------------------------------------------
  // The Manager interface

  /** GetPodStatus: by UID, a mirror UID finding its static pod's status. */
  getPodStatus(uid: UID): PodStatus | undefined {
    return this.podStatuses.get(this.podManager.translatePodUID(uid))?.status;
  }

  /** SetPodStatus: cache the status (forced when the pod has a deletionTimestamp) and trigger a sync.
   *  The status is deep-frozen: it becomes part of the cache. */
  setPodStatus(pod: Pod, status: PodStatus): void {
    deepFreeze(status);
    this.updateStatusInternal(pod, status, !!pod.metadata?.deletionTimestamp, false);
  }

  /** SetContainerReadiness: flip one container's ready flag in the cached status and regenerate Ready
   *  and ContainersReady (current: from init ++ regular statuses, sidecars included). */
  setContainerReadiness(podUID_: UID, containerID: string, ready: boolean): void {
    const pod = this.podManager.getPodByUID(podUID_);
    if (!pod) {
      this.log('V4', 'Pod has been deleted, no need to update readiness', undefined, { podUID: podUID_ });
      return;
    }
    const key = podKey(pod);
    const old = this.podStatuses.get(podUID(pod));
    if (!old) {
      this.log(this.gen === 'classic' ? 'warning' : 'info', 'Container readiness changed before pod has synced', key, { containerID });
      return;
    }
    const at = findContainerStatus(old.status, containerID);
    if (!at) {
      this.log(this.gen === 'classic' ? 'warning' : 'info', 'Container readiness changed for unknown container', key, { containerID });
      return;
    }
    if ((old.status[at.list]![at.index].ready ?? false) === ready) {
      this.log('V4', 'Container readiness unchanged', key, { ready, containerID });
      return;
    }
    // The status copied once (upstream: oldStatus.status.DeepCopy()), from the frozen cached one,
    // and frozen in turn, as SetPodStatus's statuses are. (V8 freezes a spread copy of an unfrozen
    // object several times slower than one of a frozen object: every copy here is of a frozen one.)
    const oldStatus = old.status;
    const list = [...oldStatus[at.list]!]; // (not slice(): V8's slice is slow on frozen arrays)
    list[at.index] = { ...list[at.index], ready };
    const inits = at.list === 'initContainerStatuses' ? list : oldStatus.initContainerStatuses;
    const regular = at.list === 'containerStatuses' ? list : oldStatus.containerStatuses;
    const all = this.gen === 'current' ? goAppend(inits, regular) : regular;
    const conditions = [...(oldStatus.conditions ?? [])];
    const podReady = generatePodReadyCondition(pod.spec, oldStatus.conditions, all, oldStatus.phase, this.gen, this.gates);
    this.updateCondition(conditions, PodReady, podReady, key);
    const containersReady = generateContainersReadyCondition(pod.spec, all, oldStatus.phase, this.gen, this.gates);
    this.updateCondition(conditions, ContainersReady, containersReady, key);
    const status: PodStatus = { ...oldStatus, [at.list]: list, conditions };
    this.updateStatusInternal(pod, deepFreeze(status), false, false);
  }

  /** SetContainerReadiness's updateConditionFunc on the status's (copied) conditions: replace the
   *  first condition of the type, or append it (with a log). */
  private updateCondition(conditions: PodCondition[], type: string, condition: PodCondition, key: string): void {
    const i = getPodConditionIndex(conditions, type);
    if (i >= 0) conditions[i] = condition;
    else {
      this.log(this.gen === 'classic' ? 'warning' : 'info', 'PodStatus missing condition type', key, { conditionType: type });
      conditions.push(condition);
    }
  }

  /** SetContainerStartup: set one container's started flag (nil → false is a change). */
  setContainerStartup(podUID_: UID, containerID: string, started: boolean): void {
    const pod = this.podManager.getPodByUID(podUID_);
    if (!pod) {
      this.log('V4', 'Pod has been deleted, no need to update startup', undefined, { podUID: podUID_ });
      return;
    }
    const key = podKey(pod);
    const old = this.podStatuses.get(podUID(pod));
    if (!old) {
      this.log(this.gen === 'classic' ? 'warning' : 'info', 'Container startup changed before pod has synced', key, { containerID });
      return;
    }
    const at = findContainerStatus(old.status, containerID);
    if (!at) {
      this.log(this.gen === 'classic' ? 'warning' : 'info', 'Container startup changed for unknown container', key, { containerID });
      return;
    }
    const cur = old.status[at.list]![at.index].started;
    if (cur !== undefined && cur !== null && cur === started) {
      this.log('V4', 'Container startup unchanged', key, { containerID });
      return;
    }
    this.updateStatusInternal(pod, withContainer(old.status, at, { started }), false, false);
  }

  /** TerminatePod: make every container the kubelet cannot account for terminated (137,
   *  ContainerStatusUnknown) per the generation's rules, force the update, and (current) mark the
   *  pod finished and its phase terminal. */
  terminatePod(pod: Pod): void {
    const cached = this.podStatuses.get(podUID(pod));
    const base = cached ? cached.status : (pod.status ?? {});
    const { status, notes } = terminatePodStatus(pod, base, cached !== undefined, this.gen, this.gates);
    const key = podKey(pod);
    for (const n of notes) this.log(n.level, n.msg, key, { uid: podUID(pod) });
    deepFreeze(status);
    this.updateStatusInternal(pod, status, true, this.gen === 'current');
  }

  /** RemoveOrphanedStatuses: drop every cache entry whose UID is not in the set. */
  removeOrphanedStatuses(podUIDs: ReadonlySet<UID>): void {
    for (const uid of this.podStatuses.keys()) {
      if (!podUIDs.has(uid)) {
        this.log('V5', 'Removing pod from status map.', undefined, { podUID: uid });
        this.deletePodStatus(uid);
      }
    }
  }

  /** deletePodStatus */
  deletePodStatus(uid: UID): void {
    if (this.podStatuses.delete(uid)) this.sortedUIDs = null;
    this.unsent.delete(uid);
    this.sameMemo.delete(uid);
    this.reconcileMemo.delete(uid);
  }

  /** Keep `unsent` right for uid after podStatuses or apiStatusVersions changed under that UID. */
  private noteVersions(uid: UID): void {
    const st = this.podStatuses.get(uid);
    if (st !== undefined && !((this.apiStatusVersions.get(uid) ?? 0) >= st.version)) this.unsent.add(uid);
    else this.unsent.delete(uid);
  }

  // ----------------------------------------------------------------------------------------------
  // updateStatusInternal

  /** updateStatusInternal: check the container-state transition against the old status (cache,
   *  else mirror pod, else the pod), carry condition transition times and the start time, normalize,
   *  drop an equal non-forced update, else cache a new version and trigger a sync. Returns true when
   *  a sync was triggered (classic: the request was queued). */
  updateStatusInternal(pod: Pod, status: PodStatus, forceUpdate: boolean, podIsFinished: boolean): boolean {
    const uid = podUID(pod);
    const key = podKey(pod);
    const cached = this.podStatuses.get(uid);
    let oldStatus: PodStatus;
    if (cached) {
      oldStatus = cached.status;
      if (this.gen === 'current' && !isStaticPod(pod) && cached.podIsFinished && !podIsFinished) {
        this.log('info', 'Got unexpected podIsFinished=false, while podIsFinished=true in status cache, programmer error.', key, { uid });
        podIsFinished = true;
      }
    } else {
      const mirror = this.podManager.getMirrorPodByPod(pod);
      oldStatus = mirror ? (mirror.status ?? {}) : (pod.status ?? {});
    }

    // This very (frozen) status was already found the same as this cache entry for this pod: it is
    // again (nothing below depends on anything else when the answer is "same"; see sameMemo).
    const same = cached && !forceUpdate ? this.sameMemo.get(uid) : undefined;
    if (same !== undefined && same.status === status && same.entry === cached && same.pod === pod) {
      if (this.quiet) this.skipLog();
      else this.log('V3', 'Ignoring same status for pod', key, { uid });
      this.emit('status.same', key, uid, { version: cached!.version });
      return false;
    }

    const err = checkContainerStateTransition(oldStatus, status, pod.spec, this.gen, this.gates);
    if (err) {
      this.log('error', `Status update on pod aborted: ${err.message}`, key, { uid, container: err.container });
      this.emit('status.reject', key, uid, { container: err.container, message: err.message });
      return false;
    }

    // An update equal to the cached status, as the kubelet judges it, is found before anything is
    // stamped (the stamping below copies every condition the node left without a transition time,
    // and the status, only for the copy to be dropped). The verdict is the one on the stamped and
    // normalized status: isPodStatusByKubeletEqual never reads a condition's timestamps (it
    // compares their type, status, reason and message, and leaves the conditions out of the deep
    // comparison); normalizeStatus changes only the times of a condition and treats every other
    // field alone; and the start time stamped, when the cached one is set, is the cached one,
    // already normal (a cached status is a normalized one), which `pre` is given.
    // (Asked for frozen statuses only, as every caller's but TerminatePod's and SetContainerStartup's
    // are: normalizeStatus freezes what it returns.)
    const frozen = Object.isFrozen(status) && Object.isFrozen(pod);
    if (frozen && cached && !forceUpdate && !isZeroTime(cached.status.startTime)) {
      const cachedStart = cached.status.startTime;
      let pre = normalizeStatus(pod, status, this.gen);
      if (pre.startTime !== cachedStart) pre = { ...pre, startTime: cachedStart };
      if (isPodStatusByKubeletEqual(cached.status, pre, this.gen, this.gates)) return this.same(uid, key, status, pod, cached, frozen);
    }

    const now = this.clock.now();
    // updateLastTransitionTime for each type of LTT_TYPES (the conditions, copied once).
    const conditions = updateLastTransitionTimes(status, oldStatus, LTT_TYPES[this.gen], now);
    // The start time never changes once set.
    let startTime: string | undefined;
    if (!isZeroTime(oldStatus.startTime)) {
      if (status.startTime !== oldStatus.startTime) startTime = oldStatus.startTime;
    } else if (isZeroTime(status.startTime)) {
      startTime = now;
    }
    // One copy of the status for both (the keys in the order the two copies would give them).
    let s = status;
    if (conditions !== null) s = startTime === undefined ? { ...status, conditions } : { ...status, conditions, startTime };
    else if (startTime !== undefined) s = { ...status, startTime };
    s = normalizeStatus(pod, s, this.gen);
    deepFreeze(s);

    if (cached && !forceUpdate && isPodStatusByKubeletEqual(cached.status, s, this.gen, this.gates)) {
      return this.same(uid, key, status, pod, cached, frozen);
    }

    const version = (cached?.version ?? 0) + 1;
    const entry: VersionedPodStatus =
      this.gen === 'current'
        ? { status: s, version, podName: pod.metadata?.name ?? '', podNamespace: pod.metadata?.namespace ?? '', podIsFinished, at: cached?.at ?? now }
        : { status: s, version, podName: pod.metadata?.name ?? '', podNamespace: pod.metadata?.namespace ?? '', podIsFinished: false };
    Object.freeze(entry);
    this.podStatuses.set(uid, entry);
    this.noteVersions(uid);
    if (cached === undefined) this.sortedUIDs = null;
    this.emit('status.set', key, uid, { version, cached: s }); // cached: the status now in the cache (trace only, not in goldens)

    if (this.gen === 'classic') {
      if (this.podStatusChannel.trySend({ podUID: uid, status: entry })) return true;
      this.log('V4', 'Skipping the status update for pod for now because the channel is full', key, { uid, version });
      this.emit('status.drop', key, uid, { version });
      return false;
    }
    this.podStatusChannel.trySend(undefined); // a wake-up is already pending otherwise
    return true;
  }

  /** updateStatusInternal's "Ignoring same status": the update equals the cache entry. A frozen
   *  status and pod are remembered with the entry (see sameMemo; the memo's record is reused). */
  private same(uid: UID, key: string, status: PodStatus, pod: Pod, cached: VersionedPodStatus, frozen: boolean): false {
    if (frozen) {
      const m = this.sameMemo.get(uid);
      if (m === undefined) this.sameMemo.set(uid, { status, pod, entry: cached });
      else {
        m.status = status;
        m.pod = pod;
        m.entry = cached;
      }
    }
    if (this.quiet) this.skipLog();
    else this.log('V3', 'Ignoring same status for pod', key, { uid });
    this.emit('status.same', key, uid, { version: cached.version });
    return false;
  }

  // ----------------------------------------------------------------------------------------------
  // syncBatch / syncPod

  /** syncBatch. Classic (`all` ignored, always the full pass): clean up orphaned apiStatusVersions,
   *  then pick every pod that needsUpdate or needsReconcile. Current: the full pass when `all`,
   *  otherwise only the pods whose cached version is newer than the one sent. Static pods are synced
   *  to their mirror pod, and skipped while they have none. Returns the number of pods synced. */
  *syncBatch(all: boolean): Proc<number> {
    const full = this.gen === 'classic' || all;
    const { podToMirror, mirrorToPod } = this.podManager.getUIDTranslations();
    if (full) {
      for (const uid of [...this.apiStatusVersions.keys()]) {
        if (!this.podStatuses.has(uid) && !mirrorToPod.has(uid)) this.apiStatusVersions.delete(uid); // (not cached: not unsent either)
      }
    }
    const updated: Array<{ uid: UID; statusUID: UID; status: VersionedPodStatus }> = [];
    if (!full && podToMirror.size === 0) {
      // The loop below, without static pods: the pods whose cached version was not sent (`unsent`),
      // in map order. With one pod or none, its order is moot: the map order's draws are taken all
      // the same, so that the stream stays that of a walk over the whole map.
      const pending = this.unsent;
      if (pending.size < 2) {
        this.mapOrderDraws(this.podStatuses.size);
        for (const uid of pending) updated.push({ uid, statusUID: uid, status: this.podStatuses.get(uid)! });
      } else {
        for (const uid of this.mapOrder(this.sortedStatusUIDs())) {
          if (!pending.has(uid)) continue;
          updated.push({ uid, statusUID: uid, status: this.podStatuses.get(uid)! });
          if (updated.length === pending.size) break;
        }
      }
    } else {
      for (const uid of this.mapOrder(this.sortedStatusUIDs())) {
        const st = this.podStatuses.get(uid)!;
        let statusUID = uid;
        const mirrorUID = podToMirror.get(uid);
        if (mirrorUID !== undefined) {
          if (mirrorUID === '') {
            this.log('V5', 'Static pod does not have a corresponding mirror pod; skipping', `${st.podNamespace}/${st.podName}`, { podUID: uid });
            continue;
          }
          statusUID = mirrorUID;
        }
        if (!full) {
          if ((this.apiStatusVersions.get(statusUID) ?? 0) >= st.version) continue;
          updated.push({ uid, statusUID, status: st });
          continue;
        }
        if (this.needsUpdate(statusUID, st)) {
          updated.push({ uid, statusUID, status: st });
        } else if (this.needsReconcile(uid, st.status)) {
          this.apiStatusVersions.delete(statusUID);
          this.noteVersions(statusUID);
          updated.push({ uid, statusUID, status: st });
        }
      }
    }
    for (const u of updated) {
      if (this.quiet) this.skipLog();
      else this.log('V5', 'Sync pod status', `${u.status.podNamespace}/${u.status.podName}`, { podUID: u.uid, statusUID: u.statusUID, version: u.status.version });
      yield* this.syncPod(u.uid, u.status);
    }
    return updated.length;
  }

  /** syncPod: GET the pod, give up if it is gone or was recreated (dropping the cache entry), PATCH
   *  the merged status (no request when the patch is empty), record the version sent, and DELETE the
   *  pod (grace 0, UID precondition) once it can be deleted. Classic first skips statuses that
   *  needsUpdate says are stale (with the source UID: always true for static pods). */
  *syncPod(uid: UID, st: VersionedPodStatus): Proc<void> {
    const client = this.client;
    const key = `${st.podNamespace}/${st.podName}`;
    if (client === null) {
      this.log('error', 'syncPod without a client, programmer error', key, { uid });
      return;
    }
    if (this.gen === 'classic' && !this.needsUpdate(uid, st)) {
      this.log('V1', 'Status for pod is up-to-date; skipping', key, { uid, version: st.version });
      this.emit('status.skip', key, uid, { version: st.version, reason: 'up-to-date' });
      return;
    }
    this.emit('status.sync', key, uid, { version: st.version });

    const got = yield* client.getPod(st.podNamespace, st.podName);
    if (!got.ok) {
      if (got.code === 404) {
        this.log('V3', 'Pod does not exist on the server', key, { podUID: uid });
        this.emit('status.skip', key, uid, { version: st.version, reason: 'not found' });
      } else {
        this.log(this.gen === 'classic' ? 'warning' : 'info', 'Failed to get status for pod', key, { podUID: uid, err: `${got.code}: ${got.message}` });
        this.emit('status.skip', key, uid, { version: st.version, reason: `get failed (${got.code})` });
      }
      return;
    }
    let pod = got.value;
    const translated = this.podManager.translatePodUID(podUID(pod));
    if (translated !== '' && translated !== uid) {
      this.log('V2', 'Pod was deleted and then recreated, skipping status update', key, { oldPodUID: uid, podUID: translated });
      this.emit('status.recreated', key, uid, { apiUID: podUID(pod) });
      this.deletePodStatus(uid);
      return;
    }

    const oldStatus = pod.status ?? {};
    const merged =
      this.gen === 'classic'
        ? mergePodStatus(oldStatus, st.status, 'classic')
        : mergePodStatus(oldStatus, st.status, 'current', {
            couldHaveRunningContainers: this.deletionSafety.podCouldHaveRunningContainers(pod),
            gates: this.gates,
            now: this.clock.now(),
          });

    // statusutil.PatchPodStatus
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const apiUID = podUID(pod);
    const { patch, unchanged } = preparePatchForPodStatus(apiUID, oldStatus, merged);
    // (the patch is rendered for the log line only when someone reads the trace)
    if (this.quiet) this.skipLog();
    else this.log('V3', 'Patch status for pod', `${ns}/${name}`, { podUID: uid, patch: this.tracer.active === false ? '' : JSON.stringify(patch) });
    if (unchanged) {
      this.log('V3', 'Status for pod is up-to-date', `${ns}/${name}`, { statusVersion: st.version });
      this.emit('status.skip', key, uid, { version: st.version, reason: 'unchanged' });
    } else {
      const r = yield* client.patchPodStatus(ns, name, patch);
      if (!r.ok) {
        this.log(this.gen === 'classic' ? 'warning' : 'info', 'Failed to update status for pod', `${ns}/${name}`, { err: `${r.code}: ${r.message}` });
        return;
      }
      if (this.quiet) this.skipLog();
      else this.log('V3', 'Status for pod updated successfully', `${ns}/${name}`, { statusVersion: st.version });
      pod = r.value;
    }
    if (this.gen === 'current' && st.at === undefined) {
      this.log('V3', 'Pod had no status time set', key, { podUID: uid, version: st.version });
    }

    this.apiStatusVersions.set(podUID(pod), st.version);
    this.noteVersions(podUID(pod));

    // We don't handle graceful deletion of mirror pods.
    if (this.canBeDeleted(pod, st.status, st.podIsFinished)) {
      const dns = pod.metadata?.namespace ?? '';
      const dname = pod.metadata?.name ?? '';
      this.emit('status.delete', key, uid, { version: st.version, apiUID: podUID(pod) });
      const d = yield* client.deletePod(dns, dname, { gracePeriodSeconds: 0, uid: podUID(pod) });
      if (!d.ok) {
        this.log(this.gen === 'classic' ? 'warning' : 'info', 'Failed to delete status for pod', `${dns}/${dname}`, { err: `${d.code}: ${d.message}` });
        return;
      }
      this.log('V3', 'Pod fully terminated and removed from etcd', `${dns}/${dname}`);
      this.deletePodStatus(uid);
    }
  }

  /** needsUpdate: the cached version was not sent yet, or the pod (from the pod manager; a mirror UID
   *  is never found there) can be deleted. */
  needsUpdate(uid: UID, st: VersionedPodStatus): boolean {
    const latest = this.apiStatusVersions.get(uid);
    if (latest === undefined || latest < st.version) return true;
    const pod = this.podManager.getPodByUID(uid);
    if (!pod) return false;
    return this.canBeDeleted(pod, st.status, st.podIsFinished);
  }

  /** canBeDeleted. Classic: deletionTimestamp set, not a mirror pod, resources reclaimed. Current:
   *  deletionTimestamp set, not a mirror pod, the pod's own (API-side) phase terminal, and the status
   *  produced by TerminatePod. */
  canBeDeleted(pod: Pod, status: PodStatus, podIsFinished: boolean): boolean {
    if (!pod.metadata?.deletionTimestamp || isMirrorPod(pod)) return false;
    if (this.gen === 'classic') return this.deletionSafety.podResourcesAreReclaimed(pod, status);
    if (!isPodPhaseTerminal(pod.status?.phase)) {
      this.log('V3', 'Delaying pod deletion as the phase is non-terminal', podKey(pod), { phase: pod.status?.phase ?? '', localPhase: status.phase ?? '', podUID: podUID(pod) });
      return false;
    }
    if (podIsFinished) {
      this.log('V3', 'The pod termination is finished as SyncTerminatedPod completes its execution', podKey(pod), { phase: pod.status?.phase ?? '', localPhase: status.phase ?? '', podUID: podUID(pod) });
      return true;
    }
    return false;
  }

  /** needsReconcile: does the pod manager's copy of the pod (its mirror for a static pod), normalized,
   *  differ from the cached status as the kubelet judges equality? */
  needsReconcile(uid: UID, status: PodStatus): boolean {
    let pod = this.podManager.getPodByUID(uid);
    if (!pod) {
      this.log('V4', 'Pod has been deleted, no need to reconcile', undefined, { podUID: uid });
      return false;
    }
    if (isStaticPod(pod)) {
      const mirror = this.podManager.getMirrorPodByPod(pod);
      if (!mirror) {
        this.log('V4', 'Static pod has no corresponding mirror pod, no need to reconcile', podKey(pod));
        return false;
      }
      pod = mirror;
    }
    if (this.isApiStatusEqual(uid, pod, status)) return false;
    this.log('V3', 'Pod status is inconsistent with cached status for pod, a reconciliation should be triggered', podKey(pod));
    return true;
  }

  /** needsReconcile's comparison: isPodStatusByKubeletEqual(normalizeStatus(pod.status), status).
   *  A pure function of two frozen values, so it is remembered per cached status (with the pod
   *  object it was compared with): the full batch asks it for every pod every syncPeriod, and
   *  between two changes the answer cannot change. */
  private isApiStatusEqual(uid: UID, pod: Pod, status: PodStatus): boolean {
    const memo = this.reconcileMemo.get(uid);
    if (memo !== undefined && memo.status === status && memo.pod === pod) return memo.equal;
    const apiStatus = normalizeStatus(pod, pod.status ?? {}, this.gen);
    const equal = isPodStatusByKubeletEqual(apiStatus, status, this.gen, this.gates);
    if (Object.isFrozen(pod) && Object.isFrozen(status)) this.reconcileMemo.set(uid, { status, pod, equal });
    else this.reconcileMemo.delete(uid);
    return equal;
  }

  // ----------------------------------------------------------------------------------------------
  // Inspection and the timeline's hooks

  /** The `setApiStatusVersion` step: overwrite apiStatusVersions as upstream tests do. */
  setApiStatusVersion(apiUID: UID, version: number): void {
    this.apiStatusVersions.set(apiUID, version);
    this.noteVersions(apiUID);
  }

  cachedEntry(uid: UID): VersionedPodStatus | undefined {
    return this.podStatuses.get(uid);
  }

  apiStatusVersion(apiUID: UID): number | undefined {
    return this.apiStatusVersions.get(apiUID);
  }

  /** Cached UIDs, sorted. */
  cachedUIDs(): UID[] {
    return this.sortedStatusUIDs().slice();
  }

  /** The keys of podStatuses, sorted; kept until an entry is added or removed (every batch walks
   *  them in map order, and most batches see the same pods). */
  private sortedStatusUIDs(): readonly UID[] {
    if (this.sortedUIDs === null || this.sortedUIDs.length !== this.podStatuses.size) this.sortedUIDs = [...this.podStatuses.keys()].sort();
    return this.sortedUIDs;
  }
}

/** preparePatchBytesForPodStatus: the two-way strategic merge patch from {status: old} to
 *  {metadata: {uid}, status: new}, both in the form encoding/json gives them (a metadata.uid of ""
 *  is omitted, as omitempty does). Unchanged iff the patch is exactly {metadata: {uid}}, which a uid
 *  of "" can never be. */
export function preparePatchForPodStatus(uid: UID, oldStatus: PodStatus, newStatus: PodStatus): { patch: Record<string, unknown>; unchanged: boolean } {
  const original = { status: goJsonPodStatus(oldStatus) };
  const modified = uid === '' ? { status: goJsonPodStatus(newStatus) } : { metadata: { uid }, status: goJsonPodStatus(newStatus) };
  const patch = createTwoWayMergePatch(original, modified);
  // The patch always carries `metadata` (which `original` lacks), and a `status` entry exactly
  // when the two statuses differ: so it is {metadata: {uid}} iff it has no `status`.
  return { patch, unchanged: uid !== '' && patch.status === undefined };
}
