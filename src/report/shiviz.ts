// `--trace-format shiviz`: a log ShiViz reads (its parser regular expression on the first line,
// then per event a line "host {vector clock}" and a line with the event), with vector clocks that
// kss computes from the trace's sends and receives. Hosts are the lanes (actors). Messages:
//   - a kubelet request: sent by the status manager (or pod workers), received where the apiserver
//     serves it (or fails it); its answer is received by the sender's next event;
//   - a write to the apiserver: received by the watch event it causes (matched by resourceVersion);
//   - a container's start or exit: received by the pod workers' next PLEG event for that pod.
// Every other record is a local event. Two runs can be put side by side in ShiViz: write each with
// --trace-format shiviz and load them as two executions (kss diff --format shiviz does that).
import type { TraceRecord } from '../model/trace.js';
import { decisionShort } from './decisions.js';
import { LANES, laneOf, matchRequests, type Lane } from './view-model.js';

export const SHIVIZ_REGEX = '(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)';
export const SHIVIZ_DELIMITER = '^=== (?<trace>.*) ===$';

type Clock = Map<string, number>;

function merge(into: Clock, from: Clock | undefined): void {
  if (from === undefined) return;
  for (const [h, n] of from) if ((into.get(h) ?? 0) < n) into.set(h, n);
}

function eventText(r: TraceRecord): string {
  const d = decisionShort(r);
  const base = `${(r.t / 1000).toFixed(3)}s ${r.type}${r.pod ? ' ' + r.pod : ''}`;
  const extra = d ?? (r.verb !== undefined ? `${String(r.verb)}` : r.code !== undefined ? `code ${String(r.code)}` : r.resourceVersion !== undefined ? `rv ${String(r.resourceVersion)}` : '');
  return `${base}${extra ? ': ' + extra : ''}`.replace(/[\r\n]+/g, ' ');
}

/** One vector-clock stamped event per record (log lines left out), in trace order. */
export function shivizEvents(records: readonly TraceRecord[]): Array<{ host: string; clock: Record<string, number>; text: string }> {
  const recs = records.filter((r) => r.type !== 'log');
  const clocks = new Map<Lane, Clock>(LANES.map((l) => [l, new Map()]));
  const sender = new Map<TraceRecord, Lane>();
  const sendClock = new Map<TraceRecord, Clock>(); // answer record → clock at its request's sending
  const pendingAnswer = new Map<Lane, Clock[]>(); // answers waiting for the sender's next event
  const writeClock = new Map<string, Clock>(); // resourceVersion → clock at the write
  const runtimeClock = new Map<string, Clock>(); // pod → clock of its last runtime event
  const answerOf = new Map<TraceRecord, TraceRecord>();
  const senderOfAnswer = new Map<TraceRecord, Lane>();
  for (const s of matchRequests(recs)) {
    sender.set(s.send, s.from);
    if (s.answer) {
      answerOf.set(s.send, s.answer);
      senderOfAnswer.set(s.answer, s.from);
    }
  }
  const out: Array<{ host: string; clock: Record<string, number>; text: string }> = [];
  for (const r of recs) {
    const host = sender.get(r) ?? laneOf(r);
    const c = clocks.get(host)!;
    for (const a of pendingAnswer.get(host)?.splice(0) ?? []) merge(c, a);
    merge(c, sendClock.get(r));
    if (r.type === 'api.watch') merge(c, writeClock.get(String(r.resourceVersion)));
    if (r.type === 'pleg.event' && r.pod !== undefined) merge(c, runtimeClock.get(r.pod));
    c.set(host, (c.get(host) ?? 0) + 1);
    const snap = new Map(c);
    const ans = answerOf.get(r);
    if (ans !== undefined) sendClock.set(ans, snap);
    if (r.type.startsWith('api.') && r.resourceVersion !== undefined && r.type !== 'api.get' && r.type !== 'api.watch') writeClock.set(String(r.resourceVersion), snap);
    {
      const back = senderOfAnswer.get(r);
      if (back !== undefined) {
        const q = pendingAnswer.get(back);
        if (q === undefined) pendingAnswer.set(back, [snap]);
        else q.push(snap);
      }
    }
    if (r.type.startsWith('runtime.') && r.actor === 'runtime' && r.pod !== undefined) runtimeClock.set(r.pod, snap);
    out.push({ host, clock: Object.fromEntries([...snap].sort(([a], [b]) => a.localeCompare(b))), text: eventText(r) });
  }
  return out;
}

function body(records: readonly TraceRecord[]): string {
  return shivizEvents(records).map((e) => `${e.host} ${JSON.stringify(e.clock)}\n${e.text}\n`).join('');
}

/** A ShiViz log of one run: the regex line, a blank line, then the events (`title` is kept out:
 *  a single execution has no delimiter line). */
export function shivizText(records: readonly TraceRecord[], _title?: string): string {
  return `${SHIVIZ_REGEX}\n\n${body(records)}`;
}

/** Several runs as executions of one log (ShiViz's "multiple executions" with SHIVIZ_DELIMITER). */
export function shivizMulti(runs: ReadonlyArray<{ title: string; trace: readonly TraceRecord[] }>): string {
  return `${SHIVIZ_REGEX}\n${SHIVIZ_DELIMITER}\n\n${runs.map((r) => `=== ${r.title} ===\n${body(r.trace)}`).join('')}`;
}
