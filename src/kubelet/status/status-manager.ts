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
//
// This file: the sync loop and the batch (Start, syncBatch, syncPod, needsUpdate, canBeDeleted,
// needsReconcile). The class is built in layers, by upstream's own grouping: status-cache.ts (the
// cache and version book-keeping, updateStatusInternal) < status-setters.ts (the Set*/Terminate
// API) < this file.
import { Channel, select, type Proc } from '../../engine/index.js';
import { isMirrorPod, isPodPhaseTerminal, isStaticPod, podKey, podUID, type Pod, type PodCondition, type PodStatus, type UID } from '../../model/pod.js';
import type { StatusManagerApi } from '../api.js';
import { mergePodStatus } from './merge.js';
import { isPodStatusByKubeletEqual, normalizeStatus } from './normalize.js';
import { preparePatchForPodStatus } from './patch-status.js';
import type { PodStatusSyncRequest, VersionedPodStatus } from './status-cache.js';
import { StatusSetters } from './status-setters.js';
import { hasStatusChannel } from './types.js';
import { MapOrder } from './map-order.js';

export type { PodStatusSyncRequest, StatusManagerConfig, StatusManagerOptions, VersionedPodStatus } from './status-cache.js';
export { preparePatchForPodStatus } from './patch-status.js';

export class StatusManager extends StatusSetters implements StatusManagerApi {
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

  protected *syncLoop(ticks: Channel<number>): Proc<void> {
    const manual = this.manualBatches;
    const cases = [this.podStatusChannel.recvCase(), ticks.recvCase(), manual.recvCase()]; // (select only reads them)
    for (;;) {
      const r = yield* select(this.engine, 'status/select', cases);
      if (r.index === 2) {
        // A `syncBatch` step: handled on the loop, as a tick would be.
        if (hasStatusChannel(this.gen)) this.drainPodStatusChannel();
        yield* this.syncBatch(hasStatusChannel(this.gen) ? true : (r.value as boolean));
        continue;
      }
      if (r.index === 0) {
        if (hasStatusChannel(this.gen)) {
          const req = r.value as PodStatusSyncRequest;
          yield* this.syncPod(req.podUID, req.status);
        } else {
          yield* this.syncBatch(false);
        }
      } else if (hasStatusChannel(this.gen)) {
        this.drainPodStatusChannel();
        yield* this.syncBatch(true);
      } else {
        yield* this.syncBatch(true);
      }
    }
  }

  /** classic, on a tick: "remove any entries in the status channel since the batch will handle them" —
   *  exactly len(channel) requests, counted once. */
  protected drainPodStatusChannel(): void {
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
        if (hasStatusChannel(self.gen)) {
          self.drainPodStatusChannel();
          yield* self.syncBatch(true);
        } else {
          yield* self.syncBatch(all);
        }
      })(), this.group),
    );
  }

  /** Go's map order over the cached keys (map-order.ts). */
  private ordering: MapOrder | undefined;
  protected get mapOrder(): MapOrder {
    return (this.ordering ??= new MapOrder(this.rng, this.engine.chooser));
  }

  // ----------------------------------------------------------------------------------------------
  // syncBatch / syncPod

  /** syncBatch. Classic (`all` ignored, always the full pass): clean up orphaned apiStatusVersions,
   *  then pick every pod that needsUpdate or needsReconcile. Current: the full pass when `all`,
   *  otherwise only the pods whose cached version is newer than the one sent. Static pods are synced
   *  to their mirror pod, and skipped while they have none. Returns the number of pods synced. */
  *syncBatch(all: boolean): Proc<number> {
    const full = hasStatusChannel(this.gen) || all;
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
        this.mapOrder.draws(this.podStatuses.size);
        for (const uid of pending) updated.push({ uid, statusUID: uid, status: this.podStatuses.get(uid)! });
      } else {
        for (const uid of this.mapOrder.pendingIn(this.sortedStatusUIDs(), pending)) updated.push({ uid, statusUID: uid, status: this.podStatuses.get(uid)! });
      }
    } else {
      for (const uid of this.mapOrder.order(this.sortedStatusUIDs())) {
        const st = this.podStatuses.get(uid)!;
        let statusUID = uid;
        const mirrorUID = podToMirror.get(uid);
        if (mirrorUID !== undefined) {
          if (mirrorUID === '') {
            this.log('V5', 'Static pod does not have a corresponding mirror pod; skipping', `${st.podNamespace}/${st.podName}`, { podUID: uid });
            continue;
          }
          // revert #17270: apiVersionsByStaticUID keys the version sent by the static pod's UID
          if (!this.reverted.has('apiVersionsByStaticUID')) statusUID = mirrorUID;
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
  // upstream-length: syncPod (pkg/kubelet/status/status_manager.go) is itself ~80 lines; the port adds classic's stale-status skip.
  *syncPod(uid: UID, st: VersionedPodStatus): Proc<void> {
    const client = this.client;
    const key = `${st.podNamespace}/${st.podName}`;
    if (client === null) {
      this.log('error', 'syncPod without a client, programmer error', key, { uid });
      return;
    }
    if (hasStatusChannel(this.gen) && !this.needsUpdate(uid, st)) {
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
        // revert #18129 (Do not delete pod status entry when apiserver returns NotFound): dropCacheOnNotFound
        if (this.reverted.has('dropCacheOnNotFound')) this.deletePodStatus(uid);
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
    let restamped: PodCondition | undefined;
    const merged =
      this.gen === 'classic'
        ? mergePodStatus(oldStatus, st.status, 'classic')
        : mergePodStatus(oldStatus, st.status, this.gen, {
            couldHaveRunningContainers: this.deletionSafety.podCouldHaveRunningContainers(pod),
            gates: this.gates,
            now: this.clock.now(),
            reverted: this.reverted,
            onRestamp: (c) => (restamped = c),
          });
    if (restamped !== undefined) this.aliasDisruptionTargetRestamp(uid, st, restamped);

    // statusutil.PatchPodStatus
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const apiUID = podUID(pod);
    // revert #86320 (Add UID precondition to kubelet pod status patch updates): noPatchUIDPrecondition
    const prepared = preparePatchForPodStatus(this.reverted.has('noPatchUIDPrecondition') ? '' : apiUID, oldStatus, merged);
    const patch = prepared.patch;
    // revert #88591 (Avoid sending no-op patches): noopPatches
    const unchanged = prepared.unchanged && !this.reverted.has('noopPatches');
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

    // revert #17270 (tie the server status version to the mirror UID): apiVersionsByStaticUID
    const sentUID = this.reverted.has('apiVersionsByStaticUID') ? uid : podUID(pod);
    this.apiStatusVersions.set(sentUID, st.version);
    this.noteVersions(sentUID);

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
    // revert #42779 (Allow Status Updates for Pods that can be deleted), with #22483: noForceUpdateOnDeletion
    if (this.reverted.has('noForceUpdateOnDeletion')) return false;
    const pod = this.podManager.getPodByUID(uid);
    if (!pod) return false;
    return this.canBeDeleted(pod, st.status, st.podIsFinished);
  }

  /** canBeDeleted. Classic: deletionTimestamp set, not a mirror pod, resources reclaimed. Current:
   *  deletionTimestamp set, not a mirror pod, the pod's own (API-side) phase terminal, and the status
   *  produced by TerminatePod. */
  canBeDeleted(pod: Pod, status: PodStatus, podIsFinished: boolean): boolean {
    if (!pod.metadata?.deletionTimestamp || isMirrorPod(pod)) return false;
    if (hasStatusChannel(this.gen)) return this.deletionSafety.podResourcesAreReclaimed(pod, status);
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
  protected isApiStatusEqual(uid: UID, pod: Pod, status: PodStatus): boolean {
    const memo = this.reconcileMemo.get(uid);
    if (memo !== undefined && memo.status === status && memo.pod === pod) return memo.equal;
    const apiStatus = normalizeStatus(pod, pod.status ?? {}, this.gen);
    const equal = isPodStatusByKubeletEqual(apiStatus, status, this.gen, this.gates);
    if (Object.isFrozen(pod) && Object.isFrozen(status)) this.reconcileMemo.set(uid, { status, pod, equal });
    else this.reconcileMemo.delete(uid);
    return equal;
  }
}

