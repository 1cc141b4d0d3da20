// The fair queuing of one priority level: a port of queueSet
// (k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing/queueset/queueset.go, v1.26–v1.30), with
// every request one seat wide (kss's requests are single-object reads and writes: WorkEstimate
// InitialSeats 1, no FinalSeats) and times in virtual ms, R in seat-ms.
//
//   start(): shuffle-shard the flow onto the shortest queue of its hand; reject (queue-full) when
//            every seat is in use and that queue holds queueLengthLimit requests; else enqueue and
//            dispatch as much as possible. With no queues (LimitResponse Reject) a request is
//            executed at once or rejected (concurrency-limit).
//   dispatch: fair queuing by virtual finish time — the queue whose oldest request would finish
//            first in the virtual world R, round robin among ties.
//   finish(): frees the seat, corrects the queue's nextDispatchR by the real service time, and
//            dispatches again.
//   cancel(): a request that leaves its queue before dispatch (its wait limit passed, or its client
//            gave up).
import { Dealer } from './shuffle-sharding.js';

/** queueset.go: the service time assumed for a request until it finishes (3 ms). */
const ESTIMATED_SERVICE_MS = 3;

export interface QueueSetConfig {
  name: string;
  /** 0: no queuing (LimitResponse Reject). */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
  /** The level's concurrency limit (seats). */
  concurrencyLimit: number;
}

/** What the queue set decides for a request: run it, or refuse it. */
export interface QueuedRequest {
  readonly flow: bigint;
  arrivalMs: number;
  arrivalR: number;
  queue: Queue | null;
  state: 'waiting' | 'executing' | 'done' | 'removed';
  startMs: number;
  /** Called (synchronously, inside start/finish/cancel) when the request is dispatched. */
  readonly onExecute: (r: QueuedRequest) => void;
}

export interface Queue {
  readonly index: number;
  waiting: QueuedRequest[];
  head: number;
  executing: number;
  seatsInUse: number;
  nextDispatchR: number;
}

function waitingLength(q: Queue): number {
  return q.waiting.length - q.head;
}

function peek(q: Queue): QueuedRequest | undefined {
  return q.head < q.waiting.length ? q.waiting[q.head] : undefined;
}

export class QueueSet {
  readonly queues: Queue[] = [];
  private readonly dealer: Dealer | null;
  private currentR = 0;
  private lastMs: number;
  private robinIndex = -1;
  private enqueues = 0;
  totRequestsWaiting = 0;
  totRequestsExecuting = 0;
  totSeatsInUse = 0;
  /** Counters, as queueSet.Dump reports them. */
  rejected = 0;
  timedOut = 0;
  cancelled = 0;
  dispatched = 0;

  constructor(readonly cfg: QueueSetConfig, nowMs: number) {
    this.lastMs = nowMs;
    this.dealer = cfg.queues > 0 ? new Dealer(cfg.queues, Math.min(cfg.handSize, cfg.queues)) : null;
    for (let i = 0; i < cfg.queues; i++) this.queues.push({ index: i, waiting: [], head: 0, executing: 0, seatsInUse: 0, nextDispatchR: 0 });
  }

  /** StartRequest: the request, queued or executing (onExecute already called), or a reason it
   *  was rejected. */
  start(nowMs: number, flow: bigint, onExecute: (r: QueuedRequest) => void): QueuedRequest | 'queue-full' | 'concurrency-limit' {
    this.syncTime(nowMs);
    const req: QueuedRequest = { flow, arrivalMs: nowMs, arrivalR: this.currentR, queue: null, state: 'waiting', startMs: 0, onExecute };
    if (this.dealer === null) {
      // Step 0: only the concurrency limit, with no queues.
      if (this.totSeatsInUse + 1 > this.cfg.concurrencyLimit) {
        this.rejected++;
        return 'concurrency-limit';
      }
      this.execute(req, nowMs);
      return req;
    }
    const queue = this.queues[this.shuffleShard(flow)]!;
    // rejectOrEnqueueToBoundLocked
    if (this.totSeatsInUse >= this.cfg.concurrencyLimit && waitingLength(queue) >= this.cfg.queueLengthLimit) {
      this.rejected++;
      return 'queue-full';
    }
    if (waitingLength(queue) === 0 && queue.executing === 0) queue.nextDispatchR = this.currentR;
    req.queue = queue;
    queue.waiting.push(req);
    this.totRequestsWaiting++;
    this.boundNextDispatch(queue);
    this.dispatchAsMuchAsPossible(nowMs);
    return req;
  }

  /** A waiting request leaves its queue undispatched ('time-out': its wait limit passed;
   *  'cancel': its client went away). False when it was no longer waiting. */
  cancel(nowMs: number, req: QueuedRequest, why: 'time-out' | 'cancel'): boolean {
    if (req.state !== 'waiting' || req.queue === null) return false;
    this.syncTime(nowMs);
    const q = req.queue;
    const i = q.waiting.indexOf(req, q.head);
    if (i < 0) return false;
    q.waiting.splice(i, 1);
    req.state = 'removed';
    this.totRequestsWaiting--;
    this.rejected++;
    if (why === 'time-out') this.timedOut++;
    else this.cancelled++;
    this.boundNextDispatch(q);
    return true;
  }

  /** finishRequestAndDispatchAsMuchAsPossible. */
  finish(nowMs: number, req: QueuedRequest): void {
    if (req.state !== 'executing') return;
    this.syncTime(nowMs);
    req.state = 'done';
    this.totRequestsExecuting--;
    this.totSeatsInUse--;
    const q = req.queue;
    if (q !== null) {
      q.executing--;
      q.seatsInUse--;
      // the queue's start R is decremented by (G - S) × width
      q.nextDispatchR -= ESTIMATED_SERVICE_MS - (nowMs - req.startMs);
      this.boundNextDispatch(q);
    }
    this.dispatchAsMuchAsPossible(nowMs);
  }

  get idle(): boolean {
    return this.totRequestsWaiting === 0 && this.totRequestsExecuting === 0;
  }

  /** syncTimeLocked: R advances at min(seats asked, limit) / active queues per ms. */
  private syncTime(nowMs: number): void {
    const dt = nowMs - this.lastMs;
    this.lastMs = nowMs;
    if (dt <= 0) return;
    let active = 0;
    let seats = 0;
    for (const q of this.queues) {
      const w = waitingLength(q);
      seats += q.seatsInUse + w;
      if (w > 0 || q.executing > 0) active++;
    }
    if (active === 0) return;
    this.currentR += (Math.min(seats, this.cfg.concurrencyLimit) / active) * dt;
  }

  /** shuffleShardLocked: of the flow's hand, the queue with the least work waiting, visiting the
   *  hand from a rotating offset. */
  private shuffleShard(flow: bigint): number {
    const hand = this.dealer!.dealIntoHand(flow);
    const offset = this.enqueues % hand.length;
    this.enqueues++;
    let best = -1;
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < hand.length; i++) {
      const idx = hand[(offset + i) % hand.length]!;
      const work = waitingLength(this.queues[idx]!) * ESTIMATED_SERVICE_MS;
      if (work < min) {
        min = work;
        best = idx;
      }
    }
    return best;
  }

  private dispatchAsMuchAsPossible(nowMs: number): void {
    while (this.totRequestsWaiting !== 0 && this.totSeatsInUse < this.cfg.concurrencyLimit && this.dispatchOne(nowMs)) {
      // dispatchLocked
    }
  }

  /** dispatchLocked + findDispatchQueueToBoundLocked. */
  private dispatchOne(nowMs: number): boolean {
    const nq = this.queues.length;
    let minFinish = Number.POSITIVE_INFINITY;
    let minQueue: Queue | null = null;
    let minIndex = 0;
    for (let k = 0; k < nq; k++) {
      this.robinIndex = (this.robinIndex + 1) % nq;
      const q = this.queues[this.robinIndex]!;
      if (peek(q) === undefined) continue;
      const finish = q.nextDispatchR + ESTIMATED_SERVICE_MS;
      if (finish < minFinish) {
        minFinish = finish;
        minQueue = q;
        minIndex = this.robinIndex;
      }
    }
    if (minQueue === null) return false;
    const req = minQueue.waiting[minQueue.head]!;
    minQueue.head++;
    if (minQueue.head > 32 && minQueue.head * 2 > minQueue.waiting.length) {
      minQueue.waiting = minQueue.waiting.slice(minQueue.head);
      minQueue.head = 0;
    }
    this.robinIndex = minIndex;
    this.totRequestsWaiting--;
    minQueue.executing++;
    minQueue.seatsInUse++;
    minQueue.nextDispatchR += ESTIMATED_SERVICE_MS;
    this.boundNextDispatch(minQueue);
    this.execute(req, nowMs);
    return true;
  }

  private execute(req: QueuedRequest, nowMs: number): void {
    req.state = 'executing';
    req.startMs = nowMs;
    this.totRequestsExecuting++;
    this.totSeatsInUse++;
    this.dispatched++;
    req.onExecute(req);
  }

  /** boundNextDispatchLocked, the anti-windup hack: dispatch in the virtual world never precedes
   *  the arrival of the queue's oldest request. */
  private boundNextDispatch(q: Queue): void {
    const oldest = peek(q);
    if (oldest !== undefined && q.nextDispatchR < oldest.arrivalR) q.nextDispatchR = oldest.arrivalR;
  }
}
