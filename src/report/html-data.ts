// The data the HTML timeline embeds: every trace record but log lines, as parallel arrays (time,
// lane, type, pod, label), the state updates each record makes (kubelet cache entry, the version
// sent, the apiserver object), the requests as spans from sending to answer, the faults as spans,
// and an explanation for each violation. Strings are interned. Built from trace records only.
import type { TraceRecord } from '../model/trace.js';
import { decisionText } from './decisions.js';
import { explainViolation } from './explain.js';
import { statusWordPairs } from './status-text.js';
import { LANE_TITLES, LANES, answerText, faultName, laneOf, matchFaults, matchRequests, requestText, shortPod, writerText, type Lane } from './view-model.js';

export interface HtmlData {
  meta: { scenario: string; seed: number; variant: string; untilMs: number; verdict?: string; records: number; pod?: string };
  lanes: string[];
  laneTitles: string[];
  pods: string[];
  types: string[];
  s: string[];
  t: number[];
  l: number[];
  ty: number[];
  p: number[];
  lb: number[];
  /** Per record index: the state updates it makes ([podIdx, kind, ...values]). Kinds: 'c' cache
   *  entry [version, words, full], 'a' version sent, 's' apiserver object [rv, words, full] (words
   *  -1: removed), 'd' cache entry dropped, 'r' a container's state in the runtime [name, words]. */
  u: Record<number, Array<Array<number | string>>>;
  /** Requests: [sendIdx, answerIdx (-1: none), lane of the sender]. */
  req: Array<[number, number, number]>;
  /** Faults: [beginIdx, endIdx (-1: still in force), name]. */
  faults: Array<[number, number, number]>;
  /** Violations: record index → explanation. */
  why: Record<number, number>;
  /** Failed expectations and their explanations, shown at the top. */
  notes: number[];
}

const FULL_STATUS_LIMIT = 20_000;

class Interner {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  id(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.index.set(s, i);
    }
    return i;
  }
}

function label(r: TraceRecord, before: unknown): string {
  const pod = shortPod(r.pod);
  if (r.type.startsWith('status.')) return `${pod}: ${decisionText(r, before) ?? r.type}`;
  if (r.type === 'api.request') return requestText(r, 200);
  if (r.type === 'api.retry') return `${pod}: retry ${String(r.verb).toUpperCase()} in ${String(r.retryAfter)}s after ${String(r.code)} (attempt ${String(r.attempt)})`;
  if (r.type === 'api.watch') return `watch ${String(r.event)} ${pod} rv ${String(r.resourceVersion)}`;
  if (r.type.startsWith('api.')) return r.actor === 'kubelet' ? `${pod}: ${answerText(r, 200)}` : writerText(r, 200);
  if (r.type === 'invariant.violation') return `✗ ${String(r.invariant)} ${pod}: ${String(r.message ?? '')}`;
  if (r.type.startsWith('fault.')) return `${r.type === 'fault.begin' ? 'begins' : 'ends'}: ${faultName(r)}`;
  if (r.type === 'step') return `step ${String(r.action)} ${pod}`;
  const skip = new Set(['t', 'seq', 'actor', 'type', 'pod', 'uid', 'containerID', 'cached', 'stored', 'sent', 'wrote']);
  const fields = Object.keys(r).filter((k) => !skip.has(k)).map((k) => `${k}=${typeof r[k] === 'string' ? String(r[k]) : JSON.stringify(r[k])}`);
  return `${pod ? pod + ': ' : ''}${r.type} ${fields.join(' ')}`.trim();
}

/** The state updates of one record (see HtmlData.u), with what the trace shows of the version sent:
 *  a sync's version once its PATCH was served, or its patch was empty. */
function updates(r: TraceRecord, pod: number, st: Interner, full: boolean, syncing: Map<number, number>): Array<Array<number | string>> {
  const out: Array<Array<number | string>> = [];
  const statusIds = (status: unknown): [number, number] => [st.id(JSON.stringify(statusWordPairs(status))), full ? st.id(JSON.stringify(status, null, 1)) : -1];
  if (r.type === 'status.set' && r.cached !== undefined) out.push([pod, 'c', Number(r.version), ...statusIds(r.cached)]);
  if (r.type === 'runtime.start') out.push([pod, 'r', String(r.container), `running (attempt ${String(r.attempt)})`]);
  if (r.type === 'runtime.exit') out.push([pod, 'r', String(r.container), `exited ${String(r.exitCode)}`]);
  if (r.type === 'runtime.remove') out.push([pod, 'r', String(r.container), 'removed']);
  if (r.type === 'status.sync') syncing.set(pod, Number(r.version));
  if (r.type === 'status.skip' && r.reason === 'unchanged') out.push([pod, 'a', Number(r.version)]);
  if (r.type === 'status.recreated') out.push([pod, 'd']);
  if (r.type === 'api.patch' && r.actor === 'kubelet' && syncing.has(pod)) out.push([pod, 'a', syncing.get(pod)!]);
  if (r.type === 'api.delete' && r.actor === 'kubelet' && r.removed === true) out.push([pod, 'd']);
  if (r.stored !== undefined && r.type !== 'api.get') {
    const s = r.stored as { status?: unknown; deletionTimestamp?: string } | null;
    if (s === null) out.push([pod, 's', Number(r.resourceVersion), -1, -1, '']);
    else out.push([pod, 's', Number(r.resourceVersion), ...statusIds(s.status ?? {}), s.deletionTimestamp ?? '']);
  }
  return out;
}

export interface HtmlSource {
  scenario: string;
  seed: number;
  variant: string;
  untilMs: number;
  verdict?: string;
  trace: readonly TraceRecord[];
  /** Failed expectations, explained (explainAssertion). */
  notes?: string[];
  /** The pod the page opens filtered to ("ns/name"). */
  pod?: string;
}

export function htmlData(src: HtmlSource): HtmlData {
  const records = src.trace.filter((r) => r.type !== 'log');
  const st = new Interner();
  const pods = new Interner();
  const types = new Interner();
  const full = records.length <= FULL_STATUS_LIMIT;
  const d: HtmlData = {
    meta: { scenario: src.scenario, seed: src.seed, variant: src.variant, untilMs: src.untilMs, verdict: src.verdict, records: records.length, pod: src.pod },
    lanes: [...LANES],
    laneTitles: LANES.map((l) => LANE_TITLES[l]),
    pods: [], types: [], s: st.list, t: [], l: [], ty: [], p: [], lb: [], u: {}, req: [], faults: [], why: {}, notes: [],
  };
  const index = new Map<TraceRecord, number>();
  const cached = new Map<string, unknown>();
  const syncing = new Map<number, number>();
  const laneIdx = new Map<Lane, number>(LANES.map((l, i) => [l, i]));
  const reqs = matchRequests(records);
  const sender = new Map<TraceRecord, Lane>(reqs.map((q) => [q.send, q.from]));
  records.forEach((r, i) => {
    index.set(r, i);
    const k = `${r.pod}/${String(r.uid)}`;
    const lane = sender.get(r) ?? laneOf(r);
    d.t.push(r.t);
    d.l.push(laneIdx.get(lane)!);
    d.ty.push(types.id(r.type));
    const pod = r.pod === undefined ? -1 : pods.id(r.pod);
    d.p.push(pod);
    d.lb.push(st.id(label(r, cached.get(k))));
    if (r.type === 'status.set') cached.set(k, r.cached);
    if (pod >= 0) {
      const u = updates(r, pod, st, full, syncing);
      if (u.length > 0) d.u[i] = u;
    }
    if (r.type === 'invariant.violation') d.why[i] = st.id(explainViolation(r, records).long);
  });
  for (const q of reqs) d.req.push([index.get(q.send)!, q.answer ? index.get(q.answer)! : -1, laneIdx.get(q.from)!]);
  for (const f of matchFaults(records)) d.faults.push([index.get(f.begin)!, f.end ? index.get(f.end)! : -1, st.id(f.name)]);
  d.pods = pods.list;
  d.types = types.list;
  d.notes = (src.notes ?? []).map((n) => st.id(n));
  return d;
}

/** JSON that can sit inside a <script> element (no "</script>", no "<!--"). */
export function scriptJson(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
