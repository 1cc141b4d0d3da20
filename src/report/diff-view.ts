// `kss diff`: two runs side by side — their timelines aligned (what each did, matched where they
// did the same), the first point where they part in words, and their final states. Built from the
// two traces only (runs or trace files).
import type { TraceRecord } from '../model/trace.js';
import { decisionShort } from './decisions.js';
import { statusChanges, statusText } from './status-text.js';
import { shortPod } from './view-model.js';

export interface DiffSide {
  label: string;
  trace: readonly TraceRecord[];
}

/** What the timelines compare: the decisions, requests, writes and container events (as a golden). */
function compared(r: TraceRecord): boolean {
  return r.type === 'invariant.violation' || ((r.type.startsWith('status.') || r.type.startsWith('api.') || r.type.startsWith('runtime.')) && r.type !== 'api.watch' && r.type !== 'status.same');
}

export interface Entry {
  r: TraceRecord;
  key: string;
  text: string;
}

/** A record in words, as a sentence's predicate: "sent a PATCH of web with phase=Failed …". */
export function actionWords(r: TraceRecord, before?: unknown): string {
  const pod = shortPod(r.pod);
  const cachedPhase = (before as { phase?: unknown } | undefined)?.phase;
  const terminal = cachedPhase === 'Failed' || cachedPhase === 'Succeeded';
  const held = `held the terminal phase ${String(cachedPhase)} back (mergePodStatus: a container may still run)`;
  if (r.type === 'api.request') {
    const sent = r.sent as { status?: { phase?: unknown } } | undefined;
    if (r.verb !== 'patch') return `sent a ${String(r.verb).toUpperCase()} of ${pod}`;
    const words = `sent a PATCH of ${pod} with ${statusText(sent?.status ?? {})}`;
    return terminal && sent?.status?.phase === undefined ? `${words}, and ${held}` : words;
  }
  if (r.type === 'status.skip' && r.reason === 'unchanged' && terminal) return `${held}, so the patch was empty and nothing was sent for ${pod}`;
  if (r.type === 'status.set') {
    const ch = before === undefined ? statusText(r.cached) : statusChanges(before, r.cached).join(', ');
    return `cached v${String(r.version)} of ${pod}${ch ? ': ' + ch : ''}`;
  }
  const d = decisionShort(r, before);
  if (d !== undefined) return `decided for ${pod}: ${d}`;
  if (r.type === 'invariant.violation') return `broke ${String(r.invariant)} for ${pod}: ${String(r.message ?? '')}`;
  if (r.type === 'api.error') return `got ${String(r.code)} for a ${String(r.verb).toUpperCase()} of ${pod}`;
  if (r.type.startsWith('api.')) return `${r.actor === 'kubelet' ? 'had' : `saw the ${r.actor}'s`} ${r.type.slice(4).toUpperCase()} of ${pod} served${r.wrote ? ' writing ' + statusText(r.wrote) : ''}${r.noop === true ? ' (no change)' : ''}`;
  if (r.type.startsWith('runtime.')) return `saw ${pod}'s container ${String(r.container)} ${r.type.slice(8)}${r.exitCode !== undefined ? ' with ' + String(r.exitCode) : ''}`;
  return `${r.type} ${pod}`;
}

function entries(trace: readonly TraceRecord[]): Entry[] {
  const out: Entry[] = [];
  const cached = new Map<string, unknown>();
  for (const r of trace) {
    if (!compared(r)) continue;
    const k = `${r.pod}`;
    const text = actionWords(r, cached.get(k));
    if (r.type === 'status.set') cached.set(k, r.cached);
    // The key leaves out times, versions and resourceVersions: what was done, not when or as which.
    out.push({ r, text, key: `${r.type} ${text.replace(/\bv\d+\b|\brv \d+\b|\(rv \d+\)/g, '')}` });
  }
  return out;
}

export type Row = { op: '=' | '<' | '>'; a?: Entry; b?: Entry };

/** The longest common subsequence of the two keys lists, as rows (a quadratic table, capped: past
 *  the cap the rest is aligned by time). */
export function align(a: readonly Entry[], b: readonly Entry[], cap = 4_000_000): Row[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre].key === b[pre].key) pre++;
  const rows: Row[] = [];
  for (let i = 0; i < pre; i++) rows.push({ op: '=', a: a[i], b: b[i] });
  const A = a.slice(pre);
  const B = b.slice(pre);
  const n = A.length;
  const m = B.length;
  if (n * m > cap) {
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (j >= m || (i < n && A[i].r.t <= B[j].r.t)) rows.push({ op: '<', a: A[i++] });
      else rows.push({ op: '>', b: B[j++] });
    }
    return rows;
  }
  const L = new Int32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      L[i * (m + 1) + j] = A[i].key === B[j].key ? L[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(L[(i + 1) * (m + 1) + j], L[i * (m + 1) + j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && A[i].key === B[j].key) rows.push({ op: '=', a: A[i++], b: B[j++] });
    else if (j >= m || (i < n && L[(i + 1) * (m + 1) + j] >= L[i * (m + 1) + j + 1])) rows.push({ op: '<', a: A[i++] });
    else rows.push({ op: '>', b: B[j++] });
  }
  return rows;
}

function sec(t: number): string {
  return `${(t / 1000).toFixed(3)}s`;
}

/** The first point where the runs part, in words, or undefined when they did the same. */
export function firstDivergence(rows: readonly Row[], la: string, lb: string): string | undefined {
  const k = rows.findIndex((r) => r.op !== '=');
  if (k < 0) return undefined;
  const a = rows.slice(k).find((r) => r.op === '<')?.a;
  const b = rows.slice(k).find((r) => r.op === '>')?.b;
  const first = rows[k];
  const lead = first.op === '<' ? a! : b!;
  const at = `at ${sec(lead.r.t)}`;
  const [ll, lo] = first.op === '<' ? [la, lb] : [lb, la];
  const later = rows.slice(k + 1).find((r) => r.op !== first.op && r.op !== '=' && (r.a ?? r.b)!.key === lead.key);
  if (later !== undefined) {
    const o = (later.a ?? later.b)!;
    return `${at} ${ll} ${lead.text}; ${lo} did the same later, at ${sec(o.r.t)}, after other steps (another order)`;
  }
  if (a !== undefined && b !== undefined) {
    const [x, y, lx, ly] = first.op === '<' ? [a, b, la, lb] : [b, a, lb, la];
    if (y.r.t === x.r.t) return `${at} ${lx} ${x.text}; ${ly} instead ${y.text}`;
    return `${at} ${lx} ${x.text}; ${ly} did not (its next step of its own, at ${sec(y.r.t)}: it ${y.text})`;
  }
  if (a !== undefined) return `${at} ${la} ${a.text}; ${lb} never did`;
  return `${at} ${lb} ${b!.text}; ${la} never did`;
}

/** The aligned timelines as text: time, mark, the left side, the right side. */
export function alignedLines(rows: readonly Row[], width = 70, maxRows = 400): string[] {
  const cell = (e: Entry | undefined) => {
    if (e === undefined) return ''.padEnd(width);
    const s = `${sec(e.r.t).padStart(9)} ${e.text}`;
    return (s.length > width ? s.slice(0, width - 1) + '…' : s).padEnd(width);
  };
  const out: string[] = [];
  for (const r of rows.slice(0, maxRows)) out.push(`${r.op === '=' ? ' ' : r.op === '<' ? '<' : '>'} ${cell(r.a)} │ ${cell(r.b).trimEnd()}`.trimEnd());
  if (rows.length > maxRows) out.push(`… ${rows.length - maxRows} more rows`);
  return out;
}

/** Each pod's last stored and last cached status, from a trace. */
export function finalStates(trace: readonly TraceRecord[]): Map<string, { api?: string; cache?: string }> {
  const out = new Map<string, { api?: string; cache?: string }>();
  for (const r of trace) {
    if (r.pod === undefined) continue;
    let s = out.get(r.pod);
    if (s === undefined) out.set(r.pod, (s = {}));
    if (r.type === 'status.set' && r.cached !== undefined) s.cache = `v${String(r.version)} ${statusText(r.cached)}`;
    if (r.stored !== undefined && r.type !== 'api.get') {
      const st = r.stored as { status?: unknown } | null;
      s.api = st === null ? `removed at rv ${String(r.resourceVersion)}` : `rv ${String(r.resourceVersion)} ${statusText(st.status)}`;
    }
  }
  return out;
}

export function finalLines(a: DiffSide, b: DiffSide): string[] {
  const fa = finalStates(a.trace);
  const fb = finalStates(b.trace);
  const out: string[] = [];
  for (const pod of [...new Set([...fa.keys(), ...fb.keys()])].sort()) {
    const x = fa.get(pod) ?? {};
    const y = fb.get(pod) ?? {};
    for (const [what, p, q] of [['apiserver', x.api, y.api], ['kubelet cache', x.cache, y.cache]] as const) {
      const same = p === q ? '=' : '≠';
      out.push(`${same} ${pod} ${what}`);
      out.push(`    ${a.label}: ${p ?? '(none)'}`);
      if (p !== q) out.push(`    ${b.label}: ${q ?? '(none)'}`);
    }
  }
  return out;
}

/** The whole report: header, first divergence, aligned timelines, final states. */
export function diffReport(a: DiffSide, b: DiffSide, opts: { width?: number; maxRows?: number } = {}): { lines: string[]; same: boolean; rows: Row[]; first?: string } {
  const rows = align(entries(a.trace), entries(b.trace));
  const first = firstDivergence(rows, a.label, b.label);
  const lines = [`kss diff: ${a.label} (left, <) vs ${b.label} (right, >)`, ''];
  lines.push(first === undefined ? 'The two runs did the same (decisions, requests, writes, containers).' : `First divergence: ${first}.`, '');
  lines.push(...alignedLines(rows, opts.width, opts.maxRows), '', 'Final states:');
  lines.push(...finalLines(a, b));
  return { lines, same: first === undefined, rows, first };
}
