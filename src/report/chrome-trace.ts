// `--trace-format chrome`: the Chrome trace-event JSON that ui.perfetto.dev and chrome://tracing
// open. One process (the run), one thread per actor (lane) named by metadata events; requests as
// complete ("X") slices from sending to answer on the sender's track; faults as slices on the
// network's track; every other record as an instant ("i") event on its track, violations as global
// instants; counters ("C") for each pod's cached and sent status versions, the pods whose status
// is not sent yet (the status manager's queue of work), and the requests in flight.
// Timestamps are virtual microseconds. Reads trace records only.
import type { TraceRecord } from '../model/trace.js';
import { decisionText } from './decisions.js';
import { explainViolation } from './explain.js';
import { LANES, LANE_TITLES, answerText, laneOf, matchFaults, matchRequests, requestText, shortPod, type Lane } from './view-model.js';

export interface ChromeEvent {
  name: string;
  ph: 'X' | 'i' | 'C' | 'M';
  ts: number;
  pid: number;
  tid: number;
  dur?: number;
  s?: 'g' | 'p' | 't';
  cat?: string;
  args?: Record<string, unknown>;
}

const PID = 1;
const tidOf = (l: Lane) => LANES.indexOf(l) + 1;
const us = (ms: number) => Math.round(ms * 1000);

function metadata(name: string): ChromeEvent[] {
  const out: ChromeEvent[] = [{ name: 'process_name', ph: 'M', ts: 0, pid: PID, tid: 0, args: { name } }];
  LANES.forEach((l, i) => {
    out.push({ name: 'thread_name', ph: 'M', ts: 0, pid: PID, tid: tidOf(l), args: { name: LANE_TITLES[l] } });
    out.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid: PID, tid: tidOf(l), args: { sort_index: i } });
  });
  return out;
}

function instantName(r: TraceRecord): string {
  const pod = shortPod(r.pod);
  if (r.type === 'invariant.violation') return `✗ ${String(r.invariant)} ${pod}`;
  if (r.type === 'status.set') return `set v${String(r.version)} ${pod}`;
  return `${r.type} ${pod}`.trim();
}

function instantArgs(r: TraceRecord, records: readonly TraceRecord[]): Record<string, unknown> {
  const args: Record<string, unknown> = { seq: r.seq };
  for (const k of Object.keys(r)) if (!['t', 'seq', 'type', 'actor', 'pod', 'cached', 'stored'].includes(k)) args[k] = r[k];
  if (r.pod !== undefined) args.pod = r.pod;
  const why = decisionText(r);
  if (why !== undefined) args.why = why;
  if (r.type === 'invariant.violation') args.explanation = explainViolation(r, records).long;
  return args;
}

/** Counters: cached / sent version per pod, requests in flight. */
function counters(records: readonly TraceRecord[], spans: ReturnType<typeof matchRequests>): ChromeEvent[] {
  const out: ChromeEvent[] = [];
  const versions = new Map<string, { cached: number; sent: number; syncing?: number }>();
  let lastUnsent = 0;
  for (const r of records) {
    if (r.pod === undefined) continue;
    let v = versions.get(r.pod);
    const before = v === undefined ? undefined : { ...v };
    if (v === undefined) versions.set(r.pod, (v = { cached: 0, sent: 0 }));
    if (r.type === 'status.set') v.cached = Number(r.version);
    else if (r.type === 'status.sync') v.syncing = Number(r.version);
    else if (r.type === 'status.skip' && r.reason === 'unchanged') v.sent = Number(r.version);
    else if (r.type === 'api.patch' && r.actor === 'kubelet' && v.syncing !== undefined) v.sent = v.syncing;
    else continue;
    if (before === undefined || before.cached !== v.cached || before.sent !== v.sent) {
      out.push({ name: `status versions ${shortPod(r.pod)}`, ph: 'C', ts: us(r.t), pid: PID, tid: 0, args: { cached: v.cached, sent: v.sent } });
      const unsent = [...versions.values()].filter((x) => x.cached > x.sent).length;
      if (unsent !== lastUnsent) out.push({ name: 'pods with a status not sent yet', ph: 'C', ts: us(r.t), pid: PID, tid: 0, args: { pods: (lastUnsent = unsent) } });
    }
  }
  const edges: Array<[number, number]> = [];
  for (const s of spans) {
    edges.push([us(s.send.t), 1]);
    if (s.answer !== undefined) edges.push([us(s.answer.t), -1]);
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let n = 0;
  for (const [ts, d] of edges) {
    n += d;
    out.push({ name: 'requests in flight', ph: 'C', ts, pid: PID, tid: 0, args: { requests: n } });
  }
  return out;
}

export function chromeTraceEvents(records: readonly TraceRecord[], name: string, untilMs: number): ChromeEvent[] {
  const recs = records.filter((r) => r.type !== 'log');
  const spans = matchRequests(recs);
  const inSpan = new Set<TraceRecord>();
  const out = metadata(name);
  for (const s of spans) {
    inSpan.add(s.send);
    const end = s.answer?.t ?? untilMs;
    out.push({
      name: requestText(s.send, 80), cat: 'request', ph: 'X', ts: us(s.send.t), dur: Math.max(us(end - s.send.t), 1), pid: PID, tid: tidOf(s.from),
      args: { pod: s.pod, verb: s.verb, sent: s.send.sent, answer: s.answer !== undefined ? answerText(s.answer) : 'no answer', stored: s.answer?.stored },
    });
  }
  for (const f of matchFaults(recs)) {
    const end = f.end?.t ?? untilMs;
    out.push({ name: `fault: ${f.name}`, cat: 'fault', ph: 'X', ts: us(f.begin.t), dur: Math.max(us(end - f.begin.t), 1), pid: PID, tid: tidOf('network'), args: { seq: f.begin.seq } });
  }
  for (const r of recs) {
    if (inSpan.has(r) || r.type.startsWith('fault.')) continue;
    const viol = r.type === 'invariant.violation';
    out.push({ name: instantName(r), cat: r.type.split('.')[0], ph: 'i', s: viol ? 'g' : 't', ts: us(r.t), pid: PID, tid: tidOf(laneOf(r)), args: instantArgs(r, recs) });
  }
  out.push(...counters(recs, spans));
  return out;
}

/** The whole JSON document (object form, with displayTimeUnit). */
export function chromeTraceText(records: readonly TraceRecord[], meta: { scenario: string; seed: number; variant: string; untilMs: number }): string {
  const events = chromeTraceEvents(records, `kss ${meta.scenario} (seed ${meta.seed}, ${meta.variant})`, meta.untilMs);
  const lines = events.map((e) => JSON.stringify(e));
  return `{"displayTimeUnit":"ms","otherData":${JSON.stringify({ tool: 'kss', ...meta, clock: 'virtual' })},"traceEvents":[\n${lines.join(',\n')}\n]}\n`;
}
