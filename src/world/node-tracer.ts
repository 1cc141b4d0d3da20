// The tracer of one node's actors in a scenario of many nodes (spec.nodes): every record its
// kubelet, runtime and link emit names the node (`node: <name>`, after the event's own fields).
// A scenario of one node uses the world's tracer itself, so its traces stay as they were.
import type { LogLevel, TraceEvent, TraceType, Tracer } from '../model/trace.js';
import type { WorldTracer } from './tracer.js';

export class NodeTracer implements Tracer {
  constructor(private readonly world: WorldTracer, readonly node: string) {}

  get active(): boolean {
    return this.world.active;
  }

  skip(type: TraceType): void {
    this.world.skip(type);
  }

  emit(e: TraceEvent): void {
    if (!this.world.active) this.world.skip(e.type);
    else this.world.emit({ ...e, node: this.node });
  }

  log(level: LogLevel, msg: string, pod?: string, fields?: Record<string, unknown>): void {
    // nothing reads the records: the world's tracer only counts the line (no fields built)
    if (!this.world.active) this.world.log(level, msg, pod, fields);
    else this.world.log(level, msg, pod, { ...fields, node: this.node });
  }
}
