// Go channels with Go's semantics, because the classic status manager's behaviour depends on them:
//  - a send to a channel on which a receiver is parked (a process blocked in select counts) hands the
//    value straight to it and leaves the buffer empty;
//  - otherwise the value goes into the buffer if there is room; a non-blocking send to a full buffer fails;
//  - len(ch) counts buffered values only;
//  - select over several ready cases is a seeded choice (the engine's Chooser), as Go picks at random.
import type { Engine, Proc, Process, Waitable } from './engine.js';

/** A parked receiver or sender: a plain process, or one case of a select. */
interface Waiter<T> {
  proc: Process;
  token: number;
  sel: SelectState | null;
  caseIndex: number;
  value: T | undefined; // senders only
}

interface SelectState {
  done: boolean;
  /** Every waiter this select registered, so that the losers can be removed at once. */
  regs: Array<{ ch: Channel<unknown>; w: Waiter<unknown>; send: boolean }>;
}

function live<T>(w: Waiter<T>): boolean {
  return w.proc.alive && w.proc.token === w.token && (w.sel === null || !w.sel.done);
}

export interface RecvResult<T> {
  value: T;
  ok: boolean;
}

export class Channel<T> {
  private buf: T[] = [];
  private head = 0;
  private recvq: Waiter<T>[] = [];
  private sendq: Waiter<T>[] = [];
  private closed = false;
  /** What a blocking receive yields (the same for every receive: it only registers the process). */
  private readonly recvWaitable: Waitable<RecvResult<T>> = {
    park: (_e: Engine, proc: Process) => {
      this.recvq.push({ proc, token: proc.token, sel: null, caseIndex: 0, value: undefined });
    },
  };

  constructor(private readonly engine: Engine, readonly cap: number, readonly name = 'chan') {}

  /** len(ch): buffered values only. */
  get len(): number {
    return this.buf.length - this.head;
  }

  private shift(): T {
    const v = this.buf[this.head];
    this.buf[this.head] = undefined as T;
    this.head++;
    if (this.head > 64 && this.head * 2 > this.buf.length) {
      this.buf = this.buf.slice(this.head);
      this.head = 0;
    }
    return v;
  }

  private firstLive(q: Waiter<T>[]): Waiter<T> | undefined {
    while (q.length > 0) {
      const w = q.shift()!;
      if (live(w)) return w;
    }
    return undefined;
  }

  private complete(w: Waiter<T>, value: unknown): void {
    if (w.sel !== null) {
      w.sel.done = true;
      for (const r of w.sel.regs) {
        if (r.w === (w as Waiter<unknown>)) continue;
        const q = r.send ? r.ch.sendq : r.ch.recvq;
        const i = q.indexOf(r.w as never);
        if (i >= 0) q.splice(i, 1);
      }
      this.engine.wake(w.proc, { index: w.caseIndex, value, ok: true });
    } else {
      this.engine.wake(w.proc, value);
    }
  }

  /** Non-blocking send (Go's `select { case ch <- v: default: }`). */
  trySend(v: T): boolean {
    if (this.closed) throw new Error(`send on closed channel ${this.name}`);
    const r = this.firstLive(this.recvq);
    if (r !== undefined) {
      this.complete(r, { value: v, ok: true });
      return true;
    }
    if (this.len < this.cap) {
      this.buf.push(v);
      return true;
    }
    return false;
  }

  /** Non-blocking receive: a value if one is ready. */
  tryRecv(): RecvResult<T> | undefined {
    if (this.len > 0) {
      const v = this.shift();
      const s = this.firstLive(this.sendq);
      if (s !== undefined) {
        this.buf.push(s.value as T);
        this.complete(s, undefined);
      }
      return { value: v, ok: true };
    }
    const s = this.firstLive(this.sendq);
    if (s !== undefined) {
      this.complete(s, undefined);
      return { value: s.value as T, ok: true };
    }
    if (this.closed) return { value: undefined as T, ok: false };
    return undefined;
  }

  /** Ready to receive without blocking? */
  canRecv(): boolean {
    if (this.len > 0 || this.closed) return true;
    return this.sendq.some(live);
  }

  canSend(): boolean {
    return this.recvq.some(live) || this.len < this.cap;
  }

  close(): void {
    this.closed = true;
    let r: Waiter<T> | undefined;
    while ((r = this.firstLive(this.recvq)) !== undefined) this.complete(r, { value: undefined, ok: false });
  }

  /** Blocking send: `ch <- v`. */
  *send(v: T): Proc<void> {
    if (this.trySend(v)) return;
    yield {
      park: (_e: Engine, proc: Process) => {
        this.sendq.push({ proc, token: proc.token, sel: null, caseIndex: 0, value: v });
      },
    } as Waitable<void>;
  }

  /** Blocking receive: `v, ok := <-ch`. */
  *recv(): Proc<RecvResult<T>> {
    const got = this.tryRecv();
    if (got !== undefined) return got;
    return (yield this.recvWaitable) as RecvResult<T>;
  }

  /** A receive case for select. */
  recvCase(): SelectCase {
    return { ch: this as Channel<unknown>, send: false, value: undefined };
  }

  sendCase(v: T): SelectCase {
    return { ch: this as Channel<unknown>, send: true, value: v };
  }

  /** @internal used by select */
  static register(c: SelectCase, w: Waiter<unknown>): void {
    (c.send ? c.ch.sendq : c.ch.recvq).push(w);
  }
}

export interface SelectCase {
  ch: Channel<unknown>;
  send: boolean;
  value: unknown;
}

export interface SelectResult {
  /** Index of the chosen case, or -1 for default. */
  index: number;
  /** For a receive case: the value received. */
  value: unknown;
  ok: boolean;
}

/**
 * Go's select. When several cases are ready, one is chosen through the engine's Chooser (seeded),
 * labelled so that exploration can vary it. With `hasDefault`, returns index -1 when none is ready.
 */
export function* select(engine: Engine, label: string, cases: SelectCase[], hasDefault = false): Proc<SelectResult> {
  let ready: number[] | null = null;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i];
    if (c.send ? c.ch.canSend() : c.ch.canRecv()) (ready ??= []).push(i);
  }
  if (ready !== null) {
    const i = ready.length === 1 ? ready[0] : ready[engine.chooser.choose(label, ready.length)];
    const c = cases[i];
    if (c.send) {
      c.ch.trySend(c.value);
      return { index: i, value: undefined, ok: true };
    }
    const r = c.ch.tryRecv()!;
    return { index: i, value: r.value, ok: r.ok };
  }
  if (hasDefault) return { index: -1, value: undefined, ok: false };
  const res = (yield {
    park: (_e: Engine, proc: Process) => {
      const sel: SelectState = { done: false, regs: [] };
      for (let i = 0; i < cases.length; i++) {
        const c = cases[i];
        const w: Waiter<unknown> = { proc, token: proc.token, sel, caseIndex: i, value: c.value };
        Channel.register(c, w);
        sel.regs.push({ ch: c.ch, w, send: c.send });
      }
    },
  } as Waitable<unknown>) as { index: number; value: unknown; ok: boolean };
  // A receive case is completed with {value, ok}; a send case with undefined.
  const inner = res.value as { value: unknown; ok: boolean } | undefined;
  return { index: res.index, value: inner?.value, ok: inner?.ok ?? true };
}

/** Go's time.Ticker: a channel of capacity 1 that receives a tick every periodMs, dropping ticks
 *  nobody has read. The first tick comes one period after creation. */
export class Ticker {
  readonly c: Channel<number>;
  private stopped = false;
  constructor(private readonly engine: Engine, readonly periodMs: number, name = 'ticker') {
    this.c = new Channel<number>(engine, 1, name);
    engine.callAfter(periodMs, this.tick);
  }
  /** One tick, and the next one scheduled (the engine's callback path: nothing allocated). */
  private readonly tick = (): void => {
    if (this.stopped) return;
    this.c.trySend(this.engine.nowMs);
    this.engine.callAfter(this.periodMs, this.tick);
  };
  stop(): void {
    this.stopped = true;
  }
}
