// A typed trace sink. The engine stamps each record with the virtual time and a sequence number;
// what a record holds is the caller's (the kubelet model defines its union of event types).

export interface Stamped {
  t: number;
  seq: number;
}

export interface TraceSink<E> {
  emit(event: E): void;
}

/** Keeps every record in memory, in emission order, stamped with (t, seq). */
export class TraceBuffer<E extends object> implements TraceSink<E> {
  readonly records: Array<Stamped & E> = [];
  private seq = 0;
  private listeners: Array<(r: Stamped & E) => void> = [];
  constructor(private readonly clock: { readonly nowMs: number }, private readonly keep = true) {}

  emit(event: E): void {
    const r = Object.assign({ t: this.clock.nowMs, seq: this.seq++ }, event) as Stamped & E;
    if (this.keep) this.records.push(r);
    for (const l of this.listeners) l(r);
  }

  get count(): number {
    return this.seq;
  }

  subscribe(l: (r: Stamped & E) => void): void {
    this.listeners.push(l);
  }
}
