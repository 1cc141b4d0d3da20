// Every invariant judges every node (spec.nodes): a violation on a node that is not the default one
// is found and names its node; a kept twin stays clean; a single-node run's violations are what
// they were before the checkers learnt about nodes (full records, pinned from main before the
// change in test/fixtures/single-node-violations.json: regenerate it only for an intended change).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.js';
import { runScenario, type RunResult } from '../../src/world/run.js';

const REPO = join(import.meta.dirname, '..', '..');

function runFile(file: string, text?: string): RunResult {
  const r = loadScenario(text ?? readFileSync(join(REPO, file), 'utf8'), file);
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.line}:${i.col} ${i.message}`).join('\n'));
  return runScenario({ ...r.scenario, file });
}

const violations = (r: RunResult) => r.trace.filter((t) => t.type === 'invariant.violation');

describe('invariants on every node', () => {
  it('a kubelet-side violation on node-b (not the default node) is reported, naming node-b', () => {
    const r = runFile('scenarios/cluster/invariant-on-second-node-broken.yaml');
    const v = violations(r);
    expect(v.map((x) => [x.invariant, x.pod, x.node])).toEqual([['no-terminal-while-running', 'default/job', 'node-b']]);
    // the node comes last, after the fields a one-node violation has
    expect(Object.keys(v[0])).toEqual(['t', 'seq', 'actor', 'type', 'pod', 'invariant', 'message', 'event', 'seed', 'node']);
    expect(r.verdict).toBe('pass');
  });

  it('its kept twin (current generation, a kubelet restart on node-c as well) breaks nothing on any node', () => {
    const r = runFile('scenarios/cluster/invariant-on-second-node-kept.yaml');
    expect(violations(r)).toEqual([]);
    expect(r.verdict).toBe('pass');
  });

  it('the same pod on the default node of the same cluster is judged the same way', () => {
    const file = 'scenarios/cluster/invariant-on-second-node-broken.yaml';
    const text = readFileSync(join(REPO, file), 'utf8').replace('nodeName: node-b, restartPolicy', 'nodeName: node-a, restartPolicy').replace(/node: node-b/g, 'node: node-a');
    const r = runFile(file, text);
    expect(violations(r).map((x) => [x.invariant, x.pod, x.node])).toEqual([['no-terminal-while-running', 'default/job', 'node-a']]);
  });

  it('a liveness violation on node-c is judged against node-c\'s kubelet and its syncPeriod', () => {
    // status-converges-broken's wedge (an evicted pod whose container can never be stopped, so the
    // held-back Failed never reaches the apiserver) on node-c, whose syncPeriod is 5 s
    const r = runFile('three.yaml', `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: three }
spec:
  until: 60s
  kubelet: { statusManager: current }
  nodes:
    - { name: node-a }
    - { name: node-b }
    - { name: node-c, kubelet: { runtime: none, syncPeriod: 5s, deletionSafety: { podCouldHaveRunningContainers: true } } }
  pods:
    - metadata: { name: a-web }
      spec: { containers: [{ name: main, image: nginx }] }
    - metadata: { name: web }
      spec: { nodeName: node-c, containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 1s, setPodStatus: { pod: web, status: { phase: Running, conditions: [{ type: Ready, status: "True" }] } } }
    - { at: 5s, setPodStatus: { pod: web, status: { phase: Failed, reason: Evicted, conditions: [{ type: Ready, status: "False", reason: PodFailed }] } } }
`);
    const v = violations(r);
    expect(v.map((x) => [x.invariant, x.pod, x.node])).toEqual([['status-converges', 'default/web', 'node-c']]);
    // due 2 × node-c's syncPeriod (5 s) after the last step at 5 s
    expect(v[0].t).toBeGreaterThanOrEqual(15_000);
    expect(v[0].t).toBeLessThan(20_000);
    expect(String(v[0].message)).toContain('10000ms into quiet');
  });
  it('bounded-staleness keeps one client per node: its QPS, its bound, the apiserver\'s records of its requests', () => {
    // node-b: bounded-staleness-kept's 25 pods behind a 5 QPS client, bound 2 s (its PATCHes, which
    // the apiserver traces without a node, reach node-b's queue by their pods); node-c: one pod, a
    // 1 s bound, and its link cut from 500 ms to 5 s (its Running waits); node-a: no bound
    const r = runFile('staleness.yaml', `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: staleness }
spec:
  until: 60s
  kubelet: { statusManager: current }
  nodes:
    - { name: node-a }
    - { name: node-b, kubelet: { apiQPS: 5, apiBurst: 10, stalenessBound: 2s } }
    - { name: node-c, kubelet: { stalenessBound: 1s } }
  pods:
    - metadata: { name: a-web }
      spec: { containers: [{ name: main, image: nginx }] }
    - metadata: { name: b-web }
      spec: { nodeName: node-b, containers: [{ name: main, image: nginx }] }
      x-kss: { replicas: 25 }
    - metadata: { name: c-web }
      spec: { nodeName: node-c, containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 500ms, partition: { node: node-c } }
    - { at: 5s, repair: { node: node-c } }
`);
    const v = violations(r);
    expect(v.map((x) => [x.invariant, x.pod, x.node])).toEqual([['bounded-staleness', 'default/c-web', 'node-c']]);
    expect(String(v[0].message)).toContain('+ stalenessBound 1000ms');
  });
});

describe('one node: violations unchanged', () => {
  const pinned = JSON.parse(readFileSync(join(REPO, 'test/fixtures/single-node-violations.json'), 'utf8')) as Record<string, string[]>;
  it.each(Object.keys(pinned))('%s: every violation record, byte for byte', (file) => {
    const got = violations(runFile(file)).map((x) => JSON.stringify(x));
    expect(got).toEqual(pinned[file]);
    for (const line of got) expect(line).not.toContain('"node"');
  });

  it('the pinned runs cover every invariant', () => {
    const names = new Set(Object.values(pinned).flat().map((l) => String(JSON.parse(l).invariant)));
    expect(names.size).toBe(15);
  });
});
