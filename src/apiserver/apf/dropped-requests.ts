// The Retry-After of a 429 from flow control: a port of droppedRequestsTracker
// (k8s.io/apiserver/pkg/util/flowcontrol/dropped_requests_tracker.go, v1.28+, kubernetes#117547), per priority level,
// on virtual seconds. Retry-After starts at 1 s; when a second ends with at least 3 × retryAfter
// requests dropped within the last retryAfter seconds (and retryAfter seconds since the last raise)
// it doubles, up to 32 s; with fewer than retryAfter drops it comes down by one. (Before v1.28 the
// filter always answered Retry-After: 1: `retryAfter: 1` in the scenario.)

const MAX_RETRY_AFTER = 32;

interface Stat {
  unix: number;
  requests: number;
}

class LevelStats {
  private history: Stat[] = [];
  private currentUnix = 0;
  private currentCount = 0;
  retryAfter = 1;
  private retryAfterUpdateUnix = 0;

  record(unix: number): void {
    if (this.currentUnix === unix) {
      this.currentCount++;
      return;
    }
    this.updateHistory(this.currentUnix, this.currentCount);
    this.currentUnix = unix;
    this.currentCount = 1;
    this.updateRetryAfter(unix);
  }

  private updateHistory(unix: number, count: number): void {
    this.history.push({ unix, requests: count });
    let start = 0;
    while (start < this.history.length && unix - this.history[start]!.unix > MAX_RETRY_AFTER) start++;
    if (start > 0) this.history = this.history.slice(start);
  }

  /** updateRetryAfterIfNeededLocked, over [unix - retryAfter, unix). */
  private updateRetryAfter(unix: number): void {
    let ra = this.retryAfter;
    let dropped = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const h = this.history[i]!;
      if (unix - h.unix > ra) break;
      if (h.unix < unix) dropped += h.requests;
    }
    if (unix - this.retryAfterUpdateUnix >= ra && dropped >= 3 * ra) {
      ra = Math.min(ra * 2, MAX_RETRY_AFTER);
      this.retryAfter = ra;
      this.retryAfterUpdateUnix = unix;
      return;
    }
    if (dropped < ra && ra > 1) this.retryAfter = ra - 1;
  }
}

export class DroppedRequestsTracker {
  private readonly levels = new Map<string, LevelStats>();

  recordDroppedRequest(level: string, nowMs: number): void {
    let s = this.levels.get(level);
    if (s === undefined) this.levels.set(level, (s = new LevelStats()));
    s.record(Math.floor(nowMs / 1000));
  }

  getRetryAfter(level: string): number {
    return this.levels.get(level)?.retryAfter ?? 1;
  }
}
