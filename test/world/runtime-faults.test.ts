// The runtime faults of the bug zoo as timeline steps: forgetContainer and wipeRuntime.
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../src/index.js';

function run(body: string) {
  const text = `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: faults }\nspec:\n${body}`;
  const loaded = loadScenario(text);
  if (!loaded.ok) throw new Error(loaded.issues.map((i) => `${i.line}:${i.col} ${i.message}`).join('\n'));
  return runScenario(loaded.scenario, { keepTrace: true });
}
const of = (r: ReturnType<typeof run>, type: string) => r.trace.filter((e) => e.type === type);

describe('forgetContainer', () => {
  it('a container the kubelet is stopping vanishes with no exit record: the stop returns, nothing exits', () => {
    const r = run(`  until: 60s
  pods:
    - metadata: { name: web }
      spec: { terminationGracePeriodSeconds: 30, containers: [{ name: main, image: nginx }] }
      x-kss: { containers: { main: [{ run: forever, term: ignore }] } }
  timeline:
    - { at: 5s, delete: { pod: web } }
    - { at: 8s, forgetContainer: { pod: web, container: main } }
`);
    expect(of(r, 'runtime.forget')).toMatchObject([{ t: 8000, container: 'main', running: true, fault: 'container' }]);
    expect(of(r, 'runtime.exit')).toEqual([]);
    expect(of(r, 'runtime.kill').filter((e) => e.signal === 'SIGKILL')).toEqual([]);
    // the pod worker's stop returned at 8 s, long before the 35 s deadline: the pod is gone by then
    const gone = r.trace.find((e) => e.type === 'api.delete' && e.actor === 'kubelet' && e.removed === true);
    expect(gone?.t).toBeLessThan(35_000);
  });

  it('refuses a container the runtime does not have', () => {
    const r = run(`  until: 10s
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 1s, forgetContainer: { pod: web, container: main } }
    - { at: 2s, forgetContainer: { pod: web, container: main } }
`);
    expect(r.stepErrors.map((e) => e.message)).toEqual(['the runtime has no container main of pod default/web at 2000ms']);
    expect(r.verdict).toBe('fail');
  });
});

describe('wipeRuntime', () => {
  it('while the kubelet is down: every container is gone; the new kubelet starts them again', () => {
    const r = run(`  until: 30s
  pods:
    - metadata: { name: a }
      spec: { containers: [{ name: main, image: nginx }] }
    - metadata: { name: b }
      spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
      x-kss: { containers: { main: [{ run: 1s, exit: 0 }] } }
  timeline:
    - { at: 5s, restartKubelet: { downFor: 5s } }
    - { at: 7s, wipeRuntime: {} }
`);
    expect(of(r, 'runtime.forget').map((e) => [e.pod, e.running, e.fault]).sort()).toEqual([
      ['default/a', true, 'wipe'],
      ['default/b', false, 'wipe'],
    ]);
    // a (Always) is started again; b (Never, finished) is not
    expect(of(r, 'runtime.start').filter((e) => e.t >= 10_000).map((e) => e.pod)).toEqual(['default/a']);
  });

  it('needs runtime: simulated', () => {
    const text = `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: x }\nspec:\n  kubelet: { runtime: none }\n  timeline:\n    - { at: 1s, wipeRuntime: {} }\n`;
    const loaded = loadScenario(text);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.issues[0].message).toContain('needs spec.kubelet.runtime: simulated');
  });
});
