// The readable timeline of `kss run`: virtual time, actor, what happened, for each pod.
import { Chalk, type ChalkInstance } from 'chalk';
import type { TraceRecord } from '../model/trace.js';
import { statusChanges, statusText } from './status-text.js';
import { decisionText } from './decisions.js';
import { explainAssertion, explainViolation } from './explain.js';

/** A failed expectation, marked inline at its instant (or at the end) with its explanation. */
export interface FailedMark {
  index: number;
  kind: string;
  line: number;
  message: string;
  atMs?: number;
  pod?: string;
}

export interface PrettyOptions {
  color: boolean;
  /** Show kubelet log lines down to this verbosity (default: info, warnings and errors only). */
  verbose?: boolean;
  /** Only this pod's records (and those of no pod). */
  pod?: string;
  /** Only records whose type starts with one of these (status, api, runtime, pleg, worker, probe,
   *  fault, step, log, kubelet, mirror); violations are always shown. */
  only?: readonly string[];
  /** Failed expectations to mark inline. */
  failed?: readonly FailedMark[];
}

export function makeChalk(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}

/** 12.345s, right-aligned; minutes shown for long runs. */
export function formatT(ms: number): string {
  const s = (ms / 1000).toFixed(3);
  return `${s}s`.padStart(10);
}

const OWN_FIELDS = new Set(['t', 'seq', 'actor', 'type', 'pod', 'uid', 'msg', 'level', 'sent', 'wrote', 'cached', 'stored']);

/** What a record's trace-only fields say, in words: the status cached, sent or written. */
export function contentText(r: TraceRecord, before?: unknown): string {
  if (r.type === 'status.set' && r.cached !== undefined) {
    if (before === undefined) return `→ ${statusText(r.cached)}`;
    const ch = statusChanges(before, r.cached);
    return ch.length > 0 ? `→ ${ch.join(', ')}` : '→ (same phase, conditions and containers)';
  }
  if (r.type === 'api.request' && r.sent !== undefined) {
    const sent = r.sent as { status?: unknown };
    return r.verb === 'patch' ? `sent: ${statusText(sent.status ?? {})}` : `sent=${JSON.stringify(r.sent)}`;
  }
  if (r.wrote !== undefined) return r.wrote === null ? 'wrote: nothing' : `wrote: ${statusText(r.wrote)}`;
  if (r.type === 'api.create' && r.stored !== undefined && r.stored !== null) return `stored: ${statusText((r.stored as { status?: unknown }).status)}`;
  return '';
}

function fieldText(r: TraceRecord): string {
  const parts: string[] = [];
  for (const k of Object.keys(r)) {
    if (OWN_FIELDS.has(k)) continue;
    const v = r[k];
    if (v === undefined) continue;
    const txt = typeof v === 'string' ? (/^[\w./:@-]*$/.test(v) ? v : JSON.stringify(v)) : JSON.stringify(v);
    parts.push(`${k}=${txt.length > 160 ? txt.slice(0, 157) + '...' : txt}`);
  }
  return parts.join(' ');
}

export function colorFor(c: ChalkInstance, type: string, r: TraceRecord): (s: string) => string {
  if (type === 'invariant.violation') return c.red.bold;
  if (type === 'status.reject' || type === 'status.drop' || type === 'api.error') return c.red;
  if (type === 'log') return r.level === 'error' ? c.red : r.level === 'warning' ? c.yellow : c.gray;
  if (type.startsWith('status.')) return c.cyan;
  if (type.startsWith('api.')) return c.blue;
  if (type.startsWith('runtime.')) return c.magenta;
  if (type.startsWith('fault.')) return c.yellow;
  if (type === 'step') return c.green;
  return (s: string) => s;
}

export function isShown(r: TraceRecord, opts: PrettyOptions): boolean {
  if (opts.pod !== undefined && r.pod !== undefined && r.pod !== opts.pod) return false;
  if (opts.only !== undefined && r.type !== 'invariant.violation' && !opts.only.some((o) => r.type === o || r.type.startsWith(o + '.'))) return false;
  if (r.type !== 'log') return true;
  if (opts.verbose) return true;
  return r.level === 'error' || r.level === 'warning' || r.level === 'info';
}

/** `before`: for a status.set, the pod's cached status before it (its changes are shown). */
export function formatRecord(r: TraceRecord, c: ChalkInstance, before?: unknown): string {
  const col = colorFor(c, r.type, r);
  const head = `${c.dim(formatT(r.t))}  ${r.actor.padEnd(10)} ${col(r.type.padEnd(18))}`;
  const pod = r.pod ? c.bold(r.pod) + ' ' : '';
  const body = r.type === 'log' ? `${r.level} ${JSON.stringify(r.msg)}` : `${fieldText(r)} ${contentText(r, before)}`;
  const why = r.type.startsWith('status.') && r.type !== 'status.set' ? decisionText(r) : undefined;
  return `${head} ${pod}${body}`.trimEnd() + (why !== undefined ? c.dim(` — ${why}`) : '');
}

function* markLines(m: FailedMark, records: readonly TraceRecord[], c: ChalkInstance): Generator<string> {
  const at = m.atMs !== undefined ? formatT(m.atMs) : ''.padStart(10);
  yield `${c.dim(at)}  ${c.red.bold('✗ expect[' + m.index + ']')} ${m.kind} (line ${m.line}): ${m.message}`;
  yield `            ${c.red('↳')} ${explainAssertion(m, records)}`;
}

/** The timeline: each shown record; after a violation, its explanation; each failed expectation
 *  with an instant at that instant (the others after the last record). */
export function* prettyLines(records: readonly TraceRecord[], opts: PrettyOptions): Generator<string> {
  const c = makeChalk(opts.color);
  const cached = new Map<string, unknown>();
  const marks = [...(opts.failed ?? [])].sort((a, b) => (a.atMs ?? Infinity) - (b.atMs ?? Infinity) || a.index - b.index);
  let m = 0;
  for (const r of records) {
    while (m < marks.length && marks[m].atMs !== undefined && marks[m].atMs! < r.t) yield* markLines(marks[m++], records, c);
    if (isShown(r, opts)) {
      yield formatRecord(r, c, cached.get(`${r.pod}/${String(r.uid)}`));
      if (r.type === 'invariant.violation') yield `            ${c.red('↳')} ${explainViolation(r, records).long}`;
    }
    if (r.type === 'status.set') cached.set(`${r.pod}/${String(r.uid)}`, r.cached);
  }
  while (m < marks.length) yield* markLines(marks[m++], records, c);
}
