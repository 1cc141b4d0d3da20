// Go's random map iteration (`for uid := range m.podStatuses`, status_manager.go syncBatch) as the
// status manager models it: the keys sorted, then a seeded Fisher-Yates shuffle (the stream's
// draws, or the engine's chooser in a driven run), one draw per step whether or not anyone reads
// the order.
import type { Chooser, Rng } from '../../engine/index.js';
import { sortedIndexOf } from '../../model/sorted.js';

export class MapOrder {
  /** pendingIn's flag per sorted position (all zero between calls). */
  private flags = new Uint8Array(0);
  /** 0 … n-1, for the last n asked (what pendingIn shuffles). */
  private identity: number[] = [];

  constructor(private readonly rng: Rng | undefined, private readonly chooser: Chooser) {}

  /** The draws order() takes for n keys, without the order (when no one reads it). */
  draws(n: number): void {
    if (n < 2) return;
    if (this.rng) {
      this.rng.skipShuffle(n);
      return;
    }
    for (let i = n - 1; i > 0; i--) this.chooser.choose('status/map-order', i + 1);
  }

  /** The sorted keys (a copy) in map order. */
  order<T>(sorted: readonly T[]): T[] {
    if (sorted.length < 2) return sorted.slice();
    if (this.rng) return this.rng.shuffle(sorted);
    const out = sorted.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.chooser.choose('status/map-order', i + 1);
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }

  /** The keys of `pending` (a subset of the sorted keys) in the order order(sorted) gives them,
   *  with its draws: the sorted positions are shuffled (the same draws as shuffling the keys), and
   *  the pending keys are found by a flag per position, not by a set lookup per key (a wake-up's
   *  batch has a few pending pods among all the node's). A pending key not among the sorted ones
   *  is left out, as a walk over the sorted keys leaves it. */
  pendingIn(sorted: readonly string[], pending: ReadonlySet<string>): string[] {
    const n = sorted.length;
    if (this.flags.length < n) this.flags = new Uint8Array(Math.max(n, 2 * this.flags.length));
    const flags = this.flags;
    let want = 0;
    for (const key of pending) {
      const i = sortedIndexOf(sorted, key);
      if (i >= 0 && flags[i] === 0) {
        flags[i] = 1;
        want++;
      }
    }
    if (this.identity.length !== n) this.identity = Array.from({ length: n }, (_, i) => i);
    const out: string[] = [];
    const order = this.order(this.identity);
    for (let k = 0; k < order.length && out.length < want; k++) {
      const i = order[k];
      if (flags[i] === 0) continue;
      flags[i] = 0;
      out.push(sorted[i]);
    }
    return out;
  }
}
