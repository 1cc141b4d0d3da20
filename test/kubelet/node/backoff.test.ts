import { describe, expect, it } from 'vitest';
import { Backoff, crashLoopBackOffMessage, getStableKey, goDuration } from '../../../src/kubelet/node/backoff.js';
import type { Pod } from '../../../src/model/pod.js';

class FakeClock {
  nowMs = 0;
}

describe('Backoff (flowcontrol, as the kubelet configures it)', () => {
  it('an unknown key is not in back-off', () => {
    const b = new Backoff(new FakeClock());
    expect(b.isInBackOffSince('k', 0)).toBe(false);
    expect(b.get('k')).toBe(0);
  });

  it('restarts after 0, then 10, 20, 40, 80, 160, 300, 300 s of back-off', () => {
    // A container that runs 5 s and crashes: each time it dies the kubelet checks the back-off
    // against the finish time, and restarts it at the first instant it is out of back-off.
    const clock = new FakeClock();
    const b = new Backoff(clock);
    const waits: number[] = [];
    let finishedAt = 5_000;
    for (let i = 0; i < 8; i++) {
      clock.nowMs = finishedAt;
      let wait = 0;
      while (b.isInBackOffSince('k', finishedAt)) {
        clock.nowMs += 1_000;
        wait += 1_000;
      }
      waits.push(wait / 1000);
      b.next('k', finishedAt); // restart now
      finishedAt = clock.nowMs + 5_000;
    }
    expect(waits).toEqual([0, 10, 20, 40, 80, 160, 300, 300]);
    expect(b.get('k')).toBe(300_000);
  });

  it('is in back-off until exactly finishedAt + back-off', () => {
    const clock = new FakeClock();
    const b = new Backoff(clock);
    clock.nowMs = 1_000;
    b.next('k', 1_000); // back-off 10 s, lastUpdate 1 s
    clock.nowMs = 6_000;
    expect(b.isInBackOffSince('k', 5_000)).toBe(true);
    clock.nowMs = 14_999;
    expect(b.isInBackOffSince('k', 5_000)).toBe(true);
    clock.nowMs = 15_000;
    expect(b.isInBackOffSince('k', 5_000)).toBe(false);
  });

  it('resets to 10 s once the container ran more than 2 × max (10 min) since the last restart', () => {
    const clock = new FakeClock();
    const b = new Backoff(clock);
    for (let i = 0; i < 5; i++) b.next('k', clock.nowMs);
    expect(b.get('k')).toBe(160_000);
    const lastRestart = clock.nowMs;
    // finished exactly 600 s after the restart: not expired, keeps doubling
    clock.nowMs = lastRestart + 600_000;
    expect(b.isInBackOffSince('k', lastRestart + 600_000)).toBe(true);
    b.next('k', lastRestart + 600_000);
    expect(b.get('k')).toBe(300_000);
    // finished more than 600 s after the restart: expired, not in back-off, starts over
    const again = clock.nowMs;
    clock.nowMs = again + 600_001;
    expect(b.isInBackOffSince('k', again + 600_001)).toBe(false);
    b.next('k', again + 600_001);
    expect(b.get('k')).toBe(10_000);
  });

  it('GC drops entries not updated for more than 2 × max', () => {
    const clock = new FakeClock();
    const b = new Backoff(clock);
    b.next('a', 0);
    clock.nowMs = 300_000;
    b.next('b', 300_000);
    clock.nowMs = 600_001;
    b.gc();
    expect(b.keys()).toEqual(['b']);
  });

  it('prints Go durations and the CrashLoopBackOff message', () => {
    expect([10_000, 20_000, 40_000, 80_000, 160_000, 300_000].map(goDuration)).toEqual(['10s', '20s', '40s', '1m20s', '2m40s', '5m0s']);
    expect(goDuration(1_500)).toBe('1.5s');
    expect(goDuration(3_600_000)).toBe('1h0m0s');
    const pod: Pod = { metadata: { name: 'web', namespace: 'prod', uid: 'u-1' } };
    expect(crashLoopBackOffMessage(40_000, 'main', pod)).toBe('back-off 40s restarting failed container=main pod=web_prod(u-1)');
  });

  it('keys on pod identity and the container spec', () => {
    const pod: Pod = { metadata: { name: 'web', namespace: 'prod', uid: 'u-1' } };
    const k1 = getStableKey(pod, { name: 'main', image: 'a' });
    expect(k1.startsWith('web_prod_u-1_main_')).toBe(true);
    expect(getStableKey(pod, { name: 'main', image: 'b' })).not.toBe(k1);
    expect(getStableKey(pod, { image: 'a', name: 'main' })).toBe(k1);
  });
});
