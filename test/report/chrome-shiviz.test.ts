// --trace-format chrome follows the trace-event format's rules (what Perfetto and chrome://tracing
// read): microsecond integer timestamps, complete events with a duration, one pid/tid naming per
// actor, counters with numeric values, violations as global instants. --trace-format shiviz gives
// every event a vector clock that grows on its host and carries sends to receives.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadScenarioFile, runScenario } from '../../src/index.js';
import { discoverScenarios } from '../../src/testing/discover.js';
import { chromeTraceText, type ChromeEvent } from '../../src/report/chrome-trace.js';
import { shivizEvents, shivizText, SHIVIZ_REGEX, shivizMulti } from '../../src/report/shiviz.js';

const REPO = join(import.meta.dirname, '..', '..');
const files = discoverScenarios(['scenarios'], REPO).files.map((f) => f.display);

function run(file: string) {
  const loaded = loadScenarioFile(join(REPO, file));
  if (!loaded.ok) throw new Error(`${file} does not load`);
  return runScenario({ ...loaded.scenario, file });
}

/** The format's rules, as a list of broken ones. */
function chromeRuleBreaks(doc: { traceEvents: ChromeEvent[]; displayTimeUnit?: string }): string[] {
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

describe('--trace-format chrome', () => {
  it('the rule check finds a broken trace', () => {
    expect(chromeRuleBreaks({ traceEvents: [{ name: 'x', ph: 'X', ts: 1.5, pid: 1, tid: 9 }] })).toHaveLength(3);
  });

  it.each(files)('%s: follows the trace-event rules', (file) => {
    const r = run(file);
    const doc = JSON.parse(chromeTraceText(r.trace, { scenario: r.scenario.name, seed: r.seed, variant: r.variant, untilMs: r.untilMs }));
    expect(doc.displayTimeUnit).toBe('ms');
    expect(chromeRuleBreaks(doc)).toEqual([]);
  });

  it('requests are slices from sending to answer; violations global instants; versions counters', () => {
    const r = run('scenarios/invariants/terminal-phase-sticky-broken.yaml');
    const doc = JSON.parse(chromeTraceText(r.trace, { scenario: 'x', seed: 1, variant: 'classic', untilMs: r.untilMs }));
    const ev: ChromeEvent[] = doc.traceEvents;
    const patch = ev.find((e) => e.ph === 'X' && e.name.startsWith('PATCH web: phase=Failed'))!;
    expect(patch.ts).toBe(5_002_000);
    expect(patch.dur).toBeGreaterThanOrEqual(1);
    expect(patch.args?.answer).toMatch(/^200 rv 3/);
    const v = ev.find((e) => e.ph === 'i' && e.name.startsWith('✗ terminal-phase-sticky'))!;
    expect(v.s).toBe('g');
    expect(String(v.args?.explanation)).toMatch(/^Let W1 be/);
    expect(ev.some((e) => e.ph === 'C' && e.name === 'status versions web' && e.args?.cached === 3)).toBe(true);
    expect(ev.filter((e) => e.ph === 'C' && e.name === 'pods with a status not sent yet').map((e) => e.args?.pods)).toEqual([1, 0, 1, 0, 1, 0]);
  });
});

describe('--trace-format shiviz', () => {
  it.each(files)('%s: every clock grows on its host, and a receive knows its send', (file) => {
    const r = run(file);
    const evs = shivizEvents(r.trace);
    const last = new Map<string, number>();
    for (const e of evs) {
      const own = e.clock[e.host];
      expect(own, `${file}: ${e.text}`).toBe((last.get(e.host) ?? 0) + 1);
      last.set(e.host, own);
    }
    const text = shivizText(r.trace);
    expect(text.split('\n')[0]).toBe(SHIVIZ_REGEX);
    const re = new RegExp(SHIVIZ_REGEX.replace(/\(\?<(\w+)>/g, '(?<$1>'), 'g');
    expect([...text.slice(text.indexOf('\n\n') + 2).matchAll(re)].length).toBe(evs.length);
  });

  it('the apiserver serving a PATCH has seen the status manager sending it', () => {
    const evs = shivizEvents(run('scenarios/getting-started.yaml').trace);
    const send = evs.findIndex((e) => e.host === 'status' && / api\.request default\/job: patch/.test(e.text));
    const served = evs.findIndex((e, i) => i > send && e.host === 'apiserver' && / api\.patch default\/job/.test(e.text));
    expect(send).toBeGreaterThan(0);
    expect(evs[served].clock.status).toBeGreaterThanOrEqual(evs[send].clock.status);
    expect(shivizMulti([{ title: 'a', trace: [] }, { title: 'b', trace: [] }])).toContain('=== b ===');
  });
});
