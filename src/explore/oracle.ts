// The oracles of a run (the nine invariants and the scenario's own `expect`), each failure reduced
// to a signature — invariant or assertion, pod role, the kind of event that showed it — so that
// one bug is reported once, with a count, and shrinking cannot slide onto another bug.
import type { RunResult } from '../world/run.js';
import type { TraceRecord } from '../world/tracer.js';
import type { Scenario } from '../scenario/types.js';
import type { Oracle, Signature } from './types.js';

// (judged after quiet, not at an event: the event before the violation says nothing of the cause)
const LIVENESS = new Set(['status-converges', 'deletion-completes', 'deleted-pod-reaches-terminal', 'deleted-pod-stops']);

/** "default/web-2" → "web"; a static pod's node suffix stays (it is part of the role's name). */
export function roleOf(pod: string | undefined): string {
  if (!pod) return '-';
  const name = pod.includes('/') ? pod.slice(pod.indexOf('/') + 1) : pod;
  return name.replace(/-\d+$/, '');
}

export function signatureKey(s: Signature): string {
  return `${s.oracle}:${s.name}:${s.role}:${s.event}`;
}

/** Every distinct failure of a run, in the order they happened (invariants by trace order, then
 *  failing assertions by index). */
export function signaturesOf(r: RunResult, scenario: Scenario, oracle: Oracle): Signature[] {
  const out: Signature[] = [];
  const seen = new Set<string>();
  const add = (s: Signature) => {
    const k = signatureKey(s);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(s);
    }
  };
  if (oracle !== 'expect') {
    for (const v of r.unexpectedViolations) {
      const name = String(v.invariant);
      const cause = LIVENESS.has(name) ? undefined : preceding(r.trace, v);
      // A write by another actor (an injected second writer, a user) that breaks a safety
      // invariant is not the kubelet's doing: explore looks for the kubelet's bugs.
      if (cause !== undefined && cause.type.startsWith('api.') && cause.actor !== 'kubelet') continue;
      add({ oracle: 'invariant', name, role: roleOf(v.pod), event: cause?.type ?? 'liveness', pod: v.pod ?? '' });
    }
  }
  if (oracle !== 'invariants') {
    for (const a of r.assertions) {
      if (a.ok) continue;
      const spec = scenario.expect.find((e) => e.index === a.index);
      const pod = spec && 'pod' in spec && typeof spec.pod === 'string' ? spec.pod : undefined;
      add({ oracle: 'expect', name: a.kind, role: roleOf(pod), event: a.kind, pod: pod ?? '' });
    }
  }
  return out;
}

/** The last event about the same pod before the violation (what made it visible). */
function preceding(trace: readonly TraceRecord[], v: TraceRecord): TraceRecord {
  let i = trace.indexOf(v);
  while (--i >= 0) {
    const r = trace[i];
    if (r.type === 'invariant.violation' || r.type === 'log') continue;
    if (v.pod === undefined || r.pod === v.pod) return r;
  }
  return { t: 0, seq: -1, actor: 'kss', type: 'start' } as TraceRecord;
}

/** FNV-1a, 32 bits, as 8 hex digits: short stable names for histories and finds. */
export function hash32(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Each pod's sequence of apiserver statuses (phase, conditions, container states; repeats
 *  folded), hashed with the pod's name: the coverage measure "distinct pod-status histories". */
export function statusHistories(r: RunResult): string[] {
  const byKey = new Map<string, string[]>();
  for (const w of r.world.apiserver.history) {
    let seq = byKey.get(w.key);
    if (seq === undefined) byKey.set(w.key, (seq = []));
    const st = w.object?.status;
    let s = w.object === null ? 'gone' : `${st?.phase ?? ''}`;
    if (st?.conditions) for (const c of st.conditions) s += `|${c.type}=${c.status}`;
    for (const cs of st?.containerStatuses ?? []) s += `|${cs.name}:${cs.state?.terminated ? 'T' : cs.state?.running ? 'R' : 'W'}${cs.ready ? '+' : ''}`;
    if (w.object?.metadata?.deletionTimestamp) s += '|deleting';
    if (seq[seq.length - 1] !== s) seq.push(s);
  }
  return [...byKey].map(([k, seq]) => hash32(`${k}\n${seq.join('\n')}`));
}
