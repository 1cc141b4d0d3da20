// runScenario(..., { keepTrace: false }) gives the same verdict and the same assertion results as
// a run that keeps its trace: assertions gather the records they read themselves.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadScenarioFile, runScenario } from '../../src/index.js';
import { discoverScenarios } from '../../src/testing/discover.js';

const REPO = join(import.meta.dirname, '..', '..');
const files = discoverScenarios(['scenarios'], REPO).files;

describe('keepTrace: false', () => {
  it('changes no verdict and no assertion result of any shipped scenario', () => {
    const differ: string[] = [];
    let eventsAssertions = 0;
    for (const f of files) {
      const loaded = loadScenarioFile(f.abs);
      if (!loaded.ok) throw new Error(`${f.display} does not load`);
      eventsAssertions += loaded.scenario.expect.filter((a) => a.kind === 'events' || a.kind === 'requests' || a.kind === 'log').length;
      const kept = runScenario(loaded.scenario);
      const lean = runScenario(loaded.scenario, { keepTrace: false });
      expect(lean.trace).toHaveLength(0);
      const view = (r: typeof kept) => JSON.stringify({ v: r.verdict, a: r.assertions, u: r.unexpectedViolations.map((v) => [v.invariant, v.pod, v.t]) });
      if (view(kept) !== view(lean)) differ.push(`${f.display}: ${kept.verdict} kept, ${lean.verdict} with keepTrace false`);
    }
    expect(eventsAssertions).toBeGreaterThan(100); // the trace-reading assertions are really exercised
    expect(differ).toEqual([]);
  }, 300_000);
});
