// Every scenario in scenarios/, run once, through every view: the golden built from the trace alone
// equals the one built from the store (the trace carries what was written and stored); the Mermaid
// diagram is accepted by Mermaid's own parser (mermaid.parse) under its default maxTextSize; the
// Chrome trace follows the trace-event rules; the ShiViz log's vector clocks grow on their hosts.
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadScenarioFile, runScenario } from '../../src/index.js';
import { discoverScenarios } from '../../src/testing/discover.js';
import { goldenSource } from '../../src/testing/golden-source.js';
import { goldenLines, WRITE_EVENTS } from '../../src/report/golden.js';
import { mermaidLines, MERMAID_MAX_TEXT } from '../../src/report/mermaid.js';
import { chromeTraceText } from '../../src/report/chrome-trace.js';
import { shivizEvents, shivizText, SHIVIZ_REGEX } from '../../src/report/shiviz.js';
import { chromeRuleBreaks } from './chrome-rules.js';

const REPO = join(import.meta.dirname, '..', '..');
const files = discoverScenarios(['scenarios'], REPO).files.map((f) => f.display);
let parse: (text: string) => Promise<{ diagramType: string } | false>;

beforeAll(async () => {
  const { default: mermaid } = await import('mermaid');
  mermaid.initialize({ startOnLoad: false });
  parse = (text) => mermaid.parse(text) as Promise<{ diagramType: string } | false>;
});

describe('every scenario through every view', () => {
  it('finds the scenarios', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(files)('%s', async (file) => {
    const loaded = loadScenarioFile(join(REPO, file));
    if (!loaded.ok) throw new Error(`${file} does not load`);
    const r = runScenario({ ...loaded.scenario, file });
    // The trace carries what was written and stored: the golden is the same from the trace alone.
    const src = goldenSource(r);
    expect(goldenLines({ ...src, storedAt: undefined })).toEqual(goldenLines(src));
    for (const rec of r.trace) {
      if (WRITE_EVENTS.has(rec.type)) expect(rec, `seq ${rec.seq}`).toHaveProperty('stored');
      if (rec.type === 'status.set') expect(rec.cached, `seq ${rec.seq}`).toBeTypeOf('object');
      if (rec.type === 'api.request' && rec.verb === 'patch') expect(rec.sent, `seq ${rec.seq}`).toBeTypeOf('object');
    }
    // Mermaid.
    const text = mermaidLines(r.trace).join('\n');
    expect(text.length).toBeLessThan(MERMAID_MAX_TEXT);
    const parsed = await parse(text);
    expect(parsed && parsed.diagramType).toBe('sequence');
    // Chrome trace events.
    const doc = JSON.parse(chromeTraceText(r.trace, { scenario: r.scenario.name, seed: r.seed, variant: r.variant, untilMs: r.untilMs }));
    expect(doc.displayTimeUnit).toBe('ms');
    expect(chromeRuleBreaks(doc)).toEqual([]);
    // ShiViz: each host's clock counts its own events; the log parses with its own regex.
    const evs = shivizEvents(r.trace);
    const last = new Map<string, number>();
    for (const e of evs) {
      const own = e.clock[e.host];
      expect(own, e.text).toBe((last.get(e.host) ?? 0) + 1);
      last.set(e.host, own);
    }
    const log = shivizText(r.trace);
    expect(log.split('\n')[0]).toBe(SHIVIZ_REGEX);
    const re = new RegExp(SHIVIZ_REGEX, 'g');
    expect([...log.slice(log.indexOf('\n\n') + 2).matchAll(re)].length).toBe(evs.length);
  });
});
