// The two invariants the zoo's faults added: terminated-container-started (its judgement of one
// version) and bounded-staleness (through runs: its bound follows the client's queue).
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../src/index.js';
import { succeededWithoutStarting } from '../../src/invariants/terminated-container-started.js';
import type { Pod } from '../../src/model/pod.js';

const pod = (terminated: Record<string, unknown>, init = false): Pod => {
  const statuses = [{ name: 'c', state: { terminated } }];
  return { metadata: { name: 'p' }, status: init ? { initContainerStatuses: statuses } : { containerStatuses: statuses } } as unknown as Pod;
};

describe('terminated-container-started', () => {
  it('flags exit 0 at the Unix epoch (a container the CRI never started), regular or init', () => {
    expect(succeededWithoutStarting(pod({ exitCode: 0, startedAt: '1970-01-01T00:00:00Z' }))).toContain('container c reported terminated with exit 0');
    expect(succeededWithoutStarting(pod({ exitCode: 0, startedAt: '1970-01-01T00:00:00Z' }, true))).toContain('init container c');
  });
  it('leaves failures, real starts and TerminatePod inferences alone', () => {
    expect(succeededWithoutStarting(pod({ exitCode: 128, reason: 'StartError', startedAt: '1970-01-01T00:00:00Z' }))).toBeUndefined();
    expect(succeededWithoutStarting(pod({ exitCode: 0, startedAt: '2026-01-01T00:00:01Z' }))).toBeUndefined();
    expect(succeededWithoutStarting(pod({ exitCode: 0 }))).toBeUndefined();
  });
});

function run(body: string) {
  const loaded = loadScenario(`apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n${body}`);
  if (!loaded.ok) throw new Error(loaded.issues[0].message);
  return runScenario(loaded.scenario, { keepTrace: true });
}
const violations = (r: ReturnType<typeof run>) => r.trace.filter((e) => e.type === 'invariant.violation' && e.invariant === 'bounded-staleness');

describe('bounded-staleness', () => {
  const pods = (qps: number, bound: string) => `  until: 60s
  invariants: [bounded-staleness]
  kubelet: { statusManager: current, apiQPS: ${qps}, apiBurst: 1${bound} }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
      x-kss: { replicas: 20 }
`;
  it('judges nothing without stalenessBound', () => {
    expect(violations(run(pods(1, '')))).toEqual([]);
  });
  it('a slow client stretches the bound: 20 pods at 1 QPS take some 80 s of requests, all explained', () => {
    expect(violations(run(pods(1, ', stalenessBound: 1s')))).toEqual([]);
  });
  it('a partition with an idle client is staleness: reported once per pod, due the bound after the queue drained', () => {
    const r = run(`  until: 60s
  invariants: [bounded-staleness]
  kubelet: { statusManager: current, stalenessBound: 5s }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 500ms, partition: {} }
    - { at: 30s, repair: {} }
`);
    const v = violations(r);
    expect(v.map((e) => e.pod)).toEqual(['default/web']);
    expect(String(v[0].message)).toContain('had not reached the apiserver');
  });
});

describe('ready-stable-across-restart', () => {
  const restart = (gate: boolean, extra = '') => `  until: 40s
  invariants: [ready-stable-across-restart]
  kubelet: { statusManager: current, featureGates: { ChangeContainerStatusOnKubeletRestart: ${gate} } }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx, readinessProbe: { httpGet: { path: /, port: 80 } } }] }
      x-kss: { containers: { main: [{ run: forever, ready: true }] } }
  timeline:
    - { at: 15s, restartKubelet: { downFor: 1s } }
${extra}`;
  const flips = (r: ReturnType<typeof run>) => r.trace.filter((e) => e.type === 'invariant.violation' && e.invariant === 'ready-stable-across-restart');
  it('flags the not-ready write of a kubelet that restarted with its probes reset', () => {
    const v = flips(run(restart(true)));
    expect(v.map((e) => [e.t, e.pod])).toEqual([[16004, 'default/web']]);
    expect(String(v[0].message)).toContain('went ready true → false while the same instance runs');
  });
  it('is kept by KEP-4781 (the previous Ready stands until a probe reports)', () => {
    expect(flips(run(restart(false)))).toEqual([]);
  });
  it('a probe whose answer changed is a cause: the flip towards it is not counted', () => {
    expect(flips(run(restart(false, '    - { at: 17s, ready: { pod: web, container: main, value: false } }\n')))).toEqual([]);
  });
  it('judges nothing without the simulated runtime (no probe answers)', () => {
    const r = run(`  until: 20s
  invariants: [ready-stable-across-restart]
  kubelet: { runtime: none, statusManager: current }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 1s, setPodStatus: { pod: web, status: { phase: Running, containerStatuses: [{ name: main, containerID: "containerd://a", ready: true, state: { running: {} } }] } } }
    - { at: 5s, restartKubelet: {} }
    - { at: 6s, setPodStatus: { pod: web, status: { phase: Running, containerStatuses: [{ name: main, containerID: "containerd://a", ready: false, state: { running: {} } }] } } }
`);
    expect(flips(r)).toEqual([]);
  });
});
