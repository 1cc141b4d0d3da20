// The one home of randomness in kss. Every component takes a named fork, so a draw added in one
// component never shifts another component's stream.
//
// The generator is Johannes Baagøe's Alea, ported from seedrandom 3.0.5 (lib/alea.js, `Alea` and
// `Mash`) into this class without closures: for the same seed string it yields exactly the stream
// `seedrandom.alea(seed)` yields (a test holds the two side by side), so every UID and every draw of
// every golden trace is unchanged, at a lower cost per draw.
//
// A run can also be driven: `choices.ts` subclasses Rng to record every draw as a labelled choice
// and to replay a given sequence. The class here has no such check on its hot path.

const TWO_M32 = 2.3283064365386963e-10; // 2^-32

/** Alea's seeding hash (seedrandom's `Mash`): its state `n` carries over from call to call. */
class Mash {
  private n = 0xefc8249d;
  // Mash (seedrandom lib/alea.js)
  mash(data: string): number {
    let n = this.n;
    for (let i = 0; i < data.length; i++) {
      n += data.charCodeAt(i);
      let h = 0.02519603282416938 * n;
      n = h >>> 0;
      h -= n;
      h *= n;
      n = h >>> 0;
      h -= n;
      n += h * 0x100000000; // 2^32
    }
    this.n = n;
    return (n >>> 0) * TWO_M32;
  }
}

export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private c: number;

  /** seed: the stream's whole seed string; name: the fork path below the root ('' for the root,
   *  e.g. 'network/latency'), which labels the choices of a driven run. */
  constructor(readonly seed: string, readonly name = '') {
    // Alea (seedrandom lib/alea.js): the seeding algorithm from Baagøe.
    const m = new Mash();
    let s0 = m.mash(' ');
    let s1 = m.mash(' ');
    let s2 = m.mash(' ');
    s0 -= m.mash(seed);
    if (s0 < 0) s0 += 1;
    s1 -= m.mash(seed);
    if (s1 < 0) s1 += 1;
    s2 -= m.mash(seed);
    if (s2 < 0) s2 += 1;
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.c = 1;
  }

  /** The next raw draw in [0, 1): Alea's `next`. */
  protected raw(): number {
    const t = 2091639 * this.s0 + this.c * TWO_M32;
    this.s0 = this.s1;
    this.s1 = this.s2;
    return (this.s2 = t - (this.c = t | 0));
  }

  /** A deterministic, independent stream named after the component that uses it. */
  fork(name: string): Rng {
    return new Rng(`${this.seed}/${name}`, this.childName(name));
  }

  protected childName(name: string): string {
    return this.name === '' ? name : `${this.name}/${name}`;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.raw();
  }

  /** Uniform integer in [lo, hi], inclusive. */
  int(lo: number, hi: number): number {
    if (hi <= lo) return lo;
    return lo + Math.floor(this.raw() * (hi - lo + 1));
  }

  /** Uniform index into a list of n items. */
  pick(n: number): number {
    return n <= 1 ? 0 : Math.floor(this.raw() * n);
  }

  /** A labelled pick (the engine's Chooser: select among ready cases, ...). The label names the
   *  choice point in a driven run's log; the draw is pick's. */
  choose(_site: string, n: number): number {
    return this.pick(n);
  }

  /** Which of n same-instant events runs next (only when the engine's ties are choice points);
   *  candidates names them, for a driver that wants to know. */
  tie(n: number, _candidates?: () => string[]): number {
    return this.pick(n);
  }

  /** A deterministic permutation (Fisher-Yates) of a copy of items: Go's random map order. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.raw() * (i + 1));
      const t = out[i]; out[i] = out[j]; out[j] = t;
    }
    return out;
  }

  /** The draws shuffle takes for n items, without the permutation. */
  skipShuffle(n: number): void {
    for (let i = n - 1; i > 0; i--) this.raw();
  }

  /** n hex digits drawn from the stream, 8 per draw (for UIDs). */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += Math.floor(this.raw() * 0x100000000).toString(16).padStart(8, '0');
    return s.slice(0, n);
  }
}
