// The discrete-event kernel: a virtual clock in integer milliseconds, an event queue keyed
// (atMs, seq), and generator processes in the style of SimPy. Nothing here knows Kubernetes.
//
// A process is a generator. It yields when it waits:
//   - a number: sleep that many virtual milliseconds;
//   - a Waitable (channel operation, select, deferred, ...): parked until the waitable wakes it.
// The engine resumes it at the virtual instant the wait ends, with the value the wait produced.
import { EventQueue } from './queue.js';
import { Rng } from './rng.js';

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

/** A queued event: a process to resume, or a callback (which is its own Timer). */
class Entry implements Timer {
  constructor(
    readonly atMs: number,
    readonly seq: number,
    readonly proc: Process | null,
    readonly token: number,
    readonly value: unknown,
    public fn: (() => void) | null,
  ) {}

  cancel(): void {
    this.fn = null;
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
  private seqCounter = 0;
  private procCounter = 0;
  private readonly queue = new EventQueue<Entry>();
  private stopRequested = false;
  readonly chooser: Chooser;

  constructor(readonly rng: Rng, chooser?: Chooser) {
    const choices = rng.fork('engine/choices');
    this.chooser = chooser ?? { choose: (_label, n) => choices.pick(n) };
  }

  /** Start a process now (it first runs after the events already scheduled for this instant). */
  spawn(name: string, body: Proc<unknown>, group = ''): Process {
    const p = new Process(++this.procCounter, name, body, group);
    this.push(this.nowMs, p, p.token, undefined, null);
    return p;
  }

  /** Resume a parked process now, with a value. Stale or dead processes are ignored. */
  wake(proc: Process, value: unknown): void {
    if (!proc.alive) return;
    this.push(this.nowMs, proc, proc.token, value, null);
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

  /** Run fn at virtual time atMs (not earlier than now). */
  at(atMs: number, fn: () => void): Timer {
    return this.push(Math.max(atMs, this.nowMs), null, 0, undefined, fn);
  }

  after(delayMs: number, fn: () => void): Timer {
    return this.at(this.nowMs + delayMs, fn);
  }

  stop(): void {
    this.stopRequested = true;
  }

  get pending(): number {
    return this.queue.size;
  }

  private push(atMs: number, proc: Process | null, token: number, value: unknown, fn: (() => void) | null): Entry {
    const e = new Entry(atMs, this.seqCounter++, proc, token, value, fn);
    this.queue.push(e);
    return e;
  }

  run(opts: RunOptions): RunEnd {
    const maxEvents = opts.maxEvents ?? Number.POSITIVE_INFINITY;
    const { afterEvent, endOfInstant } = opts;
    const q = this.queue;
    this.stopRequested = false;
    for (;;) {
      if (this.stopRequested) return 'stopped';
      const next = q.peek();
      if (next === undefined || next.atMs > opts.untilMs) {
        if (endOfInstant) endOfInstant(this.nowMs);
        if (next === undefined) return 'idle';
        this.nowMs = opts.untilMs;
        return 'until';
      }
      if (next.atMs !== this.nowMs) {
        if (endOfInstant) endOfInstant(this.nowMs);
        // endOfInstant may schedule nothing earlier than now, so `next` is still the head.
        this.nowMs = next.atMs;
      }
      const e = q.pop()!;
      if (e.fn !== null) {
        if (this.events >= maxEvents) throw new RunawayError(this.events, this.nowMs);
        this.events++;
        e.fn();
      } else if (e.proc !== null) {
        const p = e.proc;
        if (!p.alive || p.token !== e.token) continue;
        if (this.events >= maxEvents) throw new RunawayError(this.events, this.nowMs);
        this.events++;
        this.step(p, e.value);
      } else {
        continue; // a cancelled timer
      }
      if (afterEvent) afterEvent();
    }
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
      this.push(this.nowMs + Math.floor(y), p, p.token, undefined, null);
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
