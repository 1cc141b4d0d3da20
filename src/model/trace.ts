// The one union of trace events. Types are dotted; see scenario-format.md "The trace".
// Every event has a type and an actor; pod events carry `pod` ("ns/name") and usually `uid`.
// Further fields are the event's own. Field order in the JSON is the order they are written in.

export type Actor = 'kubelet' | 'apiserver' | 'user' | 'controller' | 'timeline' | 'runtime' | 'invariant' | 'network';

export type TraceType =
  | 'status.set' | 'status.same' | 'status.reject' | 'status.drop' | 'status.sync' | 'status.skip'
  | 'status.recreated' | 'status.delete' | 'status.orphan'
  | 'api.request' | 'api.get' | 'api.patch' | 'api.delete' | 'api.create' | 'api.token' | 'api.event' | 'api.error' | 'api.watch' | 'api.retry'
  | 'runtime.start' | 'runtime.exit' | 'runtime.kill' | 'runtime.backoff' | 'runtime.remove' | 'runtime.startFailed' | 'runtime.forget'
  | 'pleg.event' | 'worker.sync' | 'worker.terminating' | 'worker.terminated' | 'probe.result' | 'mirror.create' | 'mirror.delete'
  | 'kubelet.start' | 'kubelet.stop' | 'kubelet.evict' | 'node.shutdown'
  | 'node.lease' | 'node.status' | 'node.taint' | 'node.label' | 'node.deleted' | 'controller.mark-not-ready' | 'controller.evict' | 'controller.pod-gc'
  | 'step' | 'log' | 'fault.begin' | 'fault.end' | 'invariant.violation';

export interface TraceEvent {
  type: TraceType;
  actor: Actor;
  pod?: string;
  [field: string]: unknown;
}

/** Log levels, as klog's: error, warning, info, and V(n) verbosity. */
export type LogLevel = 'error' | 'warning' | 'info' | 'V1' | 'V2' | 'V3' | 'V4' | 'V5';

/** A trace event as recorded: stamped with virtual time and a sequence number, fields in the
 *  canonical order of the JSON Lines trace (t, seq, actor, type, pod, then the event's own). */
export interface TraceRecord {
  t: number;
  seq: number;
  actor: string;
  type: string;
  pod?: string;
  [field: string]: unknown;
}

export interface Tracer {
  /** False when nothing reads the records (see WorldTracer.active): a caller may then skip
   *  rendering a costly field. Absent means true. */
  readonly active?: boolean;
  emit(e: TraceEvent): void;
  /** When `active` is false: what emit of an event of this type does then (count it: take its
   *  sequence number, keep the type counters), without the caller building the event. Optional;
   *  see emitsNothing. */
  skip?(type: TraceType): void;
  /** A kubelet log line (the `log` assertion reads these). */
  log(level: LogLevel, msg: string, pod?: string, fields?: Record<string, unknown>): void;
}

/** Whether an event for `tracer` may be skipped (tracer.skip) rather than built and emitted:
 *  nothing reads its records. */
export function emitsNothing(tracer: Tracer): boolean {
  return tracer.active === false && tracer.skip !== undefined;
}

/** What pairs a fault.end with its fault.begin: the fault's kind, a `fail` rule's id, and for a
 *  stopFails its pod and container (two of them on two containers are two faults). */
export function faultKey(r: { fault?: unknown; id?: unknown; pod?: unknown; container?: unknown }): string {
  const one = r.container === undefined ? '' : `#${String(r.pod)}#${String(r.container)}`;
  return `${String(r.fault)}#${r.id === undefined ? '' : String(r.id)}${one}`;
}
