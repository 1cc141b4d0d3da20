// The node lifecycle: tolerations as the DefaultTolerationSeconds admission plugin leaves them, and
// the controller end to end (heartbeats stop ⇒ Ready=Unknown ⇒ pods NotReady ⇒ taint ⇒ eviction).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadScenario } from '../../src/scenario/index.js';
import { runScenario } from '../../src/world/run.js';
import { ApiServer } from '../../src/apiserver/index.js';
import { Engine, Rng } from '../../src/engine/index.js';
import type { Pod } from '../../src/model/pod.js';
import { VClock } from '../../src/model/time.js';
import { DEFAULT_TOLERATION_SECONDS, TAINT_NODE_UNREACHABLE, toleratesTaint, tolerationsWithDefaults, zoneKey } from '../../src/model/node.js';

const unreachable = { key: TAINT_NODE_UNREACHABLE, effect: 'NoExecute' as const, timeAdded: '' };

describe('tolerations', () => {
  it('matches as Toleration.ToleratesTaint does', () => {
    expect(toleratesTaint({ operator: 'Exists' }, unreachable)).toBe(true);
    expect(toleratesTaint({ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoSchedule' }, unreachable)).toBe(false);
    expect(toleratesTaint({ key: 'other', operator: 'Exists' }, unreachable)).toBe(false);
    expect(toleratesTaint({ key: TAINT_NODE_UNREACHABLE, value: 'x' }, unreachable)).toBe(false);
    expect(toleratesTaint({ key: TAINT_NODE_UNREACHABLE }, unreachable)).toBe(true);
  });

  it('adds the 300 s defaults only where the pod does not tolerate the taint already', () => {
    const d = tolerationsWithDefaults({ spec: { containers: [] } });
    expect(d.map((t) => [t.key, t.tolerationSeconds])).toEqual([
      ['node.kubernetes.io/not-ready', DEFAULT_TOLERATION_SECONDS],
      [TAINT_NODE_UNREACHABLE, DEFAULT_TOLERATION_SECONDS],
    ]);
    const own = tolerationsWithDefaults({ spec: { containers: [], tolerations: [{ operator: 'Exists' }] } });
    expect(own).toEqual([{ operator: 'Exists' }]);
  });
});

function scenario(tolerationSeconds: string, healthyNodes = 2): string {
  return `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: nl }
spec:
  until: 200s
  invariants: none
  nodeLifecycle: { healthyNodes: ${healthyNodes} }
  pods:
    - metadata: { name: web }
      spec:
        tolerations: [{ key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute${tolerationSeconds} }]
        containers: [{ name: main, image: nginx }]
  timeline:
    - { at: 10s, partition: {} }
`;
}

function run(text: string) {
  const l = loadScenario(text, '<test>');
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return runScenario(l.scenario, { seed: 1 }).trace;
}

describe('the node lifecycle controller', () => {
  it('marks the node Unknown 40 s after the last heartbeat, the pod NotReady, taints the node and evicts after tolerationSeconds', () => {
    const trace = run(scenario(', tolerationSeconds: 20'));
    const at = (type: string) => trace.filter((r) => r.type === type).map((r) => r.t);
    expect(at('controller.mark-not-ready')).toEqual([50_000]);
    expect(trace.find((r) => r.type === 'node.status' && r.actor === 'controller')?.t).toBe(50_000);
    expect(at('node.taint')).toEqual([55_100]);
    expect(at('controller.evict')).toEqual([75_100]);
    expect(trace.some((r) => r.type === 'api.delete' && r.actor === 'controller' && r.t === 75_100)).toBe(true);
  });

  it('never evicts a pod that tolerates the taint forever', () => {
    const trace = run(scenario(''));
    expect(trace.filter((r) => r.type === 'node.taint')).toHaveLength(1);
    expect(trace.filter((r) => r.type === 'controller.evict')).toHaveLength(0);
  });

  it('takes no action against the last node standing (master disruption mode)', () => {
    const trace = run(scenario(', tolerationSeconds: 1', 0));
    expect(trace.filter((r) => r.type === 'node.taint')).toHaveLength(0);
    expect(trace.filter((r) => r.type === 'controller.evict')).toHaveLength(0);
    expect(trace.filter((r) => r.type === 'controller.mark-not-ready')).toHaveLength(1);
  });

  it('is off unless the scenario asks for it: no heartbeat without spec.nodeLifecycle', () => {
    const trace = run(scenario('').replace('  nodeLifecycle: { healthyNodes: 2 }\n', ''));
    expect(trace.filter((r) => String(r.type).startsWith('node.') || String(r.type).startsWith('controller.'))).toHaveLength(0);
  });
});

function zones(partitioned: readonly string[]): string {
  return `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: zones }
spec:
  until: 120s
  invariants: none
  nodes:
    - { name: node-a, zone: z1 }
    - { name: node-b, zone: z2 }
    - { name: node-c, zone: z2 }
    - { name: node-d, zone: z1 }
    - { name: node-e, region: r, zone: z2 }
  nodeLifecycle: { healthyNodes: 0 }
  pods:
    - metadata: { name: web }
      spec:
        tolerations: [{ key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 1 }]
        containers: [{ name: main, image: nginx }]
  timeline:
${partitioned.map((n) => `    - { at: 10s, partition: { node: ${n} } }`).join('\n')}
`;
}

describe('the node lifecycle controller, in zones', () => {
  it('keys a zone as GetZoneKey does: region + ":\\x00:" + zone, "" without labels', () => {
    expect(zoneKey(undefined)).toBe('');
    expect(zoneKey({})).toBe('');
    expect(zoneKey({ 'topology.kubernetes.io/zone': 'z1' })).toBe(':\x00:z1');
    expect(zoneKey({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z2' })).toBe('r:\x00:z2');
    // the deprecated failure-domain.beta.kubernetes.io labels first, as GetZoneKey reads them
    expect(zoneKey({ 'failure-domain.beta.kubernetes.io/zone': 'old', 'topology.kubernetes.io/zone': 'new', 'topology.kubernetes.io/region': 'r' })).toBe('r:\x00:old');
  });

  it('evacuates a zone lost beside healthy ones at the eviction rate, each zone with its own tainter', () => {
    // three of five nodes: in one zone PartialDisruption, which taints none in a small cluster
    const trace = run(zones(['node-b', 'node-c', 'node-d']));
    const taints = trace.filter((r) => r.type === 'node.taint' && r.added).map((r) => `${String(r.node)}@${r.t}`);
    expect(taints.sort()).toEqual(['node-b@55100', 'node-c@65100', 'node-d@55100']);
    const states = trace.filter((r) => r.type === 'log' && r.msg === 'Controller detected that zone is now in new state' && r.t === 50_000);
    expect(states.map((r) => [r.zone, r.newState])).toEqual([[':\x00:z2', 'FullDisruption']]);
  });

  it('stops every zone when every zone is lost (master disruption mode)', () => {
    const trace = run(zones(['node-a', 'node-b', 'node-c', 'node-d', 'node-e']));
    expect(trace.filter((r) => r.type === 'node.status' && r.status === 'Unknown')).toHaveLength(5);
    expect(trace.filter((r) => r.type === 'node.taint')).toHaveLength(0);
    expect(trace.filter((r) => r.type === 'log' && String(r.msg).includes('Entering master disruption mode'))).toHaveLength(1);
  });

  it('refuses a zone that is not a label value, at its place', () => {
    const l = loadScenario(zones([]).replace('zone: z1', 'zone: "-z1"'), '<test>');
    expect(l.ok).toBe(false);
    if (!l.ok) expect(l.issues[0]).toMatchObject({ path: 'spec.nodes[0].zone', line: 8, code: 'INVALID_VALUE' });
  });
});

describe('node labels', () => {
  const cluster = (nodeA: string, partitioned = ['node-b', 'node-c']) => `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: labels }
spec:
  until: 120s
  invariants: none
  nodes:
    - ${nodeA}
    - { name: node-b }
    - { name: node-c }
  nodeLifecycle: { healthyNodes: 0 }
  pods:
    - metadata: { name: web }
      spec:
        nodeName: node-b
        tolerations: [{ key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 1 }]
        containers: [{ name: main, image: nginx }]
  timeline:
${partitioned.map((n) => `    - { at: 10s, partition: { node: ${n} } }`).join('\n')}
`;
  const taints = (trace: ReturnType<typeof run>) => trace.filter((r) => r.type === 'node.taint' && r.added).map((r) => String(r.node)).sort();

  it('zone and region are the topology labels: the same zones either way', () => {
    const byFields = run(zones(['node-b', 'node-c', 'node-d']));
    const byLabels = run(zones(['node-b', 'node-c', 'node-d']).replace(/zone: (z\d)/g, "labels: { 'topology.kubernetes.io/zone': $1 }").replace('region: r, ', ''));
    expect(byLabels.filter((r) => r.type === 'node.taint').map((r) => [r.node, r.t])).toEqual(byFields.filter((r) => r.type === 'node.taint').map((r) => [r.node, r.t]));
  });

  it('a node labelled node.kubernetes.io/exclude-disruption counts in no zone: its healthy Ready no longer keeps the zone out of full disruption', () => {
    // two of three not Ready: Normal, both tainted at the eviction rate
    expect(taints(run(cluster('{ name: node-a }')))).toEqual(['node-b', 'node-c']);
    // node-a left out: the zone is node-b and node-c, both lost: master disruption mode, no taint
    const excluded = run(cluster("{ name: node-a, labels: { 'node.kubernetes.io/exclude-disruption': '' } }"));
    expect(taints(excluded)).toEqual([]);
    expect(excluded.filter((r) => r.type === 'log' && String(r.msg).includes('Entering master disruption mode'))).toHaveLength(1);
  });

  it('every node excluded: no zone has a state, so master disruption mode never comes and the lost nodes are tainted at the eviction rate', () => {
    const ex = "labels: { 'node.kubernetes.io/exclude-disruption': '' } ";
    const trace = run(cluster(`{ name: node-a, ${ex}}`, ['node-a', 'node-b', 'node-c']).replace('{ name: node-b }', `{ name: node-b, ${ex}}`).replace('{ name: node-c }', `{ name: node-c, ${ex}}`));
    expect(trace.filter((r) => r.type === 'log' && String(r.msg).includes('master disruption mode'))).toHaveLength(0);
    expect(trace.filter((r) => r.type === 'node.taint' && r.added).map((r) => r.t)).toEqual([55_100, 65_100, 75_100]);
  });

  it('an excluded node is still tainted and its pods evicted', () => {
    const trace = run(cluster("{ name: node-a }").replace('    - { name: node-b }', "    - { name: node-b, labels: { 'node.kubernetes.io/exclude-disruption': 'true' } }"));
    expect(taints(trace)).toEqual(['node-b', 'node-c']);
    expect(trace.filter((r) => r.type === 'controller.evict' && r.pod === 'default/web')).toHaveLength(1);
  });

  it('refuses a label key that is not a qualified name, and a zone given twice, at their place', () => {
    const bad = loadScenario(cluster("{ name: node-a, labels: { 'bad key': x } }"), '<test>');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0]).toMatchObject({ path: 'spec.nodes[0].labels["bad key"]', line: 8, code: 'INVALID_VALUE' });
    const twice = loadScenario(cluster("{ name: node-a, zone: z1, labels: { 'topology.kubernetes.io/zone': z2 } }"), '<test>');
    expect(twice.ok).toBe(false);
    if (!twice.ok) expect(twice.issues[0]).toMatchObject({ line: 8, code: 'DUPLICATE_LABEL' });
  });
});

describe('Node actions', () => {
  const base = (steps: string) => `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: taints }
spec:
  until: 30s
  invariants: none
  nodeLifecycle: { healthyNodes: 1 }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
  timeline:
${steps}
`;
  const runAll = (text: string) => {
    const l = loadScenario(text, '<test>');
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    return runScenario(l.scenario, { seed: 1 });
  };

  it("taintNode's NoSchedule taint evicts nothing; untaintNode takes every effect of the key off", () => {
    const r = runAll(base(`    - { at: 2s, taintNode: { key: example.com/k, effect: NoSchedule } }
    - { at: 3s, taintNode: { key: example.com/k, value: v, effect: PreferNoSchedule } }
    - { at: 5s, untaintNode: { key: example.com/k } }`));
    expect(r.stepErrors).toEqual([]);
    const taints = r.trace.filter((e) => e.type === 'node.taint').map((e) => [e.t, e.actor, e.effect, e.added]);
    expect(taints).toEqual([[2000, 'user', 'NoSchedule', true], [3000, 'user', 'PreferNoSchedule', true], [5000, 'user', 'NoSchedule', false], [5000, 'user', 'PreferNoSchedule', false]]);
    expect(r.trace.filter((e) => e.type === 'controller.evict')).toHaveLength(0);
  });

  it("a user's NoExecute taint evicts the pods that do not tolerate it", () => {
    const r = runAll(base('    - { at: 2s, taintNode: { key: example.com/k, effect: NoExecute } }'));
    expect(r.trace.filter((e) => e.type === 'controller.evict').map((e) => e.t)).toEqual([2000]);
  });

  it('a taint already there, a taint not there and a node already deleted are step errors', () => {
    const r = runAll(base(`    - { at: 2s, taintNode: { key: example.com/k, effect: NoSchedule } }
    - { at: 3s, taintNode: { key: example.com/k, effect: NoSchedule } }
    - { at: 4s, untaintNode: { key: example.com/other } }
    - { at: 5s, deleteNode: {} }
    - { at: 6s, deleteNode: {} }`));
    expect(r.stepErrors.map((e) => e.index)).toEqual([1, 2, 4]);
    expect(r.stepErrors[2].message).toContain('nodes "node-a" not found');
  });
});

describe('the pod garbage collector', () => {
  const file = 'scenarios/cluster/node-deleted-pods-collected-current.yaml';
  const gcPatch = (text: string) => {
    const l = loadScenario(text, file);
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    return runScenario(l.scenario, { seed: 1 }).trace.find((e) => e.type === 'api.patch' && e.actor === 'controller' && e.t === 120_000);
  };

  it('marks an orphaned pod Failed with DisruptionTarget DeletionByPodGC, and Failed alone with PodDisruptionConditions off', () => {
    const text = readFileSync(file, 'utf8');
    expect(gcPatch(text)?.wrote).toMatchObject({ phase: 'Failed', conditions: [{ type: 'DisruptionTarget', reason: 'DeletionByPodGC' }] });
    const off = text.replace('  kubelet: { statusManager: current }', '  kubelet: { statusManager: current, featureGates: { PodDisruptionConditions: false } }');
    expect(off).not.toBe(text);
    expect(gcPatch(off)?.wrote).toEqual({ phase: 'Failed' });
  });

  const collected = (text: string) => {
    const l = loadScenario(text, '<test>');
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    return runScenario(l.scenario, { seed: 1 }).trace.filter((e) => e.type === 'controller.pod-gc').map((e) => `${e.t / 1000}s ${e.pod}`);
  };
  const terminated = readFileSync('scenarios/cluster/terminated-pods-collected-classic.yaml', 'utf8');

  it('gcTerminated: the oldest terminated pods beyond the threshold (classic and transitional by creation time, current evicted first)', () => {
    expect(collected(terminated)).toEqual(['20s default/job-a', '40s default/job-b']);
    const transitional = terminated.replace('statusManager: classic', 'statusManager: transitional');
    expect(collected(transitional)).toEqual(['20s default/job-a', '40s default/job-b']);
    const current = terminated.replace('statusManager: classic', 'statusManager: current');
    expect(collected(current)).toEqual(['20s default/job-a', '40s default/evictee']);
  });

  it('gcTerminated: never with the threshold 0, nothing at or under it', () => {
    expect(collected(terminated.replace('terminatedPodGCThreshold: 2', 'terminatedPodGCThreshold: 0'))).toEqual([]);
    expect(collected(terminated.replace('terminatedPodGCThreshold: 2', 'terminatedPodGCThreshold: 4'))).toEqual([]);
    expect(collected(terminated.replace('terminatedPodGCThreshold: 2', 'terminatedPodGCThreshold: 3'))).toEqual(['40s default/job-a']);
    expect(collected(terminated.replace('nodeLifecycle: { terminatedPodGCThreshold: 2 }', 'nodeLifecycle: {}'))).toEqual([]);
  });
});

describe("the apiserver's terminated pods (podgc's isPodTerminated)", () => {
  it('counts a pod whose phase is neither Pending, Running nor Unknown, and forgets it when it goes', () => {
    const engine = new Engine(new Rng('1'));
    const api = new ApiServer({ clock: new VClock(engine), rng: engine.rng.fork('apiserver'), tracer: { emit: () => {}, log: () => {} } });
    const pod = (name: string, phase?: string): Pod => ({ metadata: { name, namespace: 'default' }, spec: { nodeName: 'n', containers: [{ name: 'c', image: 'i' }] }, status: phase === undefined ? {} : { phase } });
    for (const [name, phase] of [['a', 'Running'], ['b', 'Succeeded'], ['c', 'Failed'], ['d', 'Unknown'], ['e', undefined]] as const) expect(api.create(pod(name, phase), 'user').ok).toBe(true);
    expect(api.terminatedCount).toBe(3);
    expect(api.listTerminated().map((p) => p.metadata?.name)).toEqual(['b', 'c', 'e']);
    expect(api.patchStatus('default', 'a', { status: { phase: 'Succeeded' } }, 'user').ok).toBe(true);
    expect(api.delete('default', 'b', { gracePeriodSeconds: 0 }, 'user').ok).toBe(true);
    expect(api.listTerminated().map((p) => p.metadata?.name)).toEqual(['a', 'c', 'e']);
  });
});
