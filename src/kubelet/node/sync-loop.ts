// kubelet.go syncLoop's guard: before every syncLoopIteration it asks runtimeState.runtimeErrors and,
// while there are any, logs "Skipping pod synchronization" and sleeps with a back-off (100 ms,
// doubling, at most 5 s; back to 100 ms after an iteration runs) instead of reading its channels.
// What arrives meanwhile waits in them: the config updates, the PLEG's events, the probe results,
// one sync tick and one housekeeping tick (a time.Ticker's channel holds one tick; the others are
// dropped).
//
// kss's sync loop is not one select but handlers called as things arrive (kubelet.ts). The gate sits
// in front of them: an arrival while the loop sleeps is queued; otherwise it runs, and after it
// the loop checks the errors again, as the next turn of the for loop does (an iteration parked in
// select before the errors began still handles the first arrival). When the back-off finds no
// error the queue is handled in arrival order, one arrival per iteration, each followed by the
// check. (Go would pick among the ready channels at random; arrival order is one of its choices.)
import type { Proc } from '../../engine/index.js';
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
}

/** A tick channel of the loop (capacity one). */
export type TickKind = 'sync' | 'housekeeping';

export class SyncLoopGate {
  private sleeping = false;
  private readonly queue: Array<() => void> = [];
  private readonly ticks = new Set<TickKind>();

  constructor(private readonly h: SyncLoopHost) {}

  /** The loop is in its back-off: an arrival now waits. */
  get closed(): boolean {
    return this.sleeping;
  }

  /** An arrival while the loop sleeps (closed): it waits in its channel. The handlers ask `closed`
   *  first and call `check()` after they ran, so that the path without an outage allocates nothing. */
  defer(fn: () => void): void {
    this.queue.push(fn);
  }

  /** A tick while the loop sleeps: its channel keeps it if it has room (else it is dropped). */
  deferTick(kind: TickKind, fn: () => void): void {
    if (this.ticks.has(kind)) return;
    this.ticks.add(kind);
    this.queue.push(() => {
      this.ticks.delete(kind);
      fn();
    });
  }

  /** The top of the for loop: with runtime errors, start the back-off. */
  check(): void {
    if (this.sleeping || !this.h.troubled()) return;
    const errs = this.h.runtimeErrors(this.h.nowMs());
    if (errs.length === 0) return;
    this.sleeping = true;
    this.h.spawn('sync-loop-backoff', this.backoff(errs));
  }

  /** The loop sleeps, doubling, until the errors are gone; then it handles what waited. */
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
    while (this.queue.length > 0 && !this.sleeping) {
      this.queue.shift()!();
      this.check();
    }
  }
}
