// Explanations in words (as Jepsen's Elle explains an anomaly): for an invariant violation or a
// failed expectation, which writes, in which order, led to it — "Let W1 be …, W2 …. Then …, so …".
// Built from the trace records before the instant, never from the world.
import type { TraceRecord } from '../model/trace.js';
import { statusText } from './status-text.js';
import { shortPod } from './view-model.js';

/** What each invariant forbids, in words (the "so" of an explanation). */
export const INVARIANT_MEANING: Record<string, string> = {
  'terminal-phase-sticky': 'a pod that reached a terminal phase (Succeeded or Failed) must never leave it',
  'no-terminal-while-running': 'the apiserver must not show a terminal phase while a container may still run',
  'no-ready-when-terminal': 'a pod in a terminal phase must not be Ready',
  'version-monotonic': "the status manager's versions must only grow",
  'status-converges': "the kubelet's cached status and the apiserver's must agree again once things are quiet",
  'transition-time-honest': "a condition's lastTransitionTime moves only when its status flips",
  'deletion-completes': 'a deleted pod must be removed once its containers stopped',
  'no-illegal-container-transition': 'a terminated container must not run again under restartPolicy Never',
  'write-matches-uid': 'a status write must reach the pod of the uid it was meant for',
};

export interface Explanation {
  /** One line, for diagram notes and inline marks. */
  short: string;
  /** "Let … Then … so …", a few sentences. */
  long: string;
}

function clip(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

function sec(t: number): string {
  return `${(t / 1000).toFixed(3)}s`;
}

const WRITES = new Set(['api.patch', 'api.create', 'api.delete', 'api.update']);

/** The writes to `pod` served up to `seq`, newest last (at most `n`). */
export function writesBefore(records: readonly TraceRecord[], pod: string | undefined, seq: number, n: number): TraceRecord[] {
  const out: TraceRecord[] = [];
  for (let i = records.length - 1; i >= 0 && out.length < n; i--) {
    const r = records[i];
    if (r.seq > seq || (pod !== undefined && r.pod !== pod)) continue;
    if (WRITES.has(r.type) && r.noop !== true) out.push(r);
  }
  return out.reverse();
}

function writeWords(w: TraceRecord, brief = false): string {
  const who = w.actor === 'kubelet' ? "the kubelet's" : `the ${w.actor}'s`;
  const verb = w.type === 'api.create' ? 'CREATE' : w.type === 'api.delete' ? 'DELETE' : 'PATCH';
  let what = '';
  if (brief) what = '';
  else if (w.wrote !== undefined && w.wrote !== null) what = ` writing ${clip(statusText(w.wrote), 110)}`;
  else if (w.type === 'api.delete') what = w.removed === true ? ' removing it' : ` (grace ${String(w.gracePeriodSeconds)})`;
  else if (w.deletionTimestamp !== undefined) what = ' setting deletionTimestamp';
  return `${who} ${verb} at ${sec(w.t)}${what} (rv ${String(w.resourceVersion)})`;
}

function storedWords(w: TraceRecord | undefined): string {
  if (w === undefined) return 'the apiserver held nothing for it';
  const s = w.stored as { status?: unknown } | null | undefined;
  if (s === null) return 'the apiserver no longer held it';
  if (s === undefined) return `the apiserver held rv ${String(w.resourceVersion)}`;
  return `the apiserver held ${clip(statusText(s.status), 140)} (rv ${String(w.resourceVersion)})`;
}

/** The cached version and what it held, as of `seq`. */
function cacheWords(records: readonly TraceRecord[], pod: string | undefined, seq: number): string | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r.seq > seq || r.type !== 'status.set' || (pod !== undefined && r.pod !== pod)) continue;
    return `the kubelet's cache held v${String(r.version)} (${r.cached !== undefined ? clip(statusText(r.cached), 140) : '?'})`;
  }
  return undefined;
}

/** "Let W1 be …, W2 …. Then …, so …" for the writes to `pod` up to `seq`. */
export function explainAt(records: readonly TraceRecord[], pod: string | undefined, seq: number, so: string): string {
  const ws = writesBefore(records, pod, seq, 3);
  const parts: string[] = [];
  if (ws.length > 0) parts.push(`Let ${ws.map((w, i) => `W${i + 1} be ${writeWords(w)}`).join(', and ')}.`);
  const cache = cacheWords(records, pod, seq);
  parts.push(`Then ${storedWords(ws[ws.length - 1])}${cache ? ` and ${cache}` : ''},`);
  parts.push(`so ${so}.`);
  return parts.join(' ');
}

export function explainViolation(v: TraceRecord, records: readonly TraceRecord[]): Explanation {
  const name = String(v.invariant);
  const meaning = INVARIANT_MEANING[name] ?? `the invariant ${name} must hold`;
  const msg = String(v.message ?? '');
  const long = explainAt(records, v.pod, v.seq, `${name} is broken at ${sec(v.t)} for ${shortPod(v.pod) || 'the node'}: ${meaning}, but ${msg}`);
  const last = writesBefore(records, v.pod, v.seq, 1)[0];
  const short = last !== undefined ? `after ${writeWords(last, true)}: ${msg}` : msg;
  return { short: short.length > 220 ? short.slice(0, 219) + '…' : short, long };
}

/** A failed expectation: the writes to its pod up to the end (or its instant). */
export function explainAssertion(a: { index: number; kind: string; message: string; atMs?: number; pod?: string }, records: readonly TraceRecord[]): string {
  const until = a.atMs ?? Infinity;
  let seq = -1;
  for (const r of records) if (r.t <= until) seq = r.seq;
  const pod = a.pod === undefined ? undefined : a.pod.includes('/') ? a.pod : `default/${a.pod}`;
  return explainAt(records, pod, seq, `expect[${a.index}] (${a.kind}) failed: ${a.message}`);
}
