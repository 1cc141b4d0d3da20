// The ported Alea against seedrandom's, and the timing wheel against a plain (atMs, seq) sort.
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import fc from 'fast-check';
import { Engine, EventWheel, Rng } from '../../src/engine/index.js';

describe('Rng: Alea ported from seedrandom', () => {
  it('yields exactly seedrandom.alea(seed)\'s stream, for the root and for forks', () => {
    for (const seed of ['1', '42', '', 'a/b/c', '1/apiserver/uid', 'ünï©ødé ✓', '-7', '1/kubelet-1/node/pleg']) {
      const ours = new Rng(seed);
      const theirs = seedrandom.alea(seed);
      for (let i = 0; i < 2000; i++) expect(ours.float()).toBe(theirs());
    }
    const fork = new Rng('7').fork('network').fork('latency');
    const theirs = seedrandom.alea('7/network/latency');
    for (let i = 0; i < 100; i++) expect(fork.float()).toBe(theirs());
    expect(fork.name).toBe('network/latency');
  });

  it('holds for any seed string (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.nat({ max: 50 }), (seed, n) => {
        const ours = new Rng(seed);
        const theirs = seedrandom.alea(seed);
        for (let i = 0; i < n; i++) if (ours.float() !== theirs()) return false;
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('int, pick, shuffle and hex draw as before', () => {
    const a = new Rng('9');
    const s = seedrandom.alea('9');
    expect(a.int(500, 1500)).toBe(500 + Math.floor(s() * 1001));
    expect(a.pick(7)).toBe(Math.floor(s() * 7));
    expect(a.hex(8)).toBe(Math.floor(s() * 0x100000000).toString(16).padStart(8, '0'));
  });
});

describe('EventWheel', () => {
  it('pops in (atMs, seq) order, across the horizon and long gaps (property)', () => {
    const delay = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 3_000_000 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(delay, fc.nat({ max: 3 })), { minLength: 1, maxLength: 300 }), (ops) => {
        // Each op pops one entry (when any) and pushes `count` entries after the current instant.
        const w = new EventWheel<never, never>();
        const ref: Array<{ at: number; seq: number }> = [];
        let seq = 0;
        let now = 0;
        const got: number[] = [];
        const want: number[] = [];
        w.push(0);
        ref.push({ at: 0, seq: seq++ });
        for (const [d, count] of ops) {
          const t = w.peekTime();
          if (t < 0) break;
          w.advance(t);
          const i = w.pop();
          now = t;
          got.push(w.seqOf(i));
          w.release(i);
          ref.sort((x, y) => x.at - y.at || x.seq - y.seq);
          const r = ref.shift()!;
          want.push(r.seq);
          if (r.at !== t) return false;
          for (let k = 0; k <= count; k++) {
            w.push(now + d * k);
            ref.push({ at: now + d * k, seq: seq++ });
          }
        }
        return JSON.stringify(got) === JSON.stringify(want);
      }),
      { numRuns: 300 },
    );
  });

  it('a cancelled timer never runs; one cancelled after it ran cancels nothing else', () => {
    const e = new Engine(new Rng('1'));
    const log: string[] = [];
    const t1 = e.at(5, () => log.push('t1'));
    e.at(5, () => log.push('t2'));
    t1.cancel();
    const t3 = e.at(6, () => log.push('t3'));
    e.run({ untilMs: 6 });
    t3.cancel(); // t3 ran; its entry is recycled by the next push
    e.at(7, () => log.push('t4'));
    t3.cancel();
    e.at(100_000, () => log.push('far'));
    e.run({ untilMs: 200_000 });
    expect(log).toEqual(['t2', 't3', 't4', 'far']);
    expect(e.nowMs).toBe(100_000); // idle after the last event
  });

  it('rejects an event at a fractional millisecond', () => {
    const e = new Engine(new Rng('1'));
    expect(() => e.at(1.5, () => {})).toThrow(/integer milliseconds/);
  });
});
