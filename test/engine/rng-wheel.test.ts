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
      fc.property(fc.string({ maxLength: 40, unit: 'binary' }), fc.nat({ max: 50 }), (seed, n) => {
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

  it('keeps order past 2^31 ms (a 1000-hour run is 3.6e9 ms)', () => {
    const e = new Engine(new Rng('1'));
    const log: number[] = [];
    const base = 2 ** 32 - 3;
    e.at(base, () => {
      for (const d of [5000, 3, 0, 4095, 4096, 3]) e.after(d, () => log.push(e.nowMs - base));
    });
    e.run({ untilMs: 2 ** 33 });
    expect(log).toEqual([0, 3, 3, 4095, 4096, 5000]);
  });

  it('rejects an event at a fractional millisecond', () => {
    const e = new Engine(new Rng('1'));
    expect(() => e.at(1.5, () => {})).toThrow(/integer milliseconds/);
  });
});

describe('Engine on the wheel: the (atMs, seq) order of a plain sorted queue', () => {
  // Each process sleeps through its delays; at each wake it may set a timer and cancel its last one.
  // A reference run keeps the queue as an array sorted by (atMs, seq) and must log the same.
  type Op = { sleep: number; timer: number | null; cancel: boolean };
  const delay = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 4000, max: 9000 }), fc.integer({ min: 0, max: 100_000 }));
  const op = fc.record({ sleep: delay, timer: fc.option(delay), cancel: fc.boolean() });

  function viaEngine(procs: Op[][], untilMs: number): string[] {
    const e = new Engine(new Rng('1'));
    const log: string[] = [];
    procs.forEach((ops, p) => {
      e.spawn(`p${p}`, (function* () {
        let last: { cancel(): void } | null = null;
        for (const [k, o] of ops.entries()) {
          log.push(`${e.nowMs} p${p}.${k}`);
          if (o.cancel && last) last.cancel();
          if (o.timer !== null) last = e.after(o.timer, () => log.push(`${e.nowMs} t${p}.${k}`));
          yield o.sleep;
        }
      })());
    });
    e.run({ untilMs });
    return log;
  }

  function reference(procs: Op[][], untilMs: number): string[] {
    type Ev = { at: number; seq: number; run: () => void; dead?: boolean };
    const q: Ev[] = [];
    let seq = 0;
    let now = 0;
    const log: string[] = [];
    const push = (at: number, run: () => void) => {
      const ev: Ev = { at, seq: seq++, run };
      q.push(ev);
      return ev;
    };
    procs.forEach((ops, p) => {
      let last: Ev | null = null;
      const step = (k: number) => {
        if (k >= ops.length) return;
        const o = ops[k];
        log.push(`${now} p${p}.${k}`);
        if (o.cancel && last) last.dead = true;
        if (o.timer !== null) last = push(now + o.timer, () => log.push(`${now} t${p}.${k}`));
        push(now + o.sleep, () => step(k + 1));
      };
      push(0, () => step(0));
    });
    for (;;) {
      q.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const ev = q.shift();
      if (ev === undefined || ev.at > untilMs) break;
      now = ev.at;
      if (!ev.dead) ev.run();
    }
    return log;
  }

  it('logs the same events in the same order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 12 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 300_000 }), (procs, until) => {
        expect(viaEngine(procs, until)).toEqual(reference(procs, until));
      }),
      { numRuns: 200 },
    );
  });
});
