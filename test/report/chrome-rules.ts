// The Chrome trace-event format's rules (what Perfetto and chrome://tracing read), as a check.
import type { ChromeEvent } from '../../src/report/chrome-trace.js';

/** The format's rules, as a list of broken ones. */
export function chromeRuleBreaks(doc: { traceEvents: ChromeEvent[]; displayTimeUnit?: string }): string[] {
  const bad: string[] = [];
  const names = new Map<string, string>();
  const used = new Set<string>();
  const open = new Map<string, number>();
  for (const e of doc.traceEvents) {
    if (!['X', 'B', 'E', 'i', 'C', 'M'].includes(e.ph)) bad.push(`unknown ph ${e.ph}`);
    if (!Number.isInteger(e.ts) || e.ts < 0) bad.push(`ts not whole microseconds: ${e.ts}`);
    if (!Number.isInteger(e.pid) || !Number.isInteger(e.tid)) bad.push(`pid/tid not integers in ${e.name}`);
    const key = `${e.pid}/${e.tid}`;
    if (e.ph === 'M' && e.name === 'thread_name') {
      if (names.has(key)) bad.push(`thread ${key} named twice`);
      names.set(key, String(e.args?.name));
    } else if (e.ph === 'X') {
      if (!Number.isInteger(e.dur) || e.dur! < 0) bad.push(`X without a whole dur: ${e.name}`);
      used.add(key);
    } else if (e.ph === 'B') open.set(key, (open.get(key) ?? 0) + 1);
    else if (e.ph === 'E') open.set(key, (open.get(key) ?? 0) - 1);
    else if (e.ph === 'i') {
      if (!['g', 'p', 't'].includes(e.s ?? 't')) bad.push(`instant scope ${e.s}`);
      used.add(key);
    } else if (e.ph === 'C') {
      for (const v of Object.values(e.args ?? {})) if (typeof v !== 'number') bad.push(`counter ${e.name} with a non-number`);
    }
  }
  for (const [k, n] of open) if (n !== 0) bad.push(`unmatched B/E on ${k}`);
  for (const k of used) if (!names.has(k)) bad.push(`thread ${k} has no thread_name`);
  if (new Set(names.values()).size !== names.size) bad.push('two threads share a name');
  return bad;
}

