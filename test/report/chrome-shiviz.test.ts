// --trace-format chrome follows the trace-event format's rules (what Perfetto and chrome://tracing
// read): microsecond integer timestamps, complete events with a duration, one pid/tid naming per
// actor, counters with numeric values, violations as global instants. --trace-format shiviz gives
// every event a vector clock that grows on its host and carries sends to receives.
import { describe, expect, it } from 'vitest';
import { files, run } from './repo-scenarios.js';
import { chromeTraceText, type ChromeEvent } from '../../src/report/chrome-trace.js';
import { chromeRuleBreaks } from './chrome-rules.js';
import { shivizEvents, shivizText, SHIVIZ_REGEX, shivizMulti } from '../../src/report/shiviz.js';


describe('--trace-format chrome', () => {
  it('the rule check finds a broken trace', () => {
    expect(chromeRuleBreaks({ traceEvents: [{ name: 'x', ph: 'X', ts: 1.5, pid: 1, tid: 9 }] })).toHaveLength(3);
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
  it('the apiserver serving a PATCH has seen the status manager sending it', () => {
    const evs = shivizEvents(run('scenarios/getting-started.yaml').trace);
    const send = evs.findIndex((e) => e.host === 'status' && / api\.request default\/job: patch/.test(e.text));
    const served = evs.findIndex((e, i) => i > send && e.host === 'apiserver' && / api\.patch default\/job/.test(e.text));
    expect(send).toBeGreaterThan(0);
    expect(evs[served].clock.status).toBeGreaterThanOrEqual(evs[send].clock.status);
    expect(shivizMulti([{ title: 'a', trace: [] }, { title: 'b', trace: [] }])).toContain('=== b ===');
  });
});
