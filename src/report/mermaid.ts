// `kss run --format mermaid`: the run as a Mermaid sequenceDiagram. Participants: the container
// runtime, the kubelet's pod workers and status manager, the network, the apiserver and every other
// writer (user, controller, timeline); messages for the requests (verb, what was sent, code,
// resourceVersion) and watch events; notes for the status manager's decisions; faults as shaded
// regions; each invariant violation as a red note at its instant.
//
// Folding (README "Seeing a race"): a run of identical exchanges — the same lines, told apart only by
// their numbers (times, versions, resourceVersions, exit codes) — is drawn once inside
// `loop N× from … to …`. When the diagram is still over Mermaid's default maxTextSize (50,000
// characters), detail is dropped step by step (watch events and pod-worker notes, then GETs and the
// status manager's syncs, then runtime events), and last the diagram is cut with a note saying where
// and how to see the rest (--pod, --from, --to). Reads trace records only.
import type { TraceRecord } from '../model/trace.js';
import { decisionShort } from './decisions.js';
import { faultName, LANE_TITLES, matchFaults, matchRequests, answerText, requestText, shortPod, writerText, type Lane } from './view-model.js';
import { explainViolation } from './explain.js';
import { fold, type Item } from './mermaid-fold.js';
import type { FailedMark } from './pretty.js';

export { fold };

export interface MermaidOptions {
  pod?: string;
  fromMs?: number;
  toMs?: number;
  /** The most characters (default 49,000: under Mermaid's maxTextSize of 50,000). */
  maxChars?: number;
  /** Failed expectations: a red note at their instant (or at the end). */
  failed?: readonly FailedMark[];
}

export const MERMAID_MAX_TEXT = 50_000;

const ID: Record<Lane, string> = { runtime: 'RT', workers: 'PW', status: 'SM', network: 'NET', apiserver: 'API', user: 'U', controller: 'C', timeline: 'TL', invariant: 'INV' };
const ORDER: Lane[] = ['runtime', 'workers', 'status', 'network', 'apiserver', 'user', 'controller', 'timeline'];


/** Text that Mermaid reads as text: no statement separators, comments, entities or tags. */
export function mermaidText(s: string): string {
  return s.replace(/[\r\n]+/g, ' ').replace(/;/g, ',').replace(/#/g, 'no.').replace(/%%/g, '%').replace(/</g, '‹').replace(/>/g, '›').replace(/[{}]/g, '');
}

/** Long text broken at spaces into lines of about `width` characters (Mermaid's <br/>). */
export function wrapText(s: string, width: number): string {
  const words = s.split(' ');
  const lines: string[] = [];
  let cur = '';
  for (const w of words) {
    if (cur !== '' && cur.length + 1 + w.length > width) {
      lines.push(cur);
      cur = w;
    } else cur = cur === '' ? w : `${cur} ${w}`;
  }
  if (cur !== '') lines.push(cur);
  return lines.join('<br/>');
}

function sec(t: number): string {
  return `${(t / 1000).toFixed(3)}s`;
}

class Builder {
  readonly items: Item[] = [];
  constructor(readonly level: number) {}
  msg(t: number, from: Lane, to: Lane, arrow: string, text: string): void {
    const body = mermaidText(text);
    this.items.push({ kind: 'line', t, text: `${ID[from]}${arrow}${ID[to]}: ${wrapText(`${sec(t)} ${body}`, 90)}`, key: `${from}${arrow}${to}:${body.replace(/\d+/g, '#')}`, lanes: [from, to] });
  }
  note(t: number, lanes: Lane[], text: string): void {
    const body = mermaidText(text);
    const over = lanes.map((l) => ID[l]).join(',');
    this.items.push({ kind: 'line', t, text: `Note over ${over}: ${wrapText(`${sec(t)} ${body}`, lanes.length > 1 ? 90 : 60)}`, key: `note ${over}:${body.replace(/\d+/g, '#')}`, lanes });
  }
  open(text: string, lanes: Lane[] = []): void {
    this.items.push({ kind: 'open', text, lanes });
  }
  close(): void {
    this.items.push({ kind: 'close' });
  }
}

/** Faults drawn as regions: those whose interval nests with every other's (others are notes only). */
function nestedFaults(records: readonly TraceRecord[]): Set<TraceRecord> {
  const spans = matchFaults(records);
  const ok = new Set(spans.map((s) => s.begin));
  for (let changed = true; changed; ) {
    changed = false;
    const stack: TraceRecord[] = [];
    for (const r of records) {
      const s = spans.find((x) => x.begin === r || x.end === r);
      if (s === undefined || !ok.has(s.begin)) continue;
      if (r === s.begin) stack.push(r);
      else if (stack[stack.length - 1] === s.begin) stack.pop();
      else {
        ok.delete(s.begin);
        changed = true;
        break;
      }
    }
  }
  return ok;
}

function addRuntime(b: Builder, r: TraceRecord): void {
  if (b.level >= 3) return;
  const pod = shortPod(r.pod);
  const c = String(r.container ?? '');
  if (r.type === 'runtime.start') b.msg(r.t, 'runtime', 'workers', '->>', `${pod}: ${c} started (attempt ${String(r.attempt)})`);
  else if (r.type === 'runtime.exit') b.msg(r.t, 'runtime', 'workers', '->>', `${pod}: ${c} exited ${String(r.exitCode)}${r.reason ? ` (${String(r.reason)})` : ''}`);
  else if (r.type === 'runtime.kill') b.msg(r.t, 'workers', 'runtime', '->>', `${pod}: kill ${c} ${String(r.signal ?? '')}`);
  else if (b.level < 2) b.note(r.t, ['runtime'], `${pod}: ${r.type.slice(8)} ${c}`);
}

function addWorkers(b: Builder, r: TraceRecord): void {
  const pod = shortPod(r.pod);
  if (r.type === 'kubelet.start') b.note(r.t, ['workers', 'status'], `kubelet starts (incarnation ${String(r.incarnation)}, ${String(r.variant)})`);
  else if (r.type === 'kubelet.stop') b.note(r.t, ['workers', 'status'], `kubelet stops (incarnation ${String(r.incarnation)})`);
  else if (b.level >= 1) return;
  else if (r.type === 'worker.terminating' || r.type === 'worker.terminated') b.note(r.t, ['workers'], `${pod}: ${r.type.slice(7)}`);
  else if (r.type === 'probe.result' && r.changed === true) b.note(r.t, ['workers'], `${pod}: ${String(r.probe)} ${String(r.container)} → ${String(r.result)}`);
  else if (r.type === 'runtime.backoff') b.note(r.t, ['workers'], `${pod}: back-off ${String(r.container)}`);
}

function addStatus(b: Builder, r: TraceRecord, cached: Map<string, unknown>): void {
  const k = `${r.pod}/${String(r.uid)}`;
  const before = cached.get(k);
  if (r.type === 'status.set') cached.set(k, r.cached);
  if (r.type === 'status.same' || (r.type === 'status.sync' && b.level >= 2)) return;
  const d = decisionShort(r, before);
  if (d !== undefined) b.note(r.t, ['status'], `${shortPod(r.pod)} ${d}`);
}

function addApi(b: Builder, r: TraceRecord, reqs: Map<TraceRecord, Lane>): void {
  if (r.type === 'api.watch') {
    if (b.level < 1) b.msg(r.t, 'apiserver', 'workers', '--)', `watch ${String(r.event)} ${shortPod(r.pod)} rv ${String(r.resourceVersion)}`);
    return;
  }
  if (r.actor === 'user' || r.actor === 'controller') {
    b.msg(r.t, r.actor, 'apiserver', '->>', writerText(r));
    return;
  }
  const from = reqs.get(r);
  if (r.type === 'api.request') {
    if (b.level < 2 || r.verb !== 'get') b.msg(r.t, from ?? 'status', 'apiserver', '->>', requestText(r));
    return;
  }
  if (r.type === 'api.retry') {
    if (b.level < 2) b.note(r.t, [from ?? 'status'], `retry ${String(r.verb)} ${shortPod(r.pod)} in ${String(r.retryAfter)}s (attempt ${String(r.attempt)})`);
    return;
  }
  const to = from ?? 'status';
  if (b.level >= 2 && r.type === 'api.get') return;
  if (r.type === 'api.error') b.msg(r.t, r.code === 'timeout' ? 'network' : 'apiserver', to, '--x', answerText(r));
  else b.msg(r.t, 'apiserver', to, '-->>', answerText(r));
}

/** A fault's lane: the runtime's for its own (containerd down, its CNI plugin not ready, a container
 *  runc cannot signal), else the network's. */
const faultLane = (r: TraceRecord): Lane => (r.actor === 'runtime' ? 'runtime' : 'network');

function addRecord(b: Builder, r: TraceRecord, ctx: { cached: Map<string, unknown>; reqs: Map<TraceRecord, Lane>; regions: Set<TraceRecord>; faultOf: Map<TraceRecord, TraceRecord> }, records: readonly TraceRecord[]): void {
  const ty = r.type;
  if (ty.startsWith('runtime.') && r.actor === 'runtime') addRuntime(b, r);
  else if (ty.startsWith('status.')) addStatus(b, r, ctx.cached);
  else if (ty.startsWith('api.')) addApi(b, r, ctx.reqs);
  else if (ty === 'fault.begin') {
    if (ctx.regions.has(r)) b.open('rect rgba(255, 190, 0, 0.18)');
    b.note(r.t, [faultLane(r)], `fault begins: ${r.fault === 'stopFails' ? faultName(r) : String(r.fault)}`);
  } else if (ty === 'fault.end') {
    b.note(r.t, [faultLane(r)], `fault ends: ${r.fault === 'stopFails' ? faultName(r) : String(r.fault)}`);
    const begin = ctx.faultOf.get(r);
    if (begin !== undefined && ctx.regions.has(begin)) b.close();
  } else if (ty === 'invariant.violation') {
    b.open('rect rgba(255, 0, 0, 0.25)', ['status', 'apiserver']);
    b.note(r.t, ['status', 'apiserver'], `✗ ${String(r.invariant)} ${shortPod(r.pod)}: ${explainViolation(r, records).short}`);
    b.close();
  } else if (ty.startsWith('controller.') || ty === 'node.taint') {
    if (b.level < 2) b.note(r.t, ['controller'], `${ty}${r.pod ? ' ' + shortPod(r.pod) : ''}`);
  } else if (ty === 'step') {
    if (b.level < 2) b.note(r.t, ['timeline'], `step ${String(r.action)}${r.pod ? ' ' + shortPod(r.pod) : ''}`);
  } else if (ty !== 'log' && ty !== 'pleg.event' && ty !== 'worker.sync' && !ty.startsWith('mirror.')) addWorkers(b, r);
}

/** The records a diagram shows: of the pod (and those of no pod), within [from, to]; faults that
 *  overlap the window are kept whole. */
export function selectRecords(records: readonly TraceRecord[], opts: { pod?: string; fromMs?: number; toMs?: number }): TraceRecord[] {
  const from = opts.fromMs ?? -Infinity;
  const to = opts.toMs ?? Infinity;
  const keepFault = new Set<TraceRecord>();
  for (const s of matchFaults(records)) {
    const end = s.end?.t ?? Infinity;
    if (s.begin.t <= to && end >= from) {
      keepFault.add(s.begin);
      if (s.end) keepFault.add(s.end);
    }
  }
  const pod = opts.pod === undefined ? undefined : opts.pod.includes('/') ? opts.pod : `default/${opts.pod}`;
  return records.filter((r) => {
    if (r.type === 'fault.begin' || r.type === 'fault.end') return keepFault.has(r);
    if (r.t < from || r.t > to) return false;
    return pod === undefined || r.pod === undefined || r.pod === pod;
  });
}

function addMark(b: Builder, m: FailedMark, t: number): void {
  b.open('rect rgba(255, 0, 0, 0.25)', ['status', 'apiserver']);
  b.note(t, ['status', 'apiserver'], `✗ expect[${m.index}] ${m.kind} (line ${m.line}) failed: ${m.message.length > 200 ? m.message.slice(0, 199) + '…' : m.message}`);
  b.close();
}

function build(records: readonly TraceRecord[], level: number, failed: readonly FailedMark[] = []): Item[] {
  const b = new Builder(level);
  const reqs = new Map<TraceRecord, Lane>();
  for (const s of matchRequests(records)) {
    reqs.set(s.send, s.from);
    if (s.answer) reqs.set(s.answer, s.from);
  }
  const faultOf = new Map<TraceRecord, TraceRecord>();
  for (const s of matchFaults(records)) if (s.end) faultOf.set(s.end, s.begin);
  const ctx = { cached: new Map<string, unknown>(), reqs, regions: nestedFaults(records), faultOf };
  let depth = 0;
  const marks = [...failed].sort((x, y) => (x.atMs ?? Infinity) - (y.atMs ?? Infinity) || x.index - y.index);
  let m = 0;
  for (const r of records) {
    while (m < marks.length && marks[m].atMs !== undefined && marks[m].atMs! < r.t) addMark(b, marks[m], marks[m++].atMs!);
    addRecord(b, r, ctx, records);
  }
  const end = records.length > 0 ? records[records.length - 1].t : 0;
  while (m < marks.length) addMark(b, marks[m], marks[m++].atMs ?? end);
  for (const it of b.items) depth += it.kind === 'open' ? 1 : it.kind === 'close' ? -1 : 0;
  for (; depth > 0; depth--) b.close(); // a fault still in force at the end
  return b.items;
}

function render(items: readonly Item[], maxChars: number, header: string[]): { lines: string[]; cut: number } {
  const used = new Set<Lane>();
  for (const it of items) if (it.kind !== 'close') for (const l of it.lanes) used.add(l);
  const lines = ['sequenceDiagram', ...header];
  for (const l of ORDER) if (used.has(l)) lines.push(`  participant ${ID[l]} as ${LANE_TITLES[l]}`);
  let size = lines.reduce((n, l) => n + l.length + 1, 0) + 400; // room for the closing note
  let depth = 0;
  let cut = 0;
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const text = it.kind === 'close' ? 'end' : it.text;
    const line = '  '.repeat(depth + 1) + text;
    if (size + line.length + 1 + depth * 6 > maxChars && it.kind !== 'close') {
      cut = items.length - i;
      break;
    }
    size += line.length + 1;
    lines.push(it.kind === 'close' ? '  '.repeat(depth) + 'end' : line);
    depth += it.kind === 'open' ? 1 : it.kind === 'close' ? -1 : 0;
  }
  for (; depth > 0; depth--) lines.push('  '.repeat(depth) + 'end');
  return { lines, cut };
}

/** The Mermaid sequenceDiagram of a run's trace, one line per element. */
export function mermaidLines(records: readonly TraceRecord[], opts: MermaidOptions = {}): string[] {
  const maxChars = opts.maxChars ?? MERMAID_MAX_TEXT - 1000;
  const selected = selectRecords(records, opts);
  let out: { lines: string[]; cut: number } = { lines: [], cut: 0 };
  let items: Item[] = [];
  for (let level = 0; level <= 3; level++) {
    items = fold(build(selected, level, opts.failed));
    const header = level > 0 ? [`  %% detail level ${level}: ${['', 'watch events and pod-worker notes left out', 'also GETs, syncs and steps left out', 'also runtime events left out'][level]} to stay under ${maxChars} characters`] : [];
    out = render(items, maxChars, header);
    if (out.cut === 0) return out.lines;
  }
  const shown = items.length - out.cut;
  const lastT = [...items.slice(0, shown)].reverse().find((x): x is Item & { kind: 'line' } => x.kind === 'line')?.t ?? 0;
  const lanes = out.lines.some((l) => l.includes('participant API')) ? 'API' : 'SM';
  out.lines.push(`  Note over ${lanes}: cut after ${sec(lastT)} (${out.cut} more elements): see the rest with --from ${Math.floor(lastT / 1000)}s, --pod P or --to`);
  return out.lines;
}
