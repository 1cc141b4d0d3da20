// The run's trace: every event stamped with virtual time and a sequence number, in the canonical
// field order of the JSON Lines trace (t, seq, actor, type, pod, then the event's own fields).
import type { LogLevel, TraceEvent, TraceRecord, Tracer } from '../model/trace.js';

export type { TraceRecord };

export class WorldTracer implements Tracer {
  readonly records: TraceRecord[] = [];
  private seq = 0;
  /** Called with every record (invariant checkers, counters). */
  readonly listeners: Array<(r: TraceRecord) => void> = [];

  constructor(private readonly clock: { readonly nowMs: number }, private readonly keep: boolean) {}

  get count(): number {
    return this.seq;
  }

  emit(e: TraceEvent): void {
    const r: TraceRecord = { t: this.clock.nowMs, seq: this.seq++, actor: e.actor, type: e.type };
    if (e.pod !== undefined) r.pod = e.pod;
    for (const k in e) {
      if (k !== 'type' && k !== 'actor' && k !== 'pod') {
        const v = e[k];
        if (v !== undefined) r[k] = v;
      }
    }
    if (this.keep) this.records.push(r);
    const ls = this.listeners;
    for (let i = 0; i < ls.length; i++) ls[i](r);
  }

  log(level: LogLevel, msg: string, pod?: string, fields?: Record<string, unknown>): void {
    this.emit({ type: 'log', actor: 'kubelet', pod, level, msg, ...fields });
  }
}
