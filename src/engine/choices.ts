// The choice log: a run as a function of (scenario, variant, choice sequence).
//
// Every nondeterministic decision of a run is a draw from a fork of the root Rng. A driven run's
// root is a DrivenRng: each of its draws becomes one ChoiceEntry (label = fork path, kind, arity,
// value), appended to the log in the order the run makes them, and may be overridden by a given
// sequence (a prefix; past its end the seed decides). The plain Rng has no check on its hot path:
// a run that is not driven never meets this file.
//
// Values are normalised so that 0 is the "simplest" decision (docs/choices.md):
//   int     arity hi-lo+1; value v gives lo+v (0 = the minimum: the shortest latency)
//   pick    arity n; value v is the index (0 = the first: select's first ready case)
//   shuffle one entry per Fisher-Yates step i (n-1 .. 1), arity i+1; value v swaps out[i] with
//           out[i-v] (all zeros = the identity: the keys' sorted order)
//   skip    the draws of a shuffle nobody reads (same arities; the value changes nothing)
//   hex     one 32-bit word of a UID or container ID, arity 2^32; the value is XORed into the
//           seed's word, so 0 = the seed's own (unique) UID: zeroing never makes UIDs collide
//   float   arity 0 (continuous); value in [0, 1) (0 = no jitter)
//   tie     arity k: which of the k live events of one instant runs next (0 = insertion order)
import { Rng } from './rng.js';

export type ChoiceKind = 'int' | 'pick' | 'shuffle' | 'skip' | 'hex' | 'float' | 'tie';

export type TieMode = boolean | 'random';

export interface ChoiceEntry {
  /** The fork path of the stream (e.g. 'network/latency'), with ':site' for a labelled pick
   *  (e.g. 'engine/choices:status/sync-select'). */
  label: string;
  kind: ChoiceKind;
  /** How many values the choice point has (0 for a continuous float). */
  arity: number;
  value: number;
}

/** One step of a replayed sequence: a bare value, null (the seed decides this one), or an entry (its label, kind and arity, when
 *  given, are checked against the run's own and a mismatch is counted as a divergence). */
export type ChoiceStep = number | null | { value: number; label?: string; kind?: ChoiceKind; arity?: number };

export interface ChoiceOptions {
  /** Keep every choice the run makes (RunResult.choices). */
  record?: boolean;
  /** Drive the first replay.length choices from this sequence; the seed decides the rest. */
  replay?: readonly ChoiceStep[];
  /** Same-instant ties between events become choice points (kind 'tie'). Off by default: the
   *  default run orders ties by insertion (seq). true: recorded, and left in insertion order
   *  (value 0) unless the replayed sequence says otherwise; 'random': drawn from the seed's fork
   *  'engine/ties' unless replayed. */
  ties?: TieMode;
  /** Decides each choice past the replayed prefix, online (a PCT-style search gives ties by
   *  priority): return a value, or undefined to let the seed decide. Makes the run driven. */
  driver?: ChoiceDriver;
  /** Where the replayed sequence came from (a file name), for the trace header. */
  source?: string;
}

/** A choice point as a driver sees it. */
export interface ChoicePoint {
  index: number;
  label: string;
  kind: ChoiceKind;
  arity: number;
  /** The value the seed gives (0 for a tie in `ties: true` mode). */
  natural: number;
  /** For a tie: what each of the arity events is, in insertion order (a process's name, or
   *  'timer' for a callback). */
  candidates?: string[];
}

export type ChoiceDriver = (point: ChoicePoint) => number | undefined | null;

/** How a run was driven, for the trace header. */
export interface DrivenInfo {
  source?: string;
  /** Length of the replayed sequence, and how many of its steps the run used. */
  replay: number;
  used: number;
  /** Steps whose label, kind or arity differed from the run's choice at that index. */
  divergences: number;
  firstDivergence?: number;
  ties: TieMode;
  /** Choices past the prefix came from a driver (replay them from a recorded log). */
  driver?: true;
  /** How many choices the run made in all. */
  choices: number;
}

/** Clamp a replayed value into the choice point's range (Hypothesis-style: any number is valid). */
function fit(v: number, arity: number): number {
  if (arity === 0) return v >= 0 && v < 1 ? v : 0;
  if (!Number.isFinite(v)) return 0;
  const k = Math.floor(v) % arity;
  return k < 0 ? k + arity : k;
}

export class ChoiceLog {
  readonly entries: ChoiceEntry[] | null;
  private readonly replay: readonly ChoiceStep[];
  private pos = 0;
  private divergences = 0;
  private firstDivergence: number | undefined;
  readonly ties: TieMode;
  private readonly source: string | undefined;
  private readonly driver: ChoiceDriver | undefined;

  constructor(opts: ChoiceOptions) {
    this.entries = opts.record ? [] : null;
    this.replay = opts.replay ?? [];
    this.ties = opts.ties ?? false;
    this.source = opts.source;
    this.driver = opts.driver;
  }

  /** Driven: a non-empty sequence replayed, or ties made choice points. A run that only records
   *  is the plain seeded run, and says nothing of it in its trace. */
  get driven(): boolean {
    return this.replay.length > 0 || this.ties !== false || this.driver !== undefined;
  }

  /** Every draw of a driven run passes here: `natural` is the value the seed gives. */
  take(label: string, kind: ChoiceKind, arity: number, natural: number, candidates?: () => string[]): number {
    const i = this.pos++;
    let v = natural;
    if (i >= this.replay.length) {
      if (this.driver !== undefined) {
        const d = this.driver({ index: i, label, kind, arity, natural, candidates: candidates?.() });
        if (d !== undefined && d !== null) v = fit(d, arity);
      }
    } else {
      const s = this.replay[i];
      if (typeof s === 'number') v = fit(s, arity);
      else if (s !== null) {
        v = fit(s.value, arity);
        if ((s.label !== undefined && s.label !== label) || (s.kind !== undefined && s.kind !== kind) || (s.arity !== undefined && s.arity !== arity)) {
          this.divergences++;
          this.firstDivergence ??= i;
        }
      }
    }
    if (this.entries !== null) this.entries.push({ label, kind, arity, value: v });
    return v;
  }

  get count(): number {
    return this.pos;
  }

  info(): DrivenInfo {
    const d: DrivenInfo = {
      ...(this.source !== undefined ? { source: this.source } : {}),
      replay: this.replay.length,
      used: Math.min(this.pos, this.replay.length),
      divergences: this.divergences,
      ties: this.ties,
      choices: this.pos,
      ...(this.driver !== undefined ? { driver: true as const } : {}),
    };
    if (this.firstDivergence !== undefined) d.firstDivergence = this.firstDivergence;
    return d;
  }
}

const WORD = 0x100000000;

/** An Rng whose every draw goes through a ChoiceLog. Its forks are driven too. */
export class DrivenRng extends Rng {
  constructor(seed: string, name: string, readonly log: ChoiceLog) {
    super(seed, name);
  }

  override fork(name: string): Rng {
    return new DrivenRng(`${this.seed}/${name}`, this.childName(name), this.log);
  }

  override float(): number {
    return this.log.take(this.name, 'float', 0, this.raw());
  }

  override int(lo: number, hi: number): number {
    if (hi <= lo) return lo;
    const n = hi - lo + 1;
    return lo + this.log.take(this.name, 'int', n, Math.floor(this.raw() * n));
  }

  override pick(n: number): number {
    return n <= 1 ? 0 : this.log.take(this.name, 'pick', n, Math.floor(this.raw() * n));
  }

  override choose(site: string, n: number): number {
    return n <= 1 ? 0 : this.log.take(`${this.name}:${site}`, 'pick', n, Math.floor(this.raw() * n));
  }

  override tie(n: number, candidates?: () => string[]): number {
    if (n <= 1) return 0;
    return this.log.take(this.name, 'tie', n, this.log.ties === 'random' ? Math.floor(this.raw() * n) : 0, candidates);
  }

  override shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j0 = Math.floor(this.raw() * (i + 1));
      const j = i - this.log.take(this.name, 'shuffle', i + 1, i - j0);
      const t = out[i]; out[i] = out[j]; out[j] = t;
    }
    return out;
  }

  override skipShuffle(n: number): void {
    for (let i = n - 1; i > 0; i--) this.log.take(this.name, 'skip', i + 1, i - Math.floor(this.raw() * (i + 1)));
  }

  override hex(n: number): string {
    let s = '';
    while (s.length < n) {
      const w = Math.floor(this.raw() * WORD);
      s += ((w ^ this.log.take(this.name, 'hex', WORD, 0)) >>> 0).toString(16).padStart(8, '0');
    }
    return s.slice(0, n);
  }
}

/** The root stream of a run: plain when opts ask for nothing, driven otherwise. */
export function rootRng(seed: string, opts?: ChoiceOptions): { rng: Rng; log: ChoiceLog | null } {
  if (opts === undefined || (!opts.record && opts.replay === undefined && opts.driver === undefined && (opts.ties ?? false) === false)) return { rng: new Rng(seed), log: null };
  const log = new ChoiceLog(opts);
  return { rng: new DrivenRng(seed, '', log), log };
}
