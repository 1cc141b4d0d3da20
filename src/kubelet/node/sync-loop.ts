// kubelet.go syncLoop's guard: before every syncLoopIteration it asks runtimeState.runtimeErrors and,
// while there are any, logs "Skipping pod synchronization" and sleeps with a back-off (100 ms,
// doubling, at most 5 s; back to 100 ms after an iteration runs) instead of reading its channels.
// What arrives meanwhile waits in them: the config updates, the PLEG's events, the probe results,
// one sync tick and one housekeeping tick (a time.Ticker's channel holds one tick; the others are
// dropped).
//
// kss's sync loop is not one select but handlers called as things arrive (kubelet.ts). The gate sits
// in front of them: an arrival while the loop sleeps is queued in its channel; otherwise it runs,
// and after it the loop checks the errors again, as the next turn of the for loop does (an
// iteration parked in select before the errors began still handles the first arrival). When the
// back-off finds no error, each iteration takes one arrival from one of the channels that hold one,
// chosen as Go's select chooses among ready cases (a seeded, recorded choice), and checks again.
import type { Proc, Rng } from '../../engine/index.js';
import { aggregateError } from './runtime-state.js';

export const SYNC_LOOP_BACKOFF_BASE_MS = 100;
export const SYNC_LOOP_BACKOFF_MAX_MS = 5_000;

export interface SyncLoopHost {
  nowMs(): number;
  /** Whether runtimeErrors can say anything (false: skip the check). */
  troubled(): boolean;
  runtimeErrors(nowMs: number): string[];
  spawn(name: string, body: Proc<void>): void;
  logError(msg: string): void;
  /** The stream of the loop's select when it wakes (made on first use: a run without an outage
   *  forks nothing). */
  rng(): Rng;
}

/** syncLoopIteration's channels, in its select's case order. */
export const LOOP_CHANNELS = ['config', 'pleg', 'sync', 'liveness', 'readiness', 'startup', 'housekeeping'] as const;
export type LoopChannel = (typeof LOOP_CHANNELS)[number];
/** The ticker channels (capacity one: a tick finding it full is dropped). */
export type TickKind = 'sync' | 'housekeeping';

export class SyncLoopGate {
  private sleeping = false;
  /** What waits in each channel, oldest first. */
  private readonly queues = new Map<LoopChannel, Array<() => void>>(LOOP_CHANNELS.map((c) => [c, []]));
  private waiting = 0;

  constructor(private readonly h: SyncLoopHost) {}

  /** The loop is in its back-off: an arrival now waits. */
  get closed(): boolean {
    return this.sleeping;
  }

  /** An arrival on channel `ch` while the loop sleeps (closed): it waits there. The handlers ask
   *  `closed` first and call `check()` after they ran, so that the path without an outage
   *  allocates nothing. */
  defer(ch: LoopChannel, fn: () => void): void {
    this.queues.get(ch)!.push(fn);
    this.waiting++;
  }

  /** A tick while the loop sleeps: its channel keeps it if it has room (else it is dropped). */
  deferTick(kind: TickKind, fn: () => void): void {
    if (this.queues.get(kind)!.length > 0) return;
    this.defer(kind, fn);
  }

  /** The top of the for loop: with runtime errors, start the back-off. */
  check(): void {
    if (this.sleeping || !this.h.troubled()) return;
    const errs = this.h.runtimeErrors(this.h.nowMs());
    if (errs.length === 0) return;
    this.sleeping = true;
    this.h.spawn('sync-loop-backoff', this.backoff(errs));
  }

  /** The loop sleeps, doubling, until the errors are gone; then each iteration's select takes one
   *  arrival from a channel that has one (Go picks among the ready cases at random: a seeded
   *  choice, value 0 the first ready case in the select's order), and the loop checks again. */
  private *backoff(first: string[]): Proc<void> {
    let errs = first;
    let duration = SYNC_LOOP_BACKOFF_BASE_MS;
    for (;;) {
      this.h.logError(`Skipping pod synchronization: ${aggregateError(errs)}`);
      yield duration;
      duration = Math.min(SYNC_LOOP_BACKOFF_MAX_MS, 2 * duration);
      errs = this.h.troubled() ? this.h.runtimeErrors(this.h.nowMs()) : [];
      if (errs.length === 0) break;
    }
    this.sleeping = false;
    while (this.waiting > 0 && !this.sleeping) {
      const ready = LOOP_CHANNELS.filter((c) => this.queues.get(c)!.length > 0);
      const ch = ready.length === 1 ? ready[0] : ready[this.h.rng().choose('sync-loop/select', ready.length)];
      this.waiting--;
      this.queues.get(ch)!.shift()!();
      this.check();
    }
  }
}
