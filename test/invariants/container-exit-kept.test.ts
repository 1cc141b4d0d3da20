// container-exit-kept through whole runs: which ContainerStatusUnknown it calls a lost exit (the
// kubelet's container deletor removed a container whose exit the runtime had: BZ-26) and which it
// leaves alone (the runtime lost the container by the scenario's hand: gcContainers, or with no
// exit record at all: forgetContainer).
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../src/index.js';

function run(body: string) {
  const loaded = loadScenario(`apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  invariants: all\n${body}`);
  if (!loaded.ok) throw new Error(loaded.issues[0].message);
  const r = runScenario(loaded.scenario, { keepTrace: true });
  return { r, violations: r.trace.filter((e) => e.type === 'invariant.violation').map((e) => [e.invariant, e.pod, e.message]) };
}
const unknownIn = (r: ReturnType<typeof run>['r'], pod: string) =>
  (r.trace.filter((e) => e.type === 'api.patch' && e.pod === pod).map((e) => JSON.stringify(e.wrote)).join(' ').match(/ContainerStatusUnknown/g) ?? []).length;

describe('container-exit-kept', () => {
  it('reports the exit the container deletor removed before the status read it, with the exit it had', () => {
    const { r, violations } = run(`  until: 30s
  kubelet: { statusManager: current }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: app, image: nginx }, { name: shipper, image: busybox }] }
      x-kss: { containers: { app: [{ run: forever, term: 0s }], shipper: [{ run: forever, term: ignore }] } }
  timeline:
    - { at: 10s, evict: { pod: web, signal: memory.available } }
`);
    expect(unknownIn(r, 'default/web')).toBeGreaterThan(0);
    expect(violations).toEqual([['container-exit-kept', 'default/web', expect.stringMatching(/^container app reported ContainerStatusUnknown \(137\), though the runtime recorded its exit \(143 Error at 10\.000s, and removed it at 11\.000s; containerd:\/\/[0-9a-f]{64}\)/)]]);
  });

  it('leaves a container the gcContainers fault removed before the kubelet saw its exit', () => {
    const { r, violations } = run(`  until: 20s
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 5500ms, exit: { pod: web, container: main, code: 1 } }
    - { at: 5500ms, gcContainers: { pod: web } }
`);
    expect(unknownIn(r, 'default/web')).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  });

  it('leaves a running container the runtime lost with no exit record (forgetContainer)', () => {
    const { r, violations } = run(`  until: 30s
  kubelet: { statusManager: current }
  pods:
    - metadata: { name: job }
      spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
  timeline:
    - { at: 10s, forgetContainer: { pod: job, container: main } }
`);
    expect(unknownIn(r, 'default/job')).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  });
});
