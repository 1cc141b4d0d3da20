// pkg/kubelet/util/queue/work_queue.go: the kubelet's work queue (basicWorkQueue).
import type { UID } from '../../model/pod.js';

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
