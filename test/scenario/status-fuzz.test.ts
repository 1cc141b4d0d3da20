// Statuses of every shape the Kubernetes schema allows — drawn from the Pod schema itself, with
// odd but well-typed values (empty names, unknown containers, duplicate conditions, negative
// counts, several states at once) — given to setPodStatus, externalPatch and as the initial status,
// under both generations: each scenario loads (it is schema-valid) and its run must not throw.
// `npm run fuzz` runs 500 of them; KSS_STATUS_FUZZ_RUNS sets the count.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POD_TYPES } from '../../src/scenario/k8s/pod-schema.data.js';
import { loadScenario } from '../../src/scenario/index.js';
import { runScenario } from '../../src/world/run.js';

const LIST_KEYS: Record<string, string> = {
  'core.v1.PodCondition': 'type',
  'core.v1.PodIP': 'ip',
  'core.v1.HostIP': 'ip',
  'core.v1.PodResourceClaimStatus': 'name',
  'core.v1.ContainerStatus': 'name',
  'meta.v1.OwnerReference': 'uid',
};
const STRINGS = ['', 'main', 'side', 'ghost', 'Ready', 'ContainersReady', 'True', 'False', 'Unknown', 'x'];
const TIMES = ['@0s', '@5s', '@-1m', '@1.250s', '2026-01-01T00:00:00Z', '1999-01-01T00:00:00Z'];

/** An arbitrary value of a schema type, `depth` levels at most. */
function arb(expr: string, depth: number): fc.Arbitrary<unknown> {
  if (expr.startsWith('[]')) return depth <= 0 ? fc.constant([]) : fc.array(arb(expr.slice(2), depth - 1), { maxLength: 3 });
  if (expr.startsWith('{}')) return fc.dictionary(fc.constantFrom('a', 'cpu', 'memory'), arb(expr.slice(2), depth - 1), { maxKeys: 2 });
  if (expr.startsWith('enum:')) return fc.constantFrom(...expr.slice(5).split('|'));
  switch (expr) {
    case 'string':
      return fc.constantFrom(...STRINGS);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return fc.integer({ min: -3, max: 300 });
    case 'time':
      return fc.constantFrom(...TIMES);
    case 'string|number':
      return fc.oneof(fc.constantFrom('1', '100m', '1Gi'), fc.integer({ min: 0, max: 4 }));
    case 'any':
      return fc.constant({});
  }
  if (depth <= 0) return fc.constant({});
  const fields = POD_TYPES[expr];
  const key = LIST_KEYS[expr]; // the key an item of a merged list must carry (the loader requires it)
  const shape = Object.fromEntries(Object.entries(fields).map(([k, t]) => [k, k === key && t === 'string' ? fc.constantFrom(...STRINGS.slice(1)) : arb(t, depth - 1)]));
  return fc.record(shape, { requiredKeys: key ? [key] : [] });
}

const statusArb = arb('core.v1.PodStatus', 5);
// Each case is a whole run under both kinds of runtime: dearer than a mutated document.
const RUNS = Number(process.env.KSS_STATUS_FUZZ_RUNS ?? (process.env.npm_lifecycle_event === 'fuzz' ? 500 : 40));

function scenario(initial: unknown, set: unknown, patch: unknown, policy: string, variant: string, runtime: string): string {
  const j = JSON.stringify;
  return `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: status-fuzz }
spec:
  until: 20s
  kubelet: { statusManager: ${variant}, runtime: ${runtime} }
  pods:
    - metadata: { name: p }
      spec: { restartPolicy: ${policy}, initContainers: [{ name: side, image: i, restartPolicy: Always }], containers: [{ name: main, image: busybox, readinessProbe: {} }] }
      status: ${j(initial)}
  timeline:
    - { at: 1s, setPodStatus: { pod: p, status: ${j(set)} } }
    - { at: 2s, externalPatch: { pod: p, status: ${j(patch)} } }
    - { at: 3s, setContainerReadiness: { pod: p, container: main, ready: true } }
    - { at: 4s, terminatePod: { pod: p } }
    - { at: 5s, delete: { pod: p, gracePeriodSeconds: 2 } }
`;
}

describe('statuses of every schema-valid shape', () => {
  it(`load, and their runs do not throw (${RUNS} scenarios)`, { timeout: Math.max(60_000, RUNS * 300) }, () => {
    fc.assert(
      fc.property(
        statusArb,
        statusArb,
        statusArb,
        fc.constantFrom('Always', 'OnFailure', 'Never'),
        fc.constantFrom('current', 'classic'),
        fc.constantFrom('simulated', 'none'),
        (initial, set, patch, policy, variant, runtime) => {
          const r = loadScenario(scenario(initial, set, patch, policy, variant, runtime), 'status-fuzz.yaml');
          if (!r.ok) throw new Error(r.issues.map((i) => `${i.code} ${i.path}: ${i.message}`).join('\n'));
          const run = runScenario(r.scenario, { keepTrace: false, maxEvents: 20_000 });
          expect(['until', 'idle', 'runaway']).toContain(run.end);
        },
      ),
      { numRuns: RUNS, seed: Number(process.env.KSS_FUZZ_SEED ?? 20261202) },
    );
  });
});
