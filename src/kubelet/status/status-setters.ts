// pkg/kubelet/status/status_manager.go: the Set*/Terminate API of the status manager
// (SetPodStatus, SetContainerReadiness, SetContainerStartup, TerminatePod, RemoveOrphanedStatuses),
// as the pod workers, the prober and housekeeping call it; each ends in updateStatusInternal or
// deletePodStatus of the cache (status-cache.ts).
import { deepFreeze } from '../../model/freeze.js';
import { podKey, podUID, type ContainerStatus, type Pod, type PodCondition, type PodStatus, type UID } from '../../model/pod.js';
import { getPodConditionIndex } from './conditions.js';
import { generateContainersReadyCondition, generatePodReadyCondition } from './generate.js';
import { StatusCache } from './status-cache.js';
import { terminatePodStatus } from './terminate.js';
import { ContainersReady, PodReady } from './types.js';

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

export abstract class StatusSetters extends StatusCache {
  /** SetPodStatus: cache the status (forced when the pod has a deletionTimestamp) and trigger a sync.
   *  The status is deep-frozen: it becomes part of the cache. */
  setPodStatus(pod: Pod, status: PodStatus): void {
    deepFreeze(status);
    // revert #22483 (force status update when the deletion timestamp is set): noForceUpdateOnDeletion
    const force = !!pod.metadata?.deletionTimestamp && !this.reverted.has('noForceUpdateOnDeletion');
    this.updateStatusInternal(pod, status, force, false);
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
  protected updateCondition(conditions: PodCondition[], type: string, condition: PodCondition, key: string): void {
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
    const { status, notes } = terminatePodStatus(pod, base, cached !== undefined, this.gen, this.gates, this.reverted);
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
}
