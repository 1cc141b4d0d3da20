// The readable timeline of `kss run`: virtual time, actor, what happened, for each pod.
import { Chalk, type ChalkInstance } from 'chalk';
import type { TraceRecord } from '../model/trace.js';
import { statusChanges, statusText } from './status-text.js';

export interface PrettyOptions {
  color: boolean;
  /** Show kubelet log lines down to this verbosity (default: info, warnings and errors only). */
  verbose?: boolean;
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
  return `${head} ${pod}${body}`.trimEnd();
}

export function* prettyLines(records: readonly TraceRecord[], opts: PrettyOptions): Generator<string> {
  const c = makeChalk(opts.color);
  const cached = new Map<string, unknown>();
  for (const r of records) {
    if (isShown(r, opts)) yield formatRecord(r, c, cached.get(`${r.pod}/${String(r.uid)}`));
    if (r.type === 'status.set') cached.set(`${r.pod}/${String(r.uid)}`, r.cached);
  }
}
