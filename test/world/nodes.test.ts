// Many nodes in one world (spec.nodes, issue 11 item 1): steps routed to one node's kubelet,
// runtime or link; UNKNOWN_NODE; per-node requests and request rates; determinism of a
// multi-node run across seeds and across in-process / worker-thread suites.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../src/index.js';
import { runSuite } from '../../src/testing/suite.js';
import type { CaseResult } from '../../src/testing/types.js';
import type { TraceRecord } from '../../src/world/tracer.js';
import { World } from '../../src/world/world.js';

const REPO = join(import.meta.dirname, '..', '..');

function text(body: string): string {
  return `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: s }
spec:
  invariants: none
  nodes: [{ name: node-a }, { name: node-b }, { name: node-c }]
  pods:
    - metadata: { name: a-web }
      spec: { containers: [{ name: main, image: nginx }] }
    - metadata: { name: b-web }
      spec: { nodeName: node-b, containers: [{ name: main, image: nginx }] }
    - metadata: { name: c-web }
      spec: { nodeName: node-c, containers: [{ name: main, image: nginx }] }
${body}`;
}

function scenario(body: string) {
  const r = loadScenario(text(body));
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

const of = (trace: readonly TraceRecord[], type: string, node?: string) => trace.filter((r) => r.type === type && (node === undefined || r.node === node));

describe('spec.nodes', () => {
  it('binds pods by spec.nodeName (the default node takes the rest) and runs one kubelet per node', () => {
    const s = scenario('  until: 5s\n');
    expect(s.nodes?.map((n) => n.name)).toEqual(['node-a', 'node-b', 'node-c']);
    expect(s.pods.map((p) => p.pod.spec?.nodeName)).toEqual(['node-a', 'node-b', 'node-c']);
    const w = new World(s);
    w.setup();
    w.run();
    for (const site of w.sites) expect(site.kubelet?.podManager.getPods().map((p) => p.spec?.nodeName)).toEqual([site.name]);
    expect(new Set(w.sites.map((site) => site.runtime)).size).toBe(3); // a runtime per node
    expect(new Set(w.sites.map((site) => site.network)).size).toBe(3); // a link per node
    const starts = of(w.trace, 'runtime.start');
    expect(starts.map((r) => `${r.pod}@${r.node}`).sort()).toEqual(['default/a-web@node-a', 'default/b-web@node-b', 'default/c-web@node-c']);
  });

  it('routes `node:` steps to that node only: partition, wipeRuntime, restartKubelet', () => {
    const s = scenario(`  until: 40s
  timeline:
    - { at: 5s, partition: { node: node-b } }
    - { at: 10s, wipeRuntime: { node: node-c } }
    - { at: 20s, restartKubelet: { node: node-a } }
    - { at: 30s, restartKubelet: { nodes: [node-b, node-c] } }
`);
    const { trace } = runScenario(s);
    const partitions = of(trace, 'fault.begin').filter((r) => r.fault === 'partition');
    expect(partitions.map((r) => r.node)).toEqual(['node-b']);
    // only node-c's container vanished: only its kubelet starts it again
    const restarts = of(trace, 'runtime.start').filter((r) => r.t >= 10_000);
    expect(restarts.map((r) => r.node)).toEqual(['node-c']);
    const kubeletStarts = of(trace, 'kubelet.start').filter((r) => r.t > 0);
    expect(kubeletStarts.map((r) => `${r.node}#${r.incarnation}@${r.t}`)).toEqual(['node-a#2@20000', 'node-b#2@30000', 'node-c#2@30000']);
    // partitioned node-b sends nothing that arrives; the others keep talking
    expect(of(trace, 'api.error', 'node-b').length).toBeGreaterThan(0);
    expect(of(trace, 'api.error', 'node-a')).toEqual([]);
  });

  it('a `latency` step (no `node:`: the apiserver\'s answers) sets every node\'s link, as the contract says', () => {
    const s = scenario(`  until: 10s
  timeline:
    - { at: 5s, latency: 20ms..30ms }
`);
    const w = new World(s);
    w.setup();
    const before = w.sites.map((site) => JSON.stringify(site.network.latency));
    w.run();
    for (const [i, site] of w.sites.entries()) {
      expect(JSON.stringify(site.network.latency)).not.toBe(before[i]);
      expect(JSON.stringify(site.network.latency)).toBe(JSON.stringify(w.sites[0].network.latency));
    }
  });

  it('a `latency` step with `node:` (its map form) sets that node\'s link only, the verbs not named at the default', () => {
    const s = scenario(`  until: 10s
  timeline:
    - { at: 5s, latency: { node: node-b, get: 20ms..30ms, patch: 40ms..50ms } }
`);
    const w = new World(s);
    w.setup();
    const before = w.sites.map((site) => JSON.stringify(site.network.latency));
    w.run();
    const after = w.sites.map((site) => site.network.latency);
    expect(JSON.stringify(after[0])).toBe(before[0]);
    expect(JSON.stringify(after[2])).toBe(before[2]);
    expect(after[1]).toEqual({ get: { minMs: 20, maxMs: 30 }, patch: { minMs: 40, maxMs: 50 }, delete: { minMs: 1, maxMs: 5 }, create: { minMs: 1, maxMs: 5 } });
  });

  it('routes a pod step to the pod\'s node, and restartKubelet `nodes: all` restarts every kubelet', () => {
    const s = scenario(`  until: 20s
  timeline:
    - { at: 5s, exit: { pod: b-web, container: main, code: 1 } }
    - { at: 10s, restartKubelet: { nodes: all } }
`);
    const { trace, verdict } = runScenario(s);
    expect(verdict).toBe('pass');
    expect(of(trace, 'runtime.exit').map((r) => `${r.pod}@${r.node}`)).toEqual(['default/b-web@node-b']);
    expect(of(trace, 'kubelet.start').filter((r) => r.t === 10_000).map((r) => r.node)).toEqual(['node-a', 'node-b', 'node-c']);
  });

  it('shuts down and powers off one node (nodeShutdown node:), the others run on', () => {
    const s = scenario(`  until: 60s
  timeline:
    - { at: 5s, nodeShutdown: { node: node-b, gracePeriod: 10s, powerOffDelay: 5s } }
    - { at: 30s, restartKubelet: { nodes: all } }
  expect:
    - apiserver: { pod: b-web, status: { phase: Failed, reason: Terminated } }
    - apiserver: { pod: a-web, status: { phase: Running } }
    - apiserver: { pod: c-web, status: { phase: Running } }
`);
    const r = runScenario(s);
    expect(r.assertions.map((a) => [a.ok, a.message])).toEqual(r.assertions.map((a) => [true, a.message]));
    // the powered-off node's kubelet never comes back; the others restart
    expect(of(r.trace, 'kubelet.start').filter((x) => x.t === 30_000).map((x) => x.node)).toEqual(['node-a', 'node-c']);
  });

  it('counts requests and request rates per node', () => {
    const s = scenario(`  until: 20s
  timeline:
    - { at: 10s, restartKubelet: { node: node-c } }
  expect:
    - requests: { node: node-c, from: 10s, count: { get: 1, patch: 0 } }
    - requests: { node: node-a, from: 10s, count: { get: 0 } }
    - requests: { node: node-c, pod: c-web, from: 10s, verbs: [get] }
    - requestRate: { verb: get, node: node-c, from: 10s, max: 1 }
    - requestRate: { verb: get, node: node-a, from: 10s, max: 0 }
    - requests: { node: node-a, from: 10s, count: { get: 1 } }
    - requestRate: { verb: get, from: 10s, max: 0 }
`);
    const r = runScenario(s);
    expect(r.assertions.map((a) => a.ok)).toEqual([true, true, true, true, true, false, false]);
    expect(r.assertions[5].message).toContain('requests for node node-a: expected 1 get, got 0');
    expect(r.assertions[6].message).toContain('peak 1 get');
  });

  it('refuses unknown nodes with UNKNOWN_NODE, positioned, with the closest name', () => {
    const bad = loadScenario(text(`  timeline:
    - { at: 1s, partition: { node: node-x } }
    - { at: 2s, restartKubelet: { nodes: [node-a, nod-c] } }
  expect:
    - requests: { node: node-bb, count: { get: 0 } }
`).replace('nodeName: node-c', 'nodeName: node-d'));
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    const unknown = bad.issues.filter((i) => i.code === 'UNKNOWN_NODE');
    expect(unknown.map((i) => i.path)).toEqual(['spec.pods[2].spec.nodeName', 'spec.timeline[0].partition.node', 'spec.timeline[1].restartKubelet.nodes[1]', 'spec.expect[0].requests.node']);
    expect(unknown[2].message).toContain('did you mean "node-c"?');
    expect(unknown[3].message).toContain('did you mean "node-b"?');
    expect(unknown.every((i) => i.line > 0 && i.col > 0)).toBe(true);
  });

  it('refuses `node:` on a pod step when the pod is bound to another node', () => {
    const r = loadScenario(text(`  timeline:
    - { at: 1s, exit: { pod: b-web, container: main, code: 1, node: node-c } }
    - { at: 2s, exit: { pod: b-web, container: main, code: 1, node: node-b } }
`));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => [i.code, i.path])).toEqual([['INVALID_VALUE', 'spec.timeline[0].exit.node']]);
    expect(r.issues[0].message).toContain('bound to node node-b');
  });

  it('without spec.nodes, `node:` must name the one node', () => {
    const r = loadScenario(`apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: s }
spec:
  kubelet: { nodeName: worker-1 }
  timeline:
    - { at: 1s, partition: { node: worker-2 } }
    - { at: 2s, repair: { node: worker-1 } }
`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => [i.code, i.path])).toEqual([['UNKNOWN_NODE', 'spec.timeline[0].partition.node']]);
    expect(r.issues[0].message).toContain('its one node is worker-1');
  });

  it('refuses duplicate node names and spec.kubelet.nodeName beside spec.nodes', () => {
    const r = loadScenario(text('').replace('nodes: [{ name: node-a }, { name: node-b }, { name: node-c }]', 'kubelet: { nodeName: x }\n  nodes: [{ name: node-a }, { name: node-b }, { name: node-c }, { name: node-b }]'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.code).sort()).toEqual(['DUPLICATE_NODE', 'INVALID_VALUE']);
  });

  it('gives each node its own kubelet settings over spec.kubelet', () => {
    const s = scenario('').nodes!;
    const r = loadScenario(text('').replace('{ name: node-b }', '{ name: node-b, kubelet: { apiQPS: 5, apiBurst: 10 } }'));
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(s.map((n) => n.kubelet.apiQPS)).toEqual([50, 50, 50]);
    expect(r.scenario.nodes!.map((n) => [n.kubelet.nodeName, n.kubelet.apiQPS, n.kubelet.apiBurst])).toEqual([
      ['node-a', 50, 100],
      ['node-b', 5, 10],
      ['node-c', 50, 100],
    ]);
  });

  it('is deterministic: the same seed gives the same trace, another seed another', () => {
    const s = scenario(`  until: 30s
  timeline:
    - { at: 5s, partition: { node: node-b } }
    - { at: 10s, restartKubelet: { nodes: all } }
    - { at: 15s, repair: { node: node-b } }
`);
    const a = runScenario(s, { seed: 3 }).trace;
    const b = runScenario(s, { seed: 3 }).trace;
    const c = runScenario(s, { seed: 4 }).trace;
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('gives the same suite results in-process (-j 1) and on worker threads (-j 2), under several seeds', async () => {
    const files = ['scenarios/cluster/three-nodes-restart-and-partition-current.yaml', 'scenarios/cluster/three-nodes-restart-and-partition-classic.yaml'];
    const comparable = (r: CaseResult) => ({ ...r, durationMs: 0 });
    const one = await runSuite(files, { cwd: REPO, jobs: 1, seeds: 3 });
    const two = await runSuite(files, { cwd: REPO, jobs: 2, seeds: 3 });
    expect(one.failed).toBe(0);
    expect(one.passed).toBe(6);
    expect(two.results.map(comparable)).toEqual(one.results.map(comparable));
  }, 60_000);
});
