// map-order.ts: the pending keys in map order, found by flags on shuffled positions, are exactly
// the pending keys of the full shuffled order, with the same draws (the stream goes on the same).
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/engine/index.js';
import { MapOrder } from '../../../src/kubelet/status/map-order.js';

const chooser = { choose: () => 0 };
const keys = (n: number) => Array.from({ length: n }, (_, i) => `uid-${String(i).padStart(4, '0')}`);

describe('MapOrder.pendingIn', () => {
  for (const [n, k] of [[2, 2], [10, 3], [100, 1], [100, 60], [300, 300]] as const) {
    it(`${k} pending of ${n}: the full order filtered, and the same draws`, () => {
      const sorted = keys(n);
      const pick = new Rng(`pick-${n}-${k}`);
      const pending = new Set<string>();
      while (pending.size < k) pending.add(sorted[pick.pick(n)]);
      const a = new Rng('s');
      const b = new Rng('s');
      const full = new MapOrder(a, chooser).order(sorted).filter((u) => pending.has(u));
      const order = new MapOrder(b, chooser);
      expect(order.pendingIn(sorted, pending)).toEqual(full);
      expect(b.float()).toBe(a.float());
      // the flags are left clear: a second batch over the same keys is as right
      const again = new MapOrder(a, chooser).order(sorted).filter((u) => pending.has(u));
      expect(order.pendingIn(sorted, pending)).toEqual(again);
    });
  }

  it('leaves out a pending key that is not among the sorted keys', () => {
    const sorted = keys(5);
    const got = new MapOrder(new Rng('x'), chooser).pendingIn(sorted, new Set(['uid-0001', 'nope', 'uid-0003']));
    expect([...got].sort()).toEqual(['uid-0001', 'uid-0003']);
  });

  it('draws through the chooser when there is no stream, as order() does', () => {
    const seen: number[] = [];
    const ch = { choose: (_: string, n: number) => (seen.push(n), n - 1) };
    const sorted = keys(4);
    const full = new MapOrder(undefined, { choose: (_: string, n: number) => n - 1 }).order(sorted);
    expect(new MapOrder(undefined, ch).pendingIn(sorted, new Set(sorted))).toEqual(full);
    expect(seen).toEqual([4, 3, 2]);
  });
});
