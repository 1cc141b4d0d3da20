// The run's trace: every event stamped with virtual time and a sequence number, in the canonical
// field order of the JSON Lines trace (t, seq, actor, type, pod, then the event's own fields).
import type { LogLevel, TraceEvent, TraceRecord, TraceType, Tracer } from '../model/trace.js';

export type { TraceRecord };

export class WorldTracer implements Tracer {
  readonly records: TraceRecord[] = [];
  private seq = 0;
  /** Called with every record (invariant checkers, counters). */
  readonly listeners: Array<(r: TraceRecord) => void> = [];
  /** Per-type counters (countTypes), or null. */
  private typeCounts: Map<string, number> | null = null;

  constructor(private readonly clock: { readonly nowMs: number }, private readonly keep: boolean) {}

  get count(): number {
    return this.seq;
  }

  /** Does anything read the records: are they kept, or listened to? When not, an event is only
   *  counted (its sequence number is still taken), and callers may skip rendering costly fields. */
  get active(): boolean {
    return this.keep || this.listeners.length > 0;
  }

  /** Count the events of these types from now on (what a benchmark reports, without records). */
  countTypes(types: readonly string[]): ReadonlyMap<string, number> {
    const counts = (this.typeCounts ??= new Map());
    for (const t of types) if (!counts.has(t)) counts.set(t, 0);
    return counts;
  }

  /** emit's work for an event when nothing reads the records (`active` false): count it. */
  skip(type: TraceType): void {
    const counts = this.typeCounts;
    if (counts !== null) {
      const c = counts.get(type);
      if (c !== undefined) counts.set(type, c + 1);
    }
    this.seq++;
  }

  emit(e: TraceEvent): void {
    if (!this.keep && this.listeners.length === 0) {
      this.skip(e.type);
      return;
    }
    const counts = this.typeCounts;
    if (counts !== null) {
      const c = counts.get(e.type);
      if (c !== undefined) counts.set(e.type, c + 1);
    }
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
    if (!this.keep && this.listeners.length === 0 && this.typeCounts?.has('log') !== true) {
      this.seq++;
      return;
    }
    this.emit({ type: 'log', actor: 'kubelet', pod, level, msg, ...fields });
  }
}
