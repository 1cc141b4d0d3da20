// The predicate admit handler's resource checks (predicate-admit.ts): resource.PodRequests and
// fitsRequest's first failure, and `spec.kubelet.allocatable` in the loader.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/index.js';
import { admitByResources, podRequests } from '../../../src/kubelet/node/predicate-admit.js';
import type { Pod } from '../../../src/model/pod.js';

const c = (name: string, requests?: Record<string, string>, extra: object = {}) => ({ name, image: 'img', ...(requests ? { resources: { requests } } : {}), ...extra });
const pod = (spec: object): Pod => ({ metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { containers: [], ...spec } }) as Pod;

describe('podRequests (resource.PodRequests)', () => {
  it('sums the regular containers, takes the larger init container, adds the overhead; a limit stands in for a missing request', () => {
    const p = pod({
      initContainers: [c('init', { cpu: '2', memory: '64Mi' })],
      containers: [c('a', { cpu: '500m' }), { name: 'b', image: 'img', resources: { limits: { cpu: '250m', memory: '1Gi' } } }],
      overhead: { cpu: '100m' },
    });
    expect(podRequests(p, true)).toEqual({ milliCPU: 2100, memory: 1024 ** 3, ephemeralStorage: 0 });
  });

  it('a sidecar counts for the whole life of the pod and under every init container after it', () => {
    const p = pod({
      initContainers: [c('proxy', { cpu: '300m' }, { restartPolicy: 'Always' }), c('migrate', { cpu: '1' })],
      containers: [c('app', { cpu: '500m' })],
    });
    expect(podRequests(p, true).milliCPU).toBe(1300); // max(app + proxy = 800, migrate + proxy = 1300)
    expect(podRequests(p, false).milliCPU).toBe(1000); // (gate off: a plain init container)
  });

  it('rounds up to whole millicores and bytes (Quantity.MilliValue / Value)', () => {
    expect(podRequests(pod({ containers: [c('a', { cpu: '0.0001', memory: '1.5' })] }), true)).toEqual({ milliCPU: 1, memory: 2, ephemeralStorage: 0 });
  });
});

describe('admitByResources (fitsRequest)', () => {
  const others = [pod({ containers: [c('x', { cpu: '1' })] })];
  it('counts pods first, then cpu, memory, ephemeral-storage; the first failure is the answer', () => {
    const big = pod({ containers: [c('a', { cpu: '4', memory: '8Gi' })] });
    expect(admitByResources({ pods: 1, cpu: '2' }, big, others, true)).toEqual({ reason: 'OutOfpods', message: "Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1" });
    expect(admitByResources({ cpu: '2', memory: '4Gi' }, big, others, true)).toEqual({ reason: 'OutOfcpu', message: "Node didn't have enough resource: cpu, requested: 4000, used: 1000, capacity: 2000" });
    expect(admitByResources({ memory: '4Gi' }, big, others, true)?.reason).toBe('OutOfmemory');
    expect(admitByResources({ 'ephemeral-storage': '1Gi' }, pod({ containers: [c('a', { 'ephemeral-storage': '2Gi' })] }), [], true)?.reason).toBe('OutOfephemeral-storage');
  });
  it('a pod that requests nothing fits whatever the node has left (only the pod count can refuse it)', () => {
    expect(admitByResources({ cpu: '1' }, pod({ containers: [c('a')] }), others, true)).toBeUndefined();
    expect(admitByResources({ cpu: '2' }, pod({ containers: [c('a', { cpu: '1' })] }), others, true)).toBeUndefined();
  });
});

describe('spec.kubelet.allocatable', () => {
  const doc = (a: string) => `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: x }\nspec:\n  kubelet: { allocatable: ${a} }\n`;
  it('keeps the quantities as written; absent, the node has no limit', () => {
    const r = loadScenario(doc('{ cpu: 500m, memory: 2Gi, pods: 10 }'));
    expect(r.ok && r.scenario.kubelet.allocatable).toEqual({ cpu: '500m', memory: '2Gi', pods: 10 });
    const none = loadScenario('apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: x }\n');
    expect(none.ok && none.scenario.kubelet.allocatable).toBeUndefined();
  });
  it('refuses a quantity that does not parse, at its place', () => {
    const r = loadScenario(doc('{ cpu: two }'), 'x.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]).toMatchObject({ path: 'spec.kubelet.allocatable.cpu', line: 5 });
    expect(r.issues[0].message).toContain('a quantity like');
  });
});

describe('requiredNodeAffinityMatches (component-helpers nodeaffinity)', async () => {
  const { nodeLabelsOf, requiredNodeAffinityMatches } = await import('../../../src/kubelet/node/node-affinity.js');
  const labels = nodeLabelsOf('node-a', { tier: '3', disktype: 'ssd' });
  const term = (...matchExpressions: object[]) => pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions }] } } } });
  it('the kubelet\'s own labels are under the given ones; nodeSelector needs every pair', () => {
    expect(labels['kubernetes.io/hostname']).toBe('node-a');
    expect(requiredNodeAffinityMatches(pod({ nodeSelector: { disktype: 'ssd', 'kubernetes.io/os': 'linux' } }), labels, 'node-a')).toBe(true);
    expect(requiredNodeAffinityMatches(pod({ nodeSelector: { disktype: 'hdd' } }), labels, 'node-a')).toBe(false);
  });
  it('the operators, and Gt / Lt as integers', () => {
    const m = (...e: object[]) => requiredNodeAffinityMatches(term(...e), labels, 'node-a');
    expect(m({ key: 'disktype', operator: 'In', values: ['ssd', 'nvme'] })).toBe(true);
    expect(m({ key: 'gpu', operator: 'NotIn', values: ['a100'] })).toBe(true);
    expect(m({ key: 'gpu', operator: 'Exists' })).toBe(false);
    expect(m({ key: 'gpu', operator: 'DoesNotExist' })).toBe(true);
    expect(m({ key: 'tier', operator: 'Gt', values: ['2'] })).toBe(true);
    expect(m({ key: 'tier', operator: 'Lt', values: ['2'] })).toBe(false);
    expect(m({ key: 'disktype', operator: 'Gt', values: ['2'] })).toBe(false);
  });
  it('the terms are ORed; an empty term matches nothing; matchFields knows metadata.name', () => {
    const terms = (...nodeSelectorTerms: object[]) => pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } } });
    expect(requiredNodeAffinityMatches(terms({ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] }), labels, 'node-a')).toBe(true);
    expect(requiredNodeAffinityMatches(terms({}), labels, 'node-a')).toBe(false);
  });
});

describe('hostPortsFit (nodeports.Fits) and the whole admission through runs', async () => {
  const { hostPortsFit } = await import('../../../src/kubelet/node/node-affinity.js');
  const { runScenario } = await import('../../../src/index.js');
  const withPort = (hostPort: number, extra: object = {}) => pod({ containers: [{ name: 'c', image: 'img', ports: [{ containerPort: 80, hostPort, ...extra }] }] });
  it('the same port and protocol conflict on 0.0.0.0 or the same address; another protocol or address does not', () => {
    expect(hostPortsFit(withPort(8080), [withPort(8080)])).toBe(false);
    expect(hostPortsFit(withPort(8080), [withPort(8081)])).toBe(true);
    expect(hostPortsFit(withPort(8080, { protocol: 'UDP' }), [withPort(8080)])).toBe(true);
    expect(hostPortsFit(withPort(8080, { hostIP: '10.0.0.1' }), [withPort(8080, { hostIP: '10.0.0.2' })])).toBe(true);
    expect(hostPortsFit(withPort(8080, { hostIP: '10.0.0.1' }), [withPort(8080)])).toBe(false);
    expect(hostPortsFit(pod({ containers: [c('a')] }), [withPort(8080)])).toBe(true);
  });
  it('current: a second pod on a taken host port is rejected NodePorts; a pod for another OS is rejected first', () => {
    const loaded = loadScenario(`apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  until: 20s\n  pods:\n    - metadata: { name: a }\n      spec: { containers: [{ name: main, image: nginx, ports: [{ containerPort: 80, hostPort: 8080 }] }] }\n    - metadata: { name: b }\n      spec: { containers: [{ name: main, image: nginx, ports: [{ containerPort: 80, hostPort: 8080 }] }] }\n      x-kss: { createAt: 1s }\n    - metadata: { name: win }\n      spec: { os: { name: windows }, containers: [{ name: main, image: iis }] }\n`);
    if (!loaded.ok) throw new Error(loaded.issues[0].message);
    const r = runScenario(loaded.scenario, { keepTrace: true });
    const status = (n: string) => r.world.apiserver.peek('default', n)!.status!;
    expect(status('a').phase).toBe('Running');
    expect([status('b').reason, status('b').message]).toEqual(['NodePorts', "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports"]);
    expect([status('win').reason, status('win').message]).toEqual(['PodOSNotSupported', "Pod was rejected: Failed to admit pod as the OS field doesn't match node OS"]);
  });
});

describe('labelNode', async () => {
  const { runScenario } = await import('../../../src/index.js');
  const run = (steps: string) => {
    const loaded = loadScenario(`apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  until: 20s\n  nodeLifecycle: {}\n  nodes:\n    - { name: node-a, labels: { disktype: ssd } }\n  pods:\n    - metadata: { name: late }\n      spec: { nodeName: node-a, nodeSelector: { disktype: nvme }, containers: [{ name: main, image: nginx }] }\n      x-kss: { createAt: 5s }\n  timeline:\n${steps}`);
    if (!loaded.ok) throw new Error(loaded.issues[0].message);
    return runScenario(loaded.scenario, { keepTrace: true });
  };
  it('sets a label the kubelet admits against from then on; removing one the node lacks is a step error', () => {
    const set = run('    - { at: 1s, labelNode: { key: disktype, value: nvme } }\n');
    expect(set.world.apiserver.peek('default', 'late')!.status!.phase).toBe('Running');
    expect(set.world.apiserver.nodes.node('node-a')!.labels).toEqual({ disktype: 'nvme' });
    const unset = run('    - { at: 1s, labelNode: { key: gpu, value: null } }\n');
    expect(unset.world.stepErrors.map((e) => e.message)).toEqual([expect.stringContaining('label "gpu" not found on node node-a')]);
    expect(unset.world.apiserver.peek('default', 'late')!.status!.reason).toBe('NodeAffinity');
  });
});
