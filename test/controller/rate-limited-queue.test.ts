// The node lifecycle controller's tainter queue (controller/nodelifecycle/rate-limited-queue.ts):
// scheduler.RateLimitedTimedQueue behind a token bucket of burst 1.
import { describe, expect, it } from 'vitest';
import { RateLimitedTimedQueue } from '../../src/controller/nodelifecycle/rate-limited-queue.js';

function drain(q: RateLimitedTimedQueue, nowMs: number, ok = true): string[] {
  const done: string[] = [];
  q.try(nowMs, (name) => {
    done.push(name);
    return ok;
  });
  return done;
}

describe('RateLimitedTimedQueue', () => {
  it('acts on one node per token: the first at once, the next 1/qps later', () => {
    const q = new RateLimitedTimedQueue(0.1);
    q.add('b', 0);
    q.add('a', 0);
    expect(drain(q, 100)).toEqual(['b']);
    expect(q.nextTryMs()).toBe(10_100);
    expect(drain(q, 10_000)).toEqual([]);
    expect(drain(q, 10_100)).toEqual(['a']);
    expect(q.nextTryMs()).toBeUndefined();
  });
  it('keeps a node it is done with in the set until it is removed', () => {
    const q = new RateLimitedTimedQueue(1);
    expect(q.add('a', 0)).toBe(true);
    expect(drain(q, 0)).toEqual(['a']);
    expect(q.add('a', 5_000)).toBe(false);
    expect(q.remove('a')).toBe(true);
    expect(q.add('a', 5_000)).toBe(true);
  });
  it('tries a failed action again, a token later', () => {
    const q = new RateLimitedTimedQueue(1);
    q.add('a', 0);
    expect(drain(q, 0, false)).toEqual(['a']);
    expect(q.size).toBe(1);
    expect(q.nextTryMs()).toBe(1_000);
  });
  it('never acts at QPS 0; a new limiter is full unless the old one had no token', () => {
    const q = new RateLimitedTimedQueue(0.1);
    q.add('a', 0);
    q.swapLimiter(0, 0);
    expect(drain(q, 100)).toEqual([]);
    expect(q.nextTryMs()).toBeUndefined();
    q.swapLimiter(0.1, 20_000); // the never-limiter had no token: the new bucket is drained
    expect(q.nextTryMs()).toBe(30_000);
    const full = new RateLimitedTimedQueue(0.1);
    full.add('a', 0);
    full.swapLimiter(0.5, 0); // the old one had its token: the new bucket is full
    expect(drain(full, 0)).toEqual(['a']);
  });
});
