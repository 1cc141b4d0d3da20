// pkg/kubelet/pod_workers.go (≤v1.21): the classic generation's pod workers.
import { Channel, type Proc } from '../../engine/index.js';
import { podKey, type UID } from '../../model/pod.js';
import { BACKOFF_JITTER, isProc, RESYNC_JITTER, type PodWorkersOptions, type UpdatePodOptions } from './pod-workers.js';

/** The ≤v1.21 pod workers. */
export class PodWorkersClassic {
  private readonly podUpdates = new Map<UID, Channel<UpdatePodOptions>>();
  private readonly isWorking = new Map<UID, boolean>();
  private readonly lastUndeliveredWorkUpdate = new Map<UID, UpdatePodOptions>();

  constructor(private readonly o: PodWorkersOptions) {}

  hasWorker(uid: UID): boolean {
    return this.podUpdates.has(uid);
  }

  /** UpdatePod */
  updatePod(options: UpdatePodOptions): void {
    const uid = options.pod.metadata?.uid ?? '';
    let ch = this.podUpdates.get(uid);
    if (ch === undefined) {
      ch = new Channel<UpdatePodOptions>(this.o.engine, 1, `podUpdates/${uid}`);
      this.podUpdates.set(uid, ch);
      this.o.spawn(`pod-worker/${uid}`, this.managePodLoop(uid, ch));
    }
    if (!this.isWorking.get(uid)) {
      this.isWorking.set(uid, true);
      ch.trySend(options);
    } else {
      const u = this.lastUndeliveredWorkUpdate.get(uid);
      // a pending kill is never overwritten
      if (u === undefined || u.updateType !== 'kill') this.lastUndeliveredWorkUpdate.set(uid, options);
    }
  }

  /** managePodLoop */
  private *managePodLoop(uid: UID, ch: Channel<UpdatePodOptions>): Proc<void> {
    const { cache, syncer, tracer } = this.o;
    let lastSyncGen = 0;
    for (;;) {
      const r = yield* ch.recv();
      if (!r.ok) return;
      const update = r.value;
      const rt = cache.generation > lastSyncGen ? cache.get(uid) : yield* cache.getNewerThan(uid, lastSyncGen); // as podWorkerLoop's
      const o = syncer.syncPodClassic(update, rt);
      const { err } = isProc(o) ? yield* o : o;
      update.killPodOptions?.completed?.(); // OnCompleteFunc
      lastSyncGen = cache.generation;
      if (err !== undefined) tracer.log('error', `Error syncing pod, skipping: ${err}`, podKey(update.pod), { uid });
      this.wrapUp(uid, err);
    }
  }

  /** wrapUp: requeue, then deliver the last undelivered update or go idle. */
  private wrapUp(uid: UID, err: string | undefined): void {
    const { workQueue, jitter, resyncIntervalMs, backOffPeriodMs } = this.o;
    if (err === undefined) workQueue.enqueue(uid, jitter(resyncIntervalMs, RESYNC_JITTER));
    else workQueue.enqueue(uid, jitter(backOffPeriodMs, BACKOFF_JITTER));
    const u = this.lastUndeliveredWorkUpdate.get(uid);
    const ch = this.podUpdates.get(uid);
    if (u !== undefined && ch !== undefined) {
      ch.trySend(u);
      this.lastUndeliveredWorkUpdate.delete(uid);
    } else this.isWorking.set(uid, false);
  }

  /** ForgetWorker / removeWorker: close the worker (it ends after its current work). */
  forgetWorker(uid: UID): void {
    const ch = this.podUpdates.get(uid);
    if (ch === undefined) return;
    ch.close();
    this.podUpdates.delete(uid);
    this.lastUndeliveredWorkUpdate.delete(uid);
  }

  /** ForgetNonExistingPodWorkers */
  forgetNonExistingPodWorkers(desired: ReadonlySet<UID>): void {
    for (const uid of [...this.podUpdates.keys()].sort()) if (!desired.has(uid)) this.forgetWorker(uid);
  }
}
