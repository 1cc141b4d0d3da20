import { describe, expect, it } from 'vitest';
import { Channel, Engine, Rng, Ticker, select, type Proc } from '../../src/engine/index.js';

function mk(seed = '1') {
  return new Engine(new Rng(seed));
}

describe('engine', () => {
  it('runs processes in (atMs, seq) order and sleeps in virtual time', () => {
    const e = mk();
    const log: string[] = [];
    e.spawn('a', (function* (): Proc<void> { yield 10; log.push(`a@${e.nowMs}`); yield 5; log.push(`a@${e.nowMs}`); })());
    e.spawn('b', (function* (): Proc<void> { yield 10; log.push(`b@${e.nowMs}`); })());
    e.run({ untilMs: 100 });
    expect(log).toEqual(['a@10', 'b@10', 'a@15']);
  });

  it('stops at until and reports runaway loops', () => {
    const e = mk();
    e.spawn('spin', (function* (): Proc<void> { for (;;) yield 0; })());
    expect(() => e.run({ untilMs: 10, maxEvents: 1000 })).toThrow(/event limit/);
  });

  it('hands a send straight to a parked receiver, leaving the buffer empty', () => {
    const e = mk();
    const ch = new Channel<number>(e, 2);
    const got: number[] = [];
    e.spawn('rx', (function* (): Proc<void> { const r = yield* ch.recv(); got.push(r.value); })());
    e.run({ untilMs: 0 });
    expect(ch.trySend(7)).toBe(true);
    expect(ch.len).toBe(0);
    e.run({ untilMs: 1 });
    expect(got).toEqual([7]);
  });

  it('buffers up to capacity and fails a non-blocking send when full', () => {
    const e = mk();
    const ch = new Channel<number>(e, 2);
    expect(ch.trySend(1)).toBe(true);
    expect(ch.trySend(2)).toBe(true);
    expect(ch.trySend(3)).toBe(false);
    expect(ch.len).toBe(2);
  });

  it('blocking send waits for a receiver on an unbuffered channel', () => {
    const e = mk();
    const ch = new Channel<string>(e, 0);
    const log: string[] = [];
    e.spawn('tx', (function* (): Proc<void> { yield* ch.send('x'); log.push(`sent@${e.nowMs}`); })());
    e.spawn('rx', (function* (): Proc<void> { yield 5; const r = yield* ch.recv(); log.push(`got ${r.value}@${e.nowMs}`); })());
    e.run({ untilMs: 10 });
    expect(log).toEqual(['got x@5', 'sent@5']);
  });

  it('select picks among ready cases with a seeded choice, and parks otherwise', () => {
    const picks = (seed: string) => {
      const e = mk(seed);
      const a = new Channel<number>(e, 10);
      const b = new Channel<number>(e, 10);
      const out: number[] = [];
      for (let i = 0; i < 20; i++) { a.trySend(1); b.trySend(2); }
      e.spawn('sel', (function* (): Proc<void> {
        for (let i = 0; i < 10; i++) {
          const r = yield* select(e, 'test', [a.recvCase(), b.recvCase()]);
          out.push(r.value as number);
        }
      })());
      e.run({ untilMs: 0 });
      return out.join('');
    };
    expect(picks('1')).toBe(picks('1'));
    const all = new Set(['1', '2', '3', '4', '5'].map(picks));
    expect(all.size).toBeGreaterThan(1);
  });

  it('a parked select is woken by the first case to fire, and the other case forgets it', () => {
    const e = mk();
    const a = new Channel<number>(e, 1);
    const t = new Ticker(e, 10);
    const log: string[] = [];
    e.spawn('loop', (function* (): Proc<void> {
      for (;;) {
        const r = yield* select(e, 'loop', [a.recvCase(), t.c.recvCase()]);
        log.push(`${r.index === 0 ? 'a' : 'tick'}@${e.nowMs}`);
      }
    })());
    e.at(3, () => a.trySend(1));
    e.run({ untilMs: 25 });
    expect(log).toEqual(['a@3', 'tick@10', 'tick@20']);
    expect(a.len).toBe(0);
  });

  it('a ticker drops ticks nobody reads (capacity 1)', () => {
    const e = mk();
    const t = new Ticker(e, 10);
    e.run({ untilMs: 55 });
    expect(t.c.len).toBe(1);
  });

  it('killed processes never run again', () => {
    const e = mk();
    const log: number[] = [];
    const p = e.spawn('p', (function* (): Proc<void> { for (;;) { yield 1; log.push(e.nowMs); } })());
    e.at(3, () => e.kill(p));
    e.run({ untilMs: 10 });
    expect(log).toEqual([1, 2]);
  });

  it('same seed, same draws; forks are independent streams', () => {
    const a = new Rng('7').fork('x');
    const b = new Rng('7').fork('x');
    const c = new Rng('7').fork('y');
    const da = [a.int(0, 1000), a.int(0, 1000)];
    expect([b.int(0, 1000), b.int(0, 1000)]).toEqual(da);
    expect([c.int(0, 1000), c.int(0, 1000)]).not.toEqual(da);
  });
});
