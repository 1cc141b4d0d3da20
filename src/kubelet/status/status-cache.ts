// pkg/kubelet/status/status_manager.go: the status cache and its version book-keeping (the
// manager's podStatuses and apiStatusVersions, updateStatusInternal, deletePodStatus, the
// inspection hooks). The base of StatusManager: status-setters.ts adds the Set*/Terminate API,
// status-manager.ts the sync loop and batch (see there for both generations).
import { NO_REVERTED_FIXES, type RevertedFixes } from '../../model/fixes.js';
import { deepFreeze } from '../../model/freeze.js';
import { Channel, type Engine, type Process, type Rng } from '../../engine/index.js';
import { isStaticPod, podKey, podUID, type Pod, type PodCondition, type PodStatus, type UID } from '../../model/pod.js';
import type { KubeClient, PodDeletionSafetyProvider } from '../../model/client.js';
import { emitsNothing, type LogLevel, type TraceType, type Tracer } from '../../model/trace.js';
import type { VClock } from '../../model/time.js';
import type { PodManagerApi } from '../api.js';
import { isPodStatusByKubeletEqual, normalizeStatus } from './normalize.js';
import { checkContainerStateTransition, updateLastTransitionTimes } from './transition.js';
import { lowerBound } from '../../model/sorted.js';
import {
  ContainersReady,
  DisruptionTarget,
  PodInitialized,
  PodReady,
  PodReadyToStartContainers,
  PodScheduled,
  hasStatusChannel,
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
  /** spec.kubelet.revertFixes: upstream fixes taken back out (model/fixes.ts; the bug zoo). */
  revertFixes?: RevertedFixes;
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
  transitional: [ContainersReady, PodReady, PodInitialized, PodScheduled],
  current: [ContainersReady, PodReady, PodInitialized, PodReadyToStartContainers, PodScheduled, DisruptionTarget],
};

const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

function isZeroTime(t: string | undefined): boolean {
  return t === undefined || t === null || t === '' || t === GO_ZERO_TIME;
}

/** A "same" answer of updateStatusInternal (see StatusManager.sameMemo). */
interface SameMemo {
  status: PodStatus;
  /** The pod's spec (the verdict reads nothing else of the pod; its other parts change with
   *  every write of its status, which the watch brings back). */
  spec: Pod['spec'];
  entry: VersionedPodStatus;
}

/** The status manager's state: the cache, the versions sent, the channel that wakes the sync loop;
 *  and the writes of the cache that keep them consistent. */
export abstract class StatusCache {
  readonly gen: Generation;
  /** Cached statuses by source pod UID (the static pod's UID for static pods). */
  readonly podStatuses = new Map<UID, VersionedPodStatus>();
  /** Latest version sent, by the UID of the API object (the mirror pod's UID for static pods). */
  readonly apiStatusVersions = new Map<UID, number>();
  /** classic: sync requests; current: wake-ups (the value is unused). */
  readonly podStatusChannel: Channel<PodStatusSyncRequest | undefined>;

  protected readonly engine: Engine;
  protected readonly clock: VClock;
  protected readonly client: KubeClient | null;
  protected readonly podManager: PodManagerApi;
  protected readonly deletionSafety: PodDeletionSafetyProvider;
  protected readonly tracer: Tracer;
  protected readonly gates: StatusFeatureGates | undefined;
  protected readonly syncPeriodMs: number;
  protected readonly group: string;
  protected readonly rng: Rng | undefined;
  /** The sync loop and its ticker, while started. */
  protected readonly loopProcs: Process[] = [];
  /** `syncBatch` steps waiting for the sync loop (not a channel of upstream's: the simulator's way
   *  to put a batch on the loop). */
  protected readonly manualBatches: Channel<boolean>;
  /** Batches run by triggerBatch that may still be in flight. */
  protected batchProcs: Process[] = [];
  /** sortedStatusUIDs' list; null when podStatuses gained or lost a key. */
  protected sortedUIDs: UID[] | null = null;
  /** updateStatusInternal's "same" answers, by input status: the pod's spec and the cache entry it
   *  was judged against, all it reads (the transition check, normalizeStatus); the times `now`
   *  stamps are never compared; an answer "same" implies the cached start time was kept (a fresh
   *  one never compares equal). The node hands the same frozen status again when nothing it reads
   *  changed; the pod object it comes with is new after each write of its status. */
  protected readonly sameMemo = new Map<UID, SameMemo>();
  /** isApiStatusEqual's answers, by cached status (see there). */
  protected readonly reconcileMemo = new Map<UID, { status: PodStatus; pod: Pod; equal: boolean }>();
  /** The cached UIDs whose version apiStatusVersions (under the same UID) has not reached: what a
   *  syncBatch(false) without static pods syncs. Kept by noteVersions at every write of either map,
   *  so that the batch need not walk the whole cache. */
  protected readonly unsent = new Set<UID>();

  /** The fixes this kubelet runs without (empty: the release as it is). */
  protected readonly reverted: RevertedFixes;

  constructor(opts: StatusManagerOptions) {
    this.engine = opts.engine;
    this.clock = opts.clock;
    this.client = opts.client;
    this.podManager = opts.podManager;
    this.deletionSafety = opts.deletionSafety;
    this.tracer = opts.tracer;
    this.gen = opts.config.variant;
    this.gates = opts.config.featureGates;
    this.reverted = opts.config.revertFixes ?? NO_REVERTED_FIXES;
    this.syncPeriodMs = opts.config.syncPeriodMs;
    this.group = opts.group;
    this.rng = opts.rng;
    const cap = hasStatusChannel(this.gen) ? opts.config.statusChannelCapacity : 1;
    this.podStatusChannel = new Channel(this.engine, cap, 'status/podStatusChannel');
    this.manualBatches = new Channel<boolean>(this.engine, 1 << 20, 'status/manualBatches');
  }

  // ----------------------------------------------------------------------------------------------
  // Trace and log

  protected emit(type: TraceType, pod: string, uid: UID, fields?: Record<string, unknown>): void {
    if (emitsNothing(this.tracer)) this.tracer.skip!(type);
    else this.tracer.emit({ type, actor: 'kubelet', pod, uid, ...fields });
  }

  protected log(level: LogLevel, msg: string, pod?: string, fields?: Record<string, unknown>): void {
    this.tracer.log(level, msg, pod, fields);
  }

  /** True when nothing reads the trace: a log line on the hot path is then only counted (see
   *  skipLog), without its pod string and fields being built. */
  protected get quiet(): boolean {
    return emitsNothing(this.tracer);
  }

  /** What tracer.log does with a line when nothing reads the trace (quiet): count a `log` event. */
  protected skipLog(): void {
    this.tracer.skip!('log');
  }

  // ----------------------------------------------------------------------------------------------
  // The Manager interface

  /** GetPodStatus: by UID, a mirror UID finding its static pod's status. */
  getPodStatus(uid: UID): PodStatus | undefined {
    return this.podStatuses.get(this.podManager.translatePodUID(uid))?.status;
  }

  /** deletePodStatus */
  deletePodStatus(uid: UID): void {
    if (this.podStatuses.delete(uid)) this.sortedUIDsRemove(uid);
    this.unsent.delete(uid);
    this.sameMemo.delete(uid);
    this.reconcileMemo.delete(uid);
  }

  /** Keep `unsent` right for uid after podStatuses or apiStatusVersions changed under that UID. */
  protected noteVersions(uid: UID): void {
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
  // upstream-length: updateStatusInternal (pkg/kubelet/status/status_manager.go) is itself ~125 lines.
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
    if (same !== undefined && same.status === status && same.entry === cached && same.spec === pod.spec && Object.isFrozen(pod)) {
      if (this.quiet) this.skipLog();
      else this.log('V3', 'Ignoring same status for pod', key, { uid });
      this.emit('status.same', key, uid, { version: cached!.version });
      return false;
    }

    // revert #54597 (check for illegal container state transition): noContainerStateTransitionGuard
    const err = this.reverted.has('noContainerStateTransitionGuard') ? undefined : checkContainerStateTransition(oldStatus, status, pod.spec, this.gen, this.gates);
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
    if (cached === undefined) this.sortedUIDsInsert(uid);
    this.emit('status.set', key, uid, { version, cached: s }); // cached: the status now in the cache (trace only, not in goldens)

    if (hasStatusChannel(this.gen)) {
      if (this.podStatusChannel.trySend({ podUID: uid, status: entry })) return true;
      this.log('V4', 'Skipping the status update for pod for now because the channel is full', key, { uid, version });
      this.emit('status.drop', key, uid, { version });
      return false;
    }
    this.podStatusChannel.trySend(undefined); // a wake-up is already pending otherwise
    return true;
  }

  /** Go slice aliasing, modelled (current, v1.26+ with PodDisruptionConditions): syncBatch copies
   *  the versionedPodStatus out of m.podStatuses by value, and syncPod hands `status.status` to
   *  mergePodStatus by value again, so newPodStatus.Conditions still shares its backing array with
   *  the cache entry; mergePodStatus's updateLastTransitionTime(&newPodStatus, &oldPodStatus,
   *  DisruptionTarget) writes the re-stamped time through `&status.Conditions[i]`, into the cache
   *  (status_manager.go syncPod / mergePodStatus / updateLastTransitionTime). Version, `at` and
   *  podIsFinished stay; the time is metav1.Now(), not normalized. Only the entry the batch copied
   *  is hit: one that updateStatusInternal replaced meanwhile (a fresh DeepCopy) is not. */
  protected aliasDisruptionTargetRestamp(uid: UID, entry: VersionedPodStatus, restamped: PodCondition): void {
    if (this.podStatuses.get(uid) !== entry) return;
    const list = entry.status.conditions;
    const i = list ? list.findIndex((c) => c.type === restamped.type) : -1; // podutil.GetPodCondition: the first
    if (i < 0 || list![i].lastTransitionTime === restamped.lastTransitionTime) return;
    const conditions = [...list!];
    conditions[i] = { ...list![i], lastTransitionTime: restamped.lastTransitionTime };
    if (restamped.lastTransitionTime === undefined) delete conditions[i].lastTransitionTime;
    const next: VersionedPodStatus = Object.freeze({ ...entry, status: deepFreeze({ ...entry.status, conditions }) });
    this.podStatuses.set(uid, next);
    this.sameMemo.delete(uid);
    this.reconcileMemo.delete(uid);
  }

  /** updateStatusInternal's "Ignoring same status": the update equals the cache entry. A frozen
   *  status and pod are remembered with the entry (see sameMemo; the memo's record is reused). */
  protected same(uid: UID, key: string, status: PodStatus, pod: Pod, cached: VersionedPodStatus, frozen: boolean): false {
    if (frozen) {
      const m = this.sameMemo.get(uid);
      if (m === undefined) this.sameMemo.set(uid, { status, spec: pod.spec, entry: cached });
      else {
        m.status = status;
        m.spec = pod.spec;
        m.entry = cached;
      }
    }
    if (this.quiet) this.skipLog();
    else this.log('V3', 'Ignoring same status for pod', key, { uid });
    this.emit('status.same', key, uid, { version: cached.version });
    return false;
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
  protected sortedStatusUIDs(): readonly UID[] {
    if (this.sortedUIDs === null || this.sortedUIDs.length !== this.podStatuses.size) this.sortedUIDs = [...this.podStatuses.keys()].sort();
    return this.sortedUIDs;
  }

  /** A new key of podStatuses joins the sorted list at its place (a binary search and one splice,
   *  where re-sorting every key after each new pod made a run of N pods O(N² log N)). */
  private sortedUIDsInsert(uid: UID): void {
    const a = this.sortedUIDs;
    if (a !== null) a.splice(lowerBound(a, uid), 0, uid);
  }

  /** A removed key of podStatuses leaves the sorted list. */
  private sortedUIDsRemove(uid: UID): void {
    const a = this.sortedUIDs;
    if (a === null) return;
    const lo = lowerBound(a, uid);
    if (a[lo] === uid) a.splice(lo, 1);
    else this.sortedUIDs = null;
  }
}
