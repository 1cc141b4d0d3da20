// The discrete-event kernel: a virtual clock in integer milliseconds, an event queue keyed
// (atMs, seq), and generator processes in the style of SimPy. Nothing here knows Kubernetes.
//
// A process is a generator. It yields when it waits:
//   - a number: sleep that many virtual milliseconds;
//   - a Waitable (channel operation, select, deferred, ...): parked until the waitable wakes it.
// The engine resumes it at the virtual instant the wait ends, with the value the wait produced.
import { DrivenRng } from './choices.js';
import type { Rng } from './rng.js';
import { EventWheel } from './wheel.js';

export interface Waitable<T = unknown> {
  /** Called when a process yields this waitable. It must eventually call engine.wake(proc, value). */
  park(engine: Engine, proc: Process): void;
  /** Type marker only. */
  readonly __result?: T;
}

export type Yieldable = number | Waitable<unknown>;
/** A generator process body. */
export type Proc<T = void> = Generator<Yieldable, T, any>;

/** Thrown into nothing: a run ended by the guard rail on event count. */
export class RunawayError extends Error {
  constructor(readonly events: number, readonly atMs: number) {
    super(`run stopped after ${events} events at virtual ${atMs}ms: the event limit was reached (a runaway loop?); raise it with --max-events`);
  }
}

export class Process {
  alive = true;
  done = false;
  /** Increments on every park and kill; a wake-up carrying an older token is stale. */
  token = 0;
  result: unknown = undefined;
  private joiners: Array<{ proc: Process; token: number }> | null = null;
  constructor(readonly id: number, readonly name: string, readonly gen: Proc<unknown>, readonly group: string) {}

  /** Wait for this process to finish; yields its return value. */
  *join(): Proc<unknown> {
    if (this.done || !this.alive) return this.result;
    return yield {
      park: (_engine: Engine, p: Process) => {
        (this.joiners ??= []).push({ proc: p, token: p.token });
      },
    } as Waitable<unknown>;
  }

  /** @internal */
  finish(engine: Engine): void {
    const js = this.joiners;
    this.joiners = null;
    if (js) for (const j of js) if (j.proc.alive && j.proc.token === j.token) engine.wake(j.proc, this.result);
  }
}

/** A cancellable callback scheduled with engine.at / engine.after. */
export interface Timer {
  cancel(): void;
}

/** The handle of a queued callback: its entry and seq (an entry is recycled once it has run). */
class EntryTimer implements Timer {
  constructor(private readonly q: EventWheel<Process, () => void>, private readonly i: number, private readonly seq: number) {}
  cancel(): void {
    if (this.q.seqOf(this.i) === this.seq) this.q.fn[this.i] = null;
  }
}

/** The seeded choice points of a run (Go's select between ready cases, map iteration order, ties).
 *  The default draws from an RNG stream; exploration can substitute its own. */
export interface Chooser {
  choose(label: string, n: number): number;
}

export interface RunOptions {
  untilMs: number;
  maxEvents?: number;
  /** Called after every event (invariant checkers). */
  afterEvent?: () => void;
  /** Called when every event of the instant `atMs` has run, before the clock moves on. */
  endOfInstant?: (atMs: number) => void;
}

export type RunEnd = 'until' | 'idle' | 'stopped';

export class Engine {
  nowMs = 0;
  events = 0;
  private procCounter = 0;
  private readonly queue = new EventWheel<Process, () => void>();
  private stopRequested = false;
  readonly chooser: Chooser;
  /** With a driven Rng whose log asks for ties: the stream that orders same-instant events. */
  private readonly tieRng: Rng | null;
  private readonly tieBuf: number[] = [];

  constructor(readonly rng: Rng, chooser?: Chooser) {
    const choices = rng.fork('engine/choices');
    this.chooser = chooser ?? { choose: (label, n) => choices.choose(label, n) };
    this.tieRng = rng instanceof DrivenRng && rng.log.ties !== false ? rng.fork('engine/ties') : null;
  }

  /** Start a process now (it first runs after the events already scheduled for this instant). */
  spawn(name: string, body: Proc<unknown>, group = ''): Process {
    const p = new Process(++this.procCounter, name, body, group);
    this.pushProc(this.nowMs, p, undefined);
    return p;
  }

  /** Resume a parked process now, with a value. Stale or dead processes are ignored. */
  wake(proc: Process, value: unknown): void {
    if (!proc.alive) return;
    this.pushProc(this.nowMs, proc, value);
  }

  /** Kill a process: it never runs again, and every waitable it was parked on forgets it. */
  kill(proc: Process): void {
    if (!proc.alive) return;
    proc.alive = false;
    proc.token++;
  }

  /** Kill every live process of a group (for example everything of one kubelet incarnation). */
  killGroup(group: string, procs: Iterable<Process>): void {
    for (const p of procs) if (p.group === group) this.kill(p);
  }

  /** Run fn at virtual time atMs (an integer; not earlier than now). */
  at(atMs: number, fn: () => void): Timer {
    const q = this.queue;
    const i = this.pushFn(atMs, fn);
    return new EntryTimer(q, i, q.seqOf(i));
  }

  after(delayMs: number, fn: () => void): Timer {
    return this.at(this.nowMs + delayMs, fn);
  }

  /** The callback path without a handle: run fn at atMs (clamped to now), allocating nothing. */
  call(atMs: number, fn: () => void): void {
    this.pushFn(atMs, fn);
  }

  /** call(), delayMs from now. */
  callAfter(delayMs: number, fn: () => void): void {
    this.pushFn(this.nowMs + delayMs, fn);
  }

  stop(): void {
    this.stopRequested = true;
  }

  /** Queued entries, including cancelled timers and stale wake-ups not yet reached. */
  get pending(): number {
    return this.queue.size;
  }

  private pushFn(atMs: number, fn: () => void): number {
    const t = atMs > this.nowMs ? atMs : this.nowMs;
    if (t !== Math.floor(t)) throw new Error(`engine: an event at ${atMs}ms: event times are integer milliseconds`);
    const q = this.queue;
    const i = q.push(t);
    q.fn[i] = fn;
    return i;
  }

  private pushProc(atMs: number, p: Process, value: unknown): void {
    const q = this.queue;
    const i = q.push(atMs);
    q.proc[i] = p;
    q.token[i] = p.token;
    if (value !== undefined) q.value[i] = value; // a released entry's value is undefined already
  }

  run(opts: RunOptions): RunEnd {
    const maxEvents = opts.maxEvents ?? Number.POSITIVE_INFINITY;
    const { afterEvent, endOfInstant } = opts;
    const untilMs = opts.untilMs;
    const q = this.queue;
    const ties = this.tieRng !== null;
    this.stopRequested = false;
    for (;;) {
      if (this.stopRequested) return 'stopped';
      let t = q.peekTime();
      if (t < 0 || t > untilMs) {
        if (endOfInstant) endOfInstant(this.nowMs);
        if (t < 0) return 'idle';
        this.nowMs = untilMs;
        return 'until';
      }
      if (t !== this.nowMs) {
        if (endOfInstant) {
          endOfInstant(this.nowMs);
          // endOfInstant may schedule nothing earlier than now; whatever is first runs next.
          this.nowMs = t;
          t = q.peekTime();
        } else this.nowMs = t;
      }
      q.advance(t);
      const i = ties ? this.popTie() : q.pop();
      const fn = q.fn[i];
      if (fn !== null) {
        q.fn[i] = null;
        q.release(i);
        if (this.events >= maxEvents) throw new RunawayError(this.events, this.nowMs);
        this.events++;
        fn();
      } else {
        const p = q.proc[i];
        const value = q.value[i];
        const token = q.token[i];
        q.proc[i] = null;
        if (value !== undefined) q.value[i] = undefined;
        q.release(i);
        if (p === null || !p.alive || p.token !== token) continue; // a cancelled timer, a stale wake-up
        if (this.events >= maxEvents) throw new RunawayError(this.events, this.nowMs);
        this.events++;
        this.step(p, value);
      }
      if (afterEvent) afterEvent();
    }
  }

  private live(i: number): boolean {
    const q = this.queue;
    if (q.fn[i] !== null) return true;
    const p = q.proc[i];
    return p !== null && p.alive && p.token === q.token[i];
  }

  /** Ties as choice points: which of this instant's live events runs next (0 = the first queued). */
  private popTie(): number {
    const q = this.queue;
    const buf = this.tieBuf;
    q.current(buf);
    if (buf.length < 2) return q.pop();
    let n = 0;
    for (const i of buf) if (this.live(i)) buf[n++] = i;
    if (n < 2) return q.pop();
    const i = buf[this.tieRng!.tie(n, () => buf.slice(0, n).map((k) => q.proc[k]?.name ?? 'timer'))];
    q.unlink(i);
    return i;
  }

  private step(p: Process, value: unknown): void {
    const r = p.gen.next(value);
    if (r.done) {
      p.done = true;
      p.alive = false;
      p.result = r.value;
      p.finish(this);
      return;
    }
    const y = r.value;
    p.token++;
    if (typeof y === 'number') {
      if (!(y >= 0)) throw new Error(`process ${p.name} slept for ${y}ms`);
      this.pushProc(this.nowMs + Math.floor(y), p, undefined);
    } else {
      y.park(this, p);
    }
  }
}

/** Sleep for ms virtual milliseconds (also expressible as a bare `yield ms`). */
export function* sleep(ms: number): Proc<void> {
  yield ms;
}

/** A one-shot value that processes can wait on (a Go channel closed once, or a future). */
export class Deferred<T> implements Waitable<T> {
  private settled = false;
  private value: T | undefined;
  private waiters: Array<{ proc: Process; token: number }> = [];
  declare readonly __result?: T;

  get isSettled(): boolean {
    return this.settled;
  }

  park(engine: Engine, proc: Process): void {
    if (this.settled) engine.wake(proc, this.value);
    else this.waiters.push({ proc, token: proc.token });
  }

  resolve(engine: Engine, value: T): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.value = value;
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) if (w.proc.alive && w.proc.token === w.token) engine.wake(w.proc, value);
    return true;
  }

  *wait(): Proc<T> {
    return (yield this) as T;
  }
}
