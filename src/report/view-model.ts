// What every view (Mermaid, HTML, Chrome trace, ShiViz) reads from a trace: the actors as lanes,
// each record's lane and words, the requests matched to their answers, the faults as intervals.
// Built from trace records only, never from the world.
import { faultKey, type TraceRecord } from '../model/trace.js';
import { statusText } from './status-text.js';

/** The lanes (swimlanes, participants, tracks), top to bottom. */
export const LANES = ['runtime', 'workers', 'status', 'network', 'apiserver', 'user', 'controller', 'timeline', 'invariant'] as const;
export type Lane = (typeof LANES)[number];

export const LANE_TITLES: Record<Lane, string> = {
  runtime: 'container runtime',
  workers: 'kubelet pod workers',
  status: 'kubelet status manager',
  network: 'network',
  apiserver: 'apiserver',
  user: 'user',
  controller: 'controller',
  timeline: 'timeline',
  invariant: 'invariants',
};

/** A request the kubelet sent, with its answer (the apiserver's served or error record, or the
 *  client's timeout) when the trace has one. */
export interface RequestSpan {
  send: TraceRecord;
  answer?: TraceRecord;
  verb: string;
  pod: string;
  /** Who sent it: the status manager (status GET/PATCH/DELETE) or the pod workers (mirror pods). */
  from: Lane;
}

const WORKER_TYPES = new Set(['pleg.event', 'worker.sync', 'worker.terminating', 'worker.terminated', 'probe.result', 'mirror.create', 'mirror.delete', 'kubelet.start', 'kubelet.stop', 'runtime.backoff']);

/** The lane a record belongs to (a request's answer: the apiserver's, or the network's for a timeout). */
export function laneOf(r: TraceRecord): Lane {
  const ty = r.type;
  if (ty.startsWith('status.')) return 'status';
  if (WORKER_TYPES.has(ty)) return 'workers';
  if (ty.startsWith('runtime.')) return 'runtime';
  if (ty.startsWith('fault.')) return 'network';
  if (ty === 'step') return 'timeline';
  if (ty === 'invariant.violation') return 'invariant';
  if (ty.startsWith('controller.') || ty === 'node.taint' || (r.actor === 'controller' && !ty.startsWith('api.'))) return 'controller';
  if (ty === 'api.request') return 'status';
  if (ty === 'api.error' && r.code === 'timeout') return 'network';
  if (ty.startsWith('api.')) {
    if (r.actor === 'user') return 'user';
    if (r.actor === 'controller') return 'controller';
    return 'apiserver';
  }
  return 'workers';
}

const ANSWER_OF: Record<string, string> = { get: 'api.get', patch: 'api.patch', delete: 'api.delete', create: 'api.create' };

/** Each kubelet request matched to its answer: the next kubelet record of the same verb and pod that
 *  is its served (api.<verb>) or failed (api.error) record. Requests of one pod and verb are answered
 *  in the order they were sent (the status manager syncs one pod at a time). */
export function matchRequests(records: readonly TraceRecord[]): RequestSpan[] {
  const out: RequestSpan[] = [];
  const open = new Map<string, RequestSpan[]>();
  const lastStatusDelete = new Set<string>();
  for (const r of records) {
    if (r.type === 'status.delete' && r.pod !== undefined) lastStatusDelete.add(r.pod);
    if (r.actor !== 'kubelet' || !r.type.startsWith('api.') || r.type === 'api.watch') continue;
    // A retry after a 429's Retry-After (api.retry) opens a span of its own: the retried try's answer closes it.
    if (r.type === 'api.request' || (r.type === 'api.retry' && r.node === undefined)) {
      const verb = String(r.verb);
      const pod = r.pod ?? '';
      const from: Lane = verb === 'create' || (verb === 'delete' && !lastStatusDelete.has(pod)) ? 'workers' : 'status';
      if (verb === 'delete') lastStatusDelete.delete(pod);
      const span: RequestSpan = { send: r, verb, pod, from };
      out.push(span);
      const k = `${verb} ${pod}`;
      const q = open.get(k);
      if (q === undefined) open.set(k, [span]);
      else q.push(span);
      continue;
    }
    const verb = r.type === 'api.error' ? String(r.verb) : Object.keys(ANSWER_OF).find((v) => ANSWER_OF[v] === r.type);
    if (verb === undefined) continue;
    const q = open.get(`${verb} ${r.pod ?? ''}`);
    const span = q?.shift();
    if (span !== undefined) span.answer = r;
  }
  return out;
}

/** A fault in force over [begin, end] (end undefined: still in force when the run ended). */
export interface FaultSpan {
  begin: TraceRecord;
  end?: TraceRecord;
  name: string;
}

export function faultName(r: TraceRecord): string {
  const f = String(r.fault);
  if (f === 'fail') return `fail ${Array.isArray(r.verbs) ? r.verbs.join(',') : 'requests'} with ${String(r.code)}${r.count !== undefined ? ` (×${String(r.count)})` : ''}`;
  if (f === 'apiserverDown') return 'apiserver down';
  if (f === 'stopFails') return `runc cannot signal ${shortPod(r.pod)}/${String(r.container)}`;
  return f;
}

export function matchFaults(records: readonly TraceRecord[]): FaultSpan[] {
  const out: FaultSpan[] = [];
  const open = new Map<string, FaultSpan>();
  for (const r of records) {
    if (r.type === 'fault.begin') {
      const s: FaultSpan = { begin: r, name: faultName(r) };
      out.push(s);
      open.set(faultKey(r), s);
    } else if (r.type === 'fault.end') {
      const s = open.get(faultKey(r));
      if (s !== undefined) {
        s.end = r;
        open.delete(faultKey(r));
      }
    }
  }
  return out;
}

/** The pod's short name in labels: "default/web" → "web", other namespaces kept. */
export function shortPod(pod: unknown): string {
  if (typeof pod !== 'string') return '';
  return pod.startsWith('default/') ? pod.slice(8) : pod;
}

function clip(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

/** A request in words: "GET web", "PATCH web: Ready=True main=running", "DELETE web grace 0". */
export function requestText(r: TraceRecord, width = 120): string {
  const verb = String(r.verb).toUpperCase();
  const pod = shortPod(r.pod);
  const sent = r.sent as { status?: unknown; gracePeriodSeconds?: unknown } | undefined;
  if (r.verb === 'patch' && sent !== undefined) return clip(`PATCH ${pod}: ${statusText(sent.status ?? {})}`, width);
  if (r.verb === 'delete' && sent !== undefined && sent.gracePeriodSeconds !== undefined) return `DELETE ${pod} grace ${String(sent.gracePeriodSeconds)}`;
  return `${verb} ${pod}`;
}

/** A served request or an error in words: "200 rv 7", "200 rv 9 (no change)", "409 Conflict …". */
export function answerText(r: TraceRecord, width = 100): string {
  if (r.type === 'api.error') return clip(`${String(r.code)} ${String(r.message ?? '')}`, width);
  let s = `${String(r.code ?? 200)} rv ${String(r.resourceVersion ?? '?')}`;
  if (r.noop === true) s += ' (no change)';
  if (r.removed === true) s += ' (removed)';
  else if (r.type === 'api.delete') s += ` (grace ${String(r.gracePeriodSeconds)}${r.pending === true ? ', pending' : ''})`;
  return s;
}

/** What another writer (user, controller) did, in words. */
export function writerText(r: TraceRecord, width = 120): string {
  const pod = shortPod(r.pod);
  if (r.type === 'api.error') return clip(`${String(r.verb).toUpperCase()} ${pod} → ${String(r.code)}`, width);
  const verb = r.type.slice(4).toUpperCase();
  let what = '';
  if (r.wrote !== undefined && r.wrote !== null) what = `: ${statusText(r.wrote)}`;
  else if (r.deletionTimestamp !== undefined) what = ` deletionTimestamp ${String(r.deletionTimestamp)}`;
  else if (r.type === 'api.delete') what = r.removed === true ? ' (removed)' : ` grace ${String(r.gracePeriodSeconds)}`;
  return clip(`${verb} ${pod}${what} → rv ${String(r.resourceVersion)}`, width);
}
