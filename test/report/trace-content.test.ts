// The trace carries what was written and what was stored (issue 10): every write record has the
// object as stored at its resourceVersion, a patch has what it wrote, a request what it sent, a
// status.set what it cached; and the golden, a projection of the trace, is the same whether built
// from the run's store or from the trace records alone.
import { describe, expect, it } from 'vitest';
import { files, run } from './repo-scenarios.js';
import { goldenSource } from '../../src/testing/golden-source.js';
import { goldenLines, WRITE_EVENTS } from '../../src/report/golden.js';
import { prettyLines } from '../../src/report/pretty.js';


describe('the trace carries what was written and stored', () => {
  it("an externalPatch's content is in the trace and in the pretty timeline", () => {
    const r = run('scenarios/behaviours/d-19-readiness-gate-holds-ready-false.yaml');
    const ext = r.trace.filter((x) => x.type === 'api.patch' && x.actor !== 'kubelet');
    expect(ext.length).toBeGreaterThan(0);
    expect(ext[0].wrote).toBeTypeOf('object');
    const lines = [...prettyLines(r.trace, { color: false })].filter((l) => l.includes('api.patch') && !l.includes(' kubelet '));
    expect(lines[0]).toMatch(/wrote: /);
  });

  it("a kubelet PATCH line says what it sent and what changed in the cache", () => {
    const r = run('scenarios/getting-started.yaml');
    const lines = [...prettyLines(r.trace, { color: false })];
    expect(lines.find((l) => l.includes('api.request') && l.includes('verb=patch'))).toMatch(/sent: .*Ready=False/);
    expect(lines.find((l) => l.includes('status.set') && l.includes('version=2'))).toMatch(/→ phase Pending→Running/);
  });
});
