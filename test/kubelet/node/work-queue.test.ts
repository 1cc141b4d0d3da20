import { describe, expect, it } from 'vitest';
import { BasicWorkQueue } from '../../../src/kubelet/node/work-queue.js';

describe('BasicWorkQueue', () => {
  it('hands out exactly the pods due by now, sorted, as a full walk of the queue would', () => {
    // a small deterministic generator (no ambient randomness in tests either)
    let seed = 12345;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const clock = { nowMs: 0 };
    const q = new BasicWorkQueue(clock);
    const reference = new Map<string, number>();
    for (let step = 0; step < 5000; step++) {
      clock.nowMs += rand(3) * 500;
      for (let k = rand(4); k > 0; k--) {
        const uid = `pod-${rand(40)}`;
        const delay = [0, 1000, 10_000, 60_000][rand(4)];
        q.enqueue(uid, delay);
        reference.set(uid, clock.nowMs + delay);
      }
      if (rand(2) === 0) {
        const want = [...reference].filter(([, at]) => at <= clock.nowMs).map(([uid]) => uid).sort();
        for (const uid of want) reference.delete(uid);
        expect(q.getWork()).toEqual(want);
        for (const [uid, at] of reference) expect(q.dueAt(uid)).toBe(at);
      }
    }
  });
});
