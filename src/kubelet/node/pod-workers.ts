// Pod workers (pkg/kubelet/pod_workers.go): one process per pod UID that runs the pod's syncs one at a
// time, in both generations.
//
// classic (≤v1.21): UpdatePod hands the update to an idle worker, or remembers it as the last
//   undelivered update (a pending kill is never overwritten); the worker waits for a PLEG relist newer
//   than its previous sync, runs syncPod, requeues the pod (resync interval, or the back-off period
//   after an error) and takes the undelivered update if any. ForgetWorker closes the worker.
// current (v1.22+ state machine, v1.27+ details): a per-pod podSyncStatus moves
//   syncing → terminating → terminated → finished. UpdatePod records the latest update as pending and
//   wakes the worker; deletion, removal from config, a kill, or an API terminal phase request
//   termination, with the effective grace period that can only shrink. The worker runs SyncPod,
//   SyncTerminatingPod or SyncTerminatedPod by state; SyncPod reporting a terminal phase moves the pod
//   to terminating by itself.
// This module: the types both share and podSyncStatus; the workers are pod-workers-current.ts and
// pod-workers-classic.ts.
import type { Engine, Proc, Process } from '../../engine/index.js';
import type { Pod, PodStatus, UID } from '../../model/pod.js';
import type { Tracer } from '../../model/trace.js';
import type { PodCache } from './pleg.js';
import type { RuntimePodStatus } from './types.js';

/** kubetypes.SyncPodType */
export type SyncPodType = 'create' | 'update' | 'sync' | 'kill';

/** PodWorkerState / WorkType */
export type WorkType = 'sync' | 'terminating' | 'terminated';

/** PodStatusFunc: a kill's change to the status SyncTerminatingPod sets first (the eviction and
 *  node shutdown managers: phase Failed, their reason and message, DisruptionTarget). Returns the
 *  changed copy. classic (v1.20): the status to set, from the pod and its runtime status. */
export type PodStatusFunc = (status: PodStatus) => PodStatus;

/** KillPodOptions */
export interface KillPodOptions {
  /** PodTerminationGracePeriodSecondsOverride */
  gracePeriodSecondsOverride?: number;
  /** PodStatusFunc (node/eviction.ts, node/nodeshutdown.ts) */
  podStatusFunc?: PodStatusFunc;
  /** CompletedCh (current: closed once SyncTerminatingPod succeeded) / OnCompleteFunc (classic:
   *  called after the kill's sync): what killPodNow waits on. */
  completed?: () => void;
  /** Evict: the kill comes from the eviction manager. */
  evict?: boolean;
}

/** UpdatePodOptions */
export interface UpdatePodOptions {
  updateType: SyncPodType;
  pod: Pod;
  mirrorPod?: Pod;
  killPodOptions?: KillPodOptions;
}

/** What SyncPod returns: whether the pod reached a terminal phase, and the sync's error if any. */
export interface SyncPodResult {
  readonly isTerminal: boolean;
  readonly err?: string;
}

/** A sync function's result, or, when the sync has to wait (upstream's call blocks), the process
 *  that finishes it: most syncs wait for nothing and are done without a generator. */
export type SyncOutcome<T extends object> = T | Proc<T>;

/** Is this outcome the process that finishes the sync (rather than its result)? */
export function isProc<T extends object>(o: SyncOutcome<T>): o is Proc<T> {
  return typeof (o as Partial<Proc<T>>).next === 'function';
}

/** What the pod workers call back into (the kubelet's sync functions). */
export interface PodSyncer {
  /** current SyncPod: returns whether the pod reached a terminal phase. */
  syncPod(updateType: SyncPodType, pod: Pod, mirrorPod: Pod | undefined, status: RuntimePodStatus): SyncOutcome<SyncPodResult>;
  /** current SyncTerminatingPod */
  syncTerminatingPod(pod: Pod, status: RuntimePodStatus, gracePeriodSeconds: number | undefined, podStatusFn?: PodStatusFunc): Proc<{ err?: string }>;
  /** current SyncTerminatedPod */
  syncTerminatedPod(pod: Pod, status: RuntimePodStatus): Proc<{ err?: string }>;
  /** classic syncPod */
  syncPodClassic(o: UpdatePodOptions, status: RuntimePodStatus): SyncOutcome<{ err?: string }>;
}

/** The kubelet's work queue: when each pod is due for its next sync. */
export interface WorkQueue {
  enqueue(uid: UID, delayMs: number): void;
}

export interface PodWorkersOptions {
  engine: Engine;
  cache: PodCache;
  syncer: PodSyncer;
  workQueue: WorkQueue;
  tracer: Tracer;
  /** Spawns a process of this kubelet incarnation (so that stop() can kill it). */
  spawn: (name: string, body: Proc<unknown>) => Process;
  resyncIntervalMs: number;
  backOffPeriodMs: number;
  /** wait.Jitter(d, factor): d plus up to factor × d. Identity when jitter is off. */
  jitter: (ms: number, factor: number) => number;
  /** The v1.23 details of the v1.22 state machine (transitional) rather than v1.27's. */
  v123?: boolean;
  /** revert #104847 (a create for a UID still terminating restarts its worker later): noUIDReuseRestart. */
  noUIDReuseRestart?: boolean;
  /** revert #113145 (housekeeping drives an orphaned worker to termination): noOrphanTerminationRetry. */
  noOrphanTerminationRetry?: boolean;
  /** proposed #123782 (an evicted pod's content goes once its worker finished): keepEvictedContentUntilFinished. */
  keepEvictedContentUntilFinished?: boolean;
}

/** workerResyncIntervalJitterFactor, workerBackOffPeriodJitterFactor */
export const RESYNC_JITTER = 0.5;
export const BACKOFF_JITTER = 0.5;

/** podSyncStatus (current generation). Times are virtual ms; undefined = Go's zero time. */
export class PodSyncStatus {
  working = false;
  pendingUpdate: UpdatePodOptions | null = null;
  activeUpdate: UpdatePodOptions | null = null;
  syncedAt: number;
  startedAt: number | undefined;
  terminatingAt: number | undefined;
  terminatedAt: number | undefined;
  /** Effective grace period in seconds once termination was requested (0 = none recorded). */
  gracePeriod = 0;
  startedTerminating = false;
  deleted = false;
  finished = false;
  /** restartRequested: a create came for this UID while it was terminating (#104847). */
  restartRequested = false;
  /** A sync (SyncPod / SyncTerminatingPod / SyncTerminatedPod) is running. */
  syncing = false;
  /** evicted: a kill with Evict asked for the termination. */
  evicted = false;
  /** statusPostTerminating: every PodStatusFunc a kill brought (SyncTerminatingPod applies the last). */
  readonly statusPostTerminating: PodStatusFunc[] = [];
  /** notifyPostTerminating: every CompletedCh a kill brought (closed by completeTerminating). */
  notifyPostTerminating: Array<() => void> = [];

  constructor(readonly fullname: string, readonly isStatic: boolean, now: number) {
    this.syncedAt = now;
  }

  isTerminationRequested(): boolean {
    return this.terminatingAt !== undefined;
  }
  isTerminated(): boolean {
    return this.terminatedAt !== undefined;
  }
  isFinished(): boolean {
    return this.finished;
  }
  isStarted(): boolean {
    return this.startedAt !== undefined;
  }
  /** WorkType */
  workType(): WorkType {
    if (this.isTerminated()) return 'terminated';
    if (this.isTerminationRequested()) return 'terminating';
    return 'sync';
  }
  /** mergeLastUpdate: remember the newest pod, the last mirror pod and the last kill options. */
  mergeLastUpdate(other: UpdatePodOptions): void {
    const opts = this.activeUpdate ?? { updateType: other.updateType, pod: other.pod };
    opts.pod = other.pod;
    opts.updateType = other.updateType;
    if (other.mirrorPod !== undefined) opts.mirrorPod = other.mirrorPod;
    if (other.killPodOptions !== undefined) opts.killPodOptions = other.killPodOptions;
    this.activeUpdate = opts;
  }
}

