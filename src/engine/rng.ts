// The one home of randomness in kss. Every component takes a named fork, so a draw added in one
// component never shifts another component's stream.
import seedrandom from 'seedrandom';

export class Rng {
  private readonly next: () => number;
  constructor(readonly seed: string) {
    // alea: fast, good enough for simulation, and fully determined by the seed string.
    this.next = seedrandom.alea(seed);
  }
  /** A deterministic, independent stream named after the component that uses it. */
  fork(name: string): Rng {
    return new Rng(`${this.seed}/${name}`);
  }
  /** Uniform float in [0, 1). */
  float(): number {
    return this.next();
  }
  /** Uniform integer in [lo, hi], inclusive. */
  int(lo: number, hi: number): number {
    if (hi <= lo) return lo;
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** Uniform index into a list of n items. */
  pick(n: number): number {
    return n <= 1 ? 0 : Math.floor(this.next() * n);
  }
  /** A deterministic permutation (Fisher-Yates) of a copy of items: Go's random map order. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = out[i]; out[i] = out[j]; out[j] = t;
    }
    return out;
  }
  /** The draws shuffle takes for n items, without the permutation. */
  skipShuffle(n: number): void {
    for (let i = n - 1; i > 0; i--) this.next();
  }
  /** 8 hex digits drawn from the stream (for UIDs). */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += Math.floor(this.next() * 0x100000000).toString(16).padStart(8, '0');
    return s.slice(0, n);
  }
}
