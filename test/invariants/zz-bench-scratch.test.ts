import { it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { loadScenario } from '../../src/scenario/index.js';
import { runScenario } from '../../src/world/run.js';
function text(inv: string) {
  let pods = '';
  for (let i = 0; i < 100; i++) pods += `    - metadata: { name: p${i} }
      spec: { containers: [{ name: main, image: busybox }, { name: side, image: busybox }] }
      x-kss: { containers: { main: [{ run: ${1 + (i % 7)}s, exit: 1 }], side: [{ run: forever }] } }
`;
  return `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: bench }
spec:
  until: 10m
  invariants: ${inv}
  pods:
${pods}  timeline:
    - at: 5m
      restartKubelet: { downFor: 3s }
`;
}
it('bench', () => {
  for (const variant of ['current', 'classic'] as const) for (const inv of ['none', 'all', 'none', 'all', 'none', 'all']) {
    const r = loadScenario(text(inv));
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const t0 = performance.now();
    const res = runScenario(r.scenario, { variant });

    console.log(variant, inv, Math.round(performance.now() - t0), 'ms', res.events, 'events', res.traceEvents, 'trace', res.verdict, JSON.stringify(res.unexpectedViolations.slice(0, 4).map((v) => [v.invariant, v.pod, v.t, v.message])), res.unexpectedViolations.length);
  }
});
