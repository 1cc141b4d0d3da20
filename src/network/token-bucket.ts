// client-go's request throttle (flowcontrol.NewTokenBucketRateLimiter, built on
// golang.org/x/time/rate.Limiter): the bucket starts full with `burst` tokens and refills at `qps`
// tokens per second, continuously. Each request reserves one token; when none is left the
// reservation goes into debt and the request waits until the debt is paid, so requests queue up
// in arrival order and leave at most qps per second.

export class TokenBucket {
  private tokens: number;
  private lastMs: number;

  /** qps <= 0 means no limit (flowcontrol's "always" limiter); burst is at least 1. */
  constructor(readonly qps: number, readonly burst: number, nowMs: number) {
    this.burst = Math.max(1, Math.floor(burst));
    this.tokens = this.burst;
    this.lastMs = nowMs;
  }

  /** Reserve one token at nowMs (rate.Limiter.Reserve); returns the virtual ms to wait before sending. */
  reserve(nowMs: number): number {
    if (!(this.qps > 0)) return 0;
    if (nowMs > this.lastMs) {
      this.tokens = Math.min(this.burst, this.tokens + ((nowMs - this.lastMs) * this.qps) / 1000);
      this.lastMs = nowMs;
    }
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    // Whole milliseconds; the epsilon keeps float noise (0.05 tokens/ms sums) from adding 1 ms.
    return Math.ceil((-this.tokens * 1000) / this.qps - 1e-9);
  }

  /** Tokens available now (may be negative while requests wait). */
  available(nowMs: number): number {
    if (!(this.qps > 0)) return Number.POSITIVE_INFINITY;
    return Math.min(this.burst, this.tokens + (Math.max(0, nowMs - this.lastMs) * this.qps) / 1000);
  }
}
