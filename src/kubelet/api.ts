// The contracts between the kubelet's parts: what the pod workers / prober / housekeeping / the
// timeline may call on the status manager, and what the status manager reads from the pod manager.
import type { Pod, PodStatus, UID } from '../model/pod.js';

/** pkg/kubelet/status.Manager (plus the inspection hooks the simulator needs). */
export interface StatusManagerApi {
  /** Start(): spawns the sync loop process (select over podStatusChannel and the syncPeriod ticker). */
  start(): void;
  /** Stop the sync loop process (kubelet restart: all in-memory state is dropped with the manager). */
  stop(): void;
  getPodStatus(uid: UID): PodStatus | undefined;
  setPodStatus(pod: Pod, status: PodStatus): void;
  /** containerID is the "type://id" string found in the cached container statuses. */
  setContainerReadiness(podUID: UID, containerID: string, ready: boolean): void;
  setContainerStartup(podUID: UID, containerID: string, started: boolean): void;
  terminatePod(pod: Pod): void;
  removeOrphanedStatuses(podUIDs: ReadonlySet<UID>): void;
  /** The timeline's `syncBatch` step: one batch now, as the ticker would (classic drains the
   *  queued requests then runs syncBatch(); current runs syncBatch(all)). */
  triggerBatch(all: boolean): void;
  /** The timeline's `setApiStatusVersion` step. */
  setApiStatusVersion(apiUID: UID, version: number): void;

  // Inspection (read-only, for assertions and invariants).
  cachedEntry(uid: UID): { status: PodStatus; version: number; podIsFinished?: boolean } | undefined;
  apiStatusVersion(apiUID: UID): number | undefined;
  cachedUIDs(): Iterable<UID>;
}

/** pkg/kubelet/pod.Manager, the parts the status manager and kubelet read. */
export interface PodManagerApi {
  getPodByUID(uid: UID): Pod | undefined;
  getPodByFullName(fullName: string): Pod | undefined;
  getMirrorPodByPod(pod: Pod): Pod | undefined;
  getPodByMirrorPod(mirror: Pod): Pod | undefined;
  translatePodUID(uid: UID): UID;
  getUIDTranslations(): { podToMirror: ReadonlyMap<UID, UID>; mirrorToPod: ReadonlyMap<UID, UID> };
  /** Bumped whenever a pod or mirror pod UID is added or removed (the UIDs of getPods and
   *  getMirrorPods are the same while it stands still). */
  readonly uidVersion: number;
  /** Every regular (non-mirror) pod, in a stable order (sorted by UID). */
  getPods(): Pod[];
  getMirrorPods(): Pod[];
  /** The UID of every regular pod, in no particular order (for building sets). */
  forEachPodUID(f: (uid: UID) => void): void;
  addPod(pod: Pod): void;
  updatePod(pod: Pod): void;
  removePod(pod: Pod): void;
}
