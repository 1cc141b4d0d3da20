// A pod status in a few words, for people: the phase, each condition's truth, each container's
// state ("phase=Running Ready=True main=running"), and what changed between two statuses. Shared by
// the pretty timeline, the Mermaid diagram, the HTML view and the explanations. Reads plain JSON
// values (trace records), never the world.

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/** A container state in one word or two: waiting(CrashLoopBackOff), running, terminated(0). */
export function containerStateText(state: unknown): string {
  const s = obj(state);
  if (s === undefined) return '?';
  const w = obj(s.waiting);
  if (w !== undefined) return w.reason ? `waiting(${String(w.reason)})` : 'waiting';
  if (obj(s.running) !== undefined) return 'running';
  const t = obj(s.terminated);
  if (t !== undefined) return `terminated(${String(t.exitCode ?? '?')})`;
  return '?';
}

/** [name, text] for each status of a list (containerStatuses and the like). */
function containerWords(list: unknown, prefix: string): Array<[string, string]> {
  if (!Array.isArray(list)) return [];
  const out: Array<[string, string]> = [];
  for (const c of list) {
    const o = obj(c);
    if (o === undefined) continue;
    out.push([`${prefix}${String(o.name ?? '?')}`, containerStateText(o.state) + (o.ready === true ? '+ready' : '')]);
  }
  return out;
}

const KNOWN = new Set(['phase', 'conditions', 'initContainerStatuses', 'containerStatuses', 'reason', 'message']);

/** The status's words as [key, value] pairs: phase, each condition, each container, reason, message,
 *  and "+" with the names of the other fields present. */
function statusWords(status: unknown): Array<[string, string]> {
  const s = obj(status);
  if (s === undefined) return [];
  const parts: Array<[string, string]> = [];
  if (s.phase !== undefined) parts.push(['phase', String(s.phase)]);
  if (Array.isArray(s.conditions)) {
    for (const c of s.conditions) {
      const o = obj(c);
      if (o !== undefined && o.type !== undefined && o.status !== undefined) parts.push([String(o.type), String(o.status)]);
    }
  }
  parts.push(...containerWords(s.initContainerStatuses, 'init:'));
  parts.push(...containerWords(s.containerStatuses, ''));
  if (s.reason !== undefined) parts.push(['reason', String(s.reason)]);
  if (s.message !== undefined) {
    const m = JSON.stringify(s.message);
    parts.push(['message', m.length > 40 ? m.slice(0, 38) + '…"' : m]);
  }
  const other = Object.keys(s).filter((k) => !KNOWN.has(k) && !k.startsWith('$'));
  if (other.length > 0) parts.push(['+', other.sort().join(',')]);
  return parts;
}

/** The status (or a status patch: only the parts it has) in words. */
export function statusText(status: unknown): string {
  if (obj(status) === undefined) return String(status);
  const parts = statusWords(status).map(([k, v]) => (k === '+' ? `+${v}` : `${k}=${v}`));
  return parts.length > 0 ? parts.join(' ') : '(empty)';
}

/** What differs between two statuses, in words: ["phase Running→Failed", "Ready True→False"].
 *  Only what statusText shows is compared (timestamps and ids are left out). */
export function statusChanges(before: unknown, after: unknown): string[] {
  const a = new Map(statusWords(before).filter(([k]) => k !== '+'));
  const b = new Map(statusWords(after).filter(([k]) => k !== '+'));
  const out: string[] = [];
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k);
    const y = b.get(k);
    if (x !== y) out.push(`${k} ${x ?? '∅'}→${y ?? '∅'}`);
  }
  return out;
}

/** The keys (phase, condition types, container names) whose words differ between two statuses:
 *  what the HTML panel highlights. */
export function changedKeys(before: unknown, after: unknown): string[] {
  return statusChanges(before, after).map((c) => c.slice(0, c.indexOf(' ')));
}

/** The status's words as [key, value] pairs (what statusText joins): for views that lay them out. */
export function statusWordPairs(status: unknown): Array<[string, string]> {
  return statusWords(status);
}
