// The cluster-scale expectations: pod startup latency (pod-startup.ts) and the peak request rate
// the apiserver sees, so a QPS storm can be pinned in CI.
import type { Assertion, Bound } from '../scenario/types.js';
import { formatDuration } from '../model/time.js';
import { podStartup, type LatencySummary } from './pod-startup.js';
import type { TraceRecord } from './tracer.js';
import type { World } from './world.js';

type Verdict = { ok: boolean; message: string };

function ms(v: number | null): string {
  return v === null ? 'none' : formatDuration(v);
}

function within(b: Bound, v: number | null): boolean {
  if (v === null) return false;
  return (b.minMs === undefined || v >= b.minMs) && (b.maxMs === undefined || v <= b.maxMs);
}

function boundText(b: Bound): string {
  if (b.minMs !== undefined && b.maxMs !== undefined) return `in [${ms(b.minMs)}, ${ms(b.maxMs)}]`;
  return b.maxMs !== undefined ? `<= ${ms(b.maxMs)}` : `>= ${ms(b.minMs ?? 0)}`;
}

export function evaluatePodStartup(w: World, a: Assertion & { kind: 'podStartup' }): Verdict {
  const s = podStartup(w.apiserver.history);
  const l: LatencySummary = a.of === 'ready' ? s.ready : s.running;
  const got = `${l.count}/${s.pods} pods ${a.of}, p50 ${ms(l.p50Ms)}, p99 ${ms(l.p99Ms)}, max ${ms(l.maxMs)}`;
  if (a.count !== undefined && l.count !== a.count) return { ok: false, message: `pod startup (${a.of}): expected ${a.count} pods, got ${got}` };
  const checks: Array<[string, Bound | undefined, number | null]> = [
    ['p50', a.p50, l.p50Ms],
    ['p99', a.p99, l.p99Ms],
    ['max', a.max, l.maxMs],
  ];
  for (const [name, b, v] of checks) {
    if (b !== undefined && !within(b, v)) return { ok: false, message: `pod startup (${a.of}): expected ${name} ${boundText(b)}, got ${got}` };
  }
  return { ok: true, message: `pod startup (${a.of}): ${got}` };
}

/** The most records in any window [t, t + windowMs) and where it starts (two pointers over sorted times). */
export function peakInWindow(times: readonly number[], windowMs: number): { count: number; atMs: number } {
  let best = { count: 0, atMs: 0 };
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while (times[hi]! - times[lo]! >= windowMs) lo++;
    if (hi - lo + 1 > best.count) best = { count: hi - lo + 1, atMs: times[lo]! };
  }
  return best;
}

/** Requests the apiserver served with this verb (its api.<verb> records), from any client. */
export function servedTimes(trace: readonly TraceRecord[], verb: string, fromMs?: number, toMs?: number, keep?: (r: TraceRecord) => boolean): number[] {
  const type = `api.${verb}`;
  const out: number[] = [];
  for (const r of trace) if (r.type === type && (fromMs === undefined || r.t >= fromMs) && (toMs === undefined || r.t <= toMs) && (keep === undefined || keep(r))) out.push(r.t);
  return out;
}

/** `trace`: the records the assertions gathered (the same whether or not the run keeps its trace). */
/** `nodeOfPod`: the node a served request's pod is bound to (for `node:`; the apiserver serves
 *  every node's kubelet, so a request is counted for the node of the pod it is about). */
export function evaluateRequestRate(trace: readonly TraceRecord[], a: Assertion & { kind: 'requestRate' }, nodeOfPod?: (key: string) => string): Verdict {
  const node = a.node;
  const keep = node === undefined || nodeOfPod === undefined ? undefined : (r: TraceRecord) => typeof r.pod === 'string' && nodeOfPod(r.pod) === node;
  const times = servedTimes(trace, a.verb, a.fromMs, a.toMs, keep);
  const peak = peakInWindow(times, a.windowMs);
  const got = `${node === undefined ? '' : `node ${node}: `}peak ${peak.count} ${a.verb} per ${ms(a.windowMs)} (from ${ms(peak.atMs)}), ${times.length} in all`;
  if (peak.count > a.max) return { ok: false, message: `request rate: expected at most ${a.max} ${a.verb} per ${ms(a.windowMs)}, got ${got}` };
  return { ok: true, message: `request rate: ${got}` };
}
