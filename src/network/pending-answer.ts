// A request's answer as the process that sent it waits for it: settled once (the answer, or null
// when the client gave up), and the waiting process woken with it — unless that process has died
// or moved on (its token changed) since it parked. The waitable half of both kinds of call on the
// wire: Call (network-client.ts) and LoadedCall (loaded-call.ts, an apiserver under load).
import type { Engine, Process, Waitable } from '../engine/engine.js';
import type { ApiResult } from '../model/client.js';

export abstract class PendingAnswer implements Waitable<unknown> {
  private settled = false;
  private value: unknown = undefined;
  private proc: Process | null = null;
  private token = 0;

  constructor(private readonly wakeEngine: Engine) {}

  park(engine: Engine, proc: Process): void {
    if (this.settled) engine.wake(proc, this.value);
    else {
      this.proc = proc;
      this.token = proc.token;
    }
  }

  /** The answer (null: given up); only the first one counts. */
  protected resolve(value: ApiResult<unknown> | null): void {
    if (this.settled) return;
    this.settled = true;
    this.value = value;
    const p = this.proc;
    this.proc = null;
    if (p !== null && p.alive && p.token === this.token) this.wakeEngine.wake(p, value);
  }
}
