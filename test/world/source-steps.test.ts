// The file source as timeline steps: removeStaticPod / addStaticPod (BZ-12's UID reuse).
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../src/index.js';

function load(body: string) {
  return loadScenario(`apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: source }\nspec:\n${body}`);
}
function run(body: string) {
  const loaded = load(body);
  if (!loaded.ok) throw new Error(loaded.issues.map((i) => `${i.line}:${i.col} ${i.message}`).join('\n'));
  return runScenario(loaded.scenario, { keepTrace: true });
}
const STATIC = `  staticPods:
    - metadata: { name: etcd, namespace: kube-system }
      spec: { terminationGracePeriodSeconds: 1, containers: [{ name: etcd, image: etcd }] }
`;
const starts = (r: ReturnType<typeof run>) => r.trace.filter((e) => e.type === 'runtime.start').map((e) => e.t);

describe('removeStaticPod / addStaticPod', () => {
  it('a removal stops the pod and deletes its mirror; an add much later starts it again with the same UID', () => {
    const r = run(`  until: 60s
  kubelet: { statusManager: current }
${STATIC}  timeline:
    - { at: 5s, removeStaticPod: { pod: kube-system/etcd-node-a } }
    - { at: 20s, addStaticPod: { pod: kube-system/etcd-node-a } }
`);
    expect(r.trace.filter((e) => e.type === 'mirror.delete').length).toBe(1);
    expect(r.trace.filter((e) => e.type === 'mirror.create').length).toBe(2);
    const s = starts(r);
    expect(s.length).toBe(2);
    expect(s[1]).toBeGreaterThanOrEqual(20_000);
    const uids = new Set(r.trace.filter((e) => e.type === 'runtime.start').map((e) => e.uid));
    expect(uids.size).toBe(1);
  });

  it('while the kubelet is down, the restarted kubelet reads the directory as it is', () => {
    const r = run(`  until: 30s
  kubelet: { statusManager: current }
${STATIC}  timeline:
    - { at: 5s, restartKubelet: { downFor: 5s } }
    - { at: 6s, removeStaticPod: { pod: kube-system/etcd-node-a } }
`);
    // the container the first kubelet started is an orphan to the second, which stops it
    expect(starts(r)).toEqual([expect.any(Number)]);
    expect(r.trace.some((e) => e.type === 'runtime.kill' && e.t >= 10_000)).toBe(true);
  });

  it('a re-add during the termination restarts the pod once it has stopped (#104847), or never (reverted)', () => {
    const body = (revert: string) => `  until: 60s
  kubelet: { statusManager: transitional${revert} }
${STATIC}      x-kss: { containers: { etcd: [{ run: forever, term: 500ms }] } }
  timeline:
    - { at: 5s, removeStaticPod: { pod: kube-system/etcd-node-a } }
    - { at: 5200ms, addStaticPod: { pod: kube-system/etcd-node-a } }
`;
    expect(starts(run(body(''))).length).toBe(2);
    expect(starts(run(body(', revertFixes: [noUIDReuseRestart]'))).length).toBe(1);
  });

  it('refuses a pod that is not static, and a removal or add that changes nothing', () => {
    const loaded = load(`  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 1s, removeStaticPod: { pod: web } }
`);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.issues[0].message).toContain('is not a static pod');
    const r = run(`  until: 10s
${STATIC}  timeline:
    - { at: 1s, addStaticPod: { pod: kube-system/etcd-node-a } }
    - { at: 2s, removeStaticPod: { pod: kube-system/etcd-node-a } }
    - { at: 3s, removeStaticPod: { pod: kube-system/etcd-node-a } }
`);
    expect(r.stepErrors.map((e) => e.message)).toEqual([
      'the manifest of kube-system/etcd-node-a is already in the manifest directory at 1000ms',
      'the manifest of kube-system/etcd-node-a is already out of the manifest directory at 3000ms',
    ]);
  });
});

describe('scrapeKubeletPods', () => {
  const body = (revert: boolean, scrape: string) => `  until: 120s
  kubelet: { statusManager: classic${revert ? ', revertFixes: [getPodsOverwritesStatus]' : ''} }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx, readinessProbe: { httpGet: { path: /healthz, port: 8080 } } }] }
  timeline:
    - { at: 1s, scrapeKubeletPods: ${scrape} }
    - { at: 3s, ready: { pod: web, container: main, value: true } }
    - { at: 20s, partition: {} }
    - { at: 60s, externalPatch: { pod: web, status: { conditions: [{ type: Ready, status: "False", lastTransitionTime: "@60s" }] } } }
    - { at: 70s, repair: {} }
`;
  const reconciled = (r: ReturnType<typeof run>) => r.trace.some((e) => e.type === 'log' && String(e.msg ?? e.message ?? '').includes('Pod status is inconsistent with cached status'));
  it('reads that overwrite every pod (#77661) hide the controller\'s Ready=False from the reconcile', () => {
    expect(reconciled(run(body(true, '{ every: 5s }')))).toBe(false);
    expect(reconciled(run(body(false, '{ every: 5s }')))).toBe(true);
  });
  it('stops after `for`, and a single read before the repair changes nothing', () => {
    expect(reconciled(run(body(true, '{ every: 5s, for: 30s }')))).toBe(true);
    expect(reconciled(run(body(true, '{}')))).toBe(true);
  });
});
