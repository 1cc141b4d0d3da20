// Explore's swarm faults (explore/faults.ts) in a cluster: the node-level ones name the node they hit.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/rng.js';
import { describeFault, faultRawSteps, faultSpace, faultSteps, swarmFaults } from '../../src/explore/faults.js';
import type { Fault } from '../../src/explore/types.js';
import { loadScenarioFile } from '../../src/scenario/index.js';
import { runScenario } from '../../src/index.js';

const REPO = join(import.meta.dirname, '..', '..');

function load(file: string) {
  const l = loadScenarioFile(join(REPO, file));
  if (!l.ok) throw new Error(l.issues.map((i) => i.message).join('\n'));
  return l.scenario;
}

function draws(file: string, runs: number): Fault[] {
  const s = load(file);
  const space = faultSpace(s, { faults: ['partition', 'restartKubelet', 'fail', 'restartApiserver', 'latency'] });
  const out: Fault[] = [];
  for (let i = 0; i < runs; i++) out.push(...swarmFaults(space, new Rng(`faults-${i}`)));
  return out;
}

describe('explore faults and nodes', () => {
  it('a one-node scenario draws no node (the draws of before)', () => {
    for (const f of draws('scenarios/node/partition-heals.yaml', 50)) expect('node' in f).toBe(false);
  });
  it("a cluster's partitions, kubelet restarts, failures and slow links hit any of its nodes; the apiserver's restart none", () => {
    const fs = draws('scenarios/cluster/three-nodes-restart-and-partition-current.yaml', 200);
    const hit = new Set(fs.filter((f) => f.kind !== 'restartApiserver').map((f) => (f as { node?: string }).node));
    expect([...hit].sort()).toEqual(['node-a', 'node-b', 'node-c']);
    for (const f of fs.filter((x) => x.kind === 'restartApiserver')) expect('node' in f).toBe(false);
  });
  it('writes the node into the steps and the words, and the run partitions that node', () => {
    const f: Fault = { kind: 'partition', atMs: 5_000, forMs: 10_000, node: 'node-c' };
    const s = load('scenarios/cluster/three-nodes-restart-and-partition-current.yaml');
    expect(faultRawSteps(f, s.apiserver.latency)).toEqual([{ at: '5s', partition: { node: 'node-c' } }, { at: '15s', repair: { node: 'node-c' } }]);
    expect(describeFault(f)).toBe("a partition between node-c's kubelet and the apiserver from 5s to 15s");
    const steps = faultSteps([f], s.epoch, s.timeline.length, s.apiserver.latency);
    const r = runScenario({ ...s, timeline: [...s.timeline, ...steps].sort((a, b) => a.atMs - b.atMs) }, { keepTrace: true });
    const begins = r.trace.filter((e) => e.type === 'fault.begin' && e.fault === 'partition').map((e) => [e.t, e.node]);
    expect(begins).toContainEqual([5_000, 'node-c']);
  });
  it("a latency fault on one node: that node's link, in the map form, and put back to spec.apiserver.latency", () => {
    const f: Fault = { kind: 'latency', atMs: 5_000, minMs: 300, maxMs: 400, forMs: 10_000, node: 'node-b' };
    const s = load('scenarios/cluster/three-nodes-restart-and-partition-current.yaml');
    expect(faultRawSteps(f, s.apiserver.latency)).toEqual([
      { at: '5s', latency: { node: 'node-b', get: '300ms..400ms', patch: '300ms..400ms', delete: '300ms..400ms', create: '300ms..400ms' } },
      { at: '15s', latency: { node: 'node-b', get: '1ms..5ms', patch: '1ms..5ms', delete: '1ms..5ms', create: '1ms..5ms' } },
    ]);
    expect(describeFault(f)).toBe("request latency 300ms..400ms on node-b's link from 5s to 15s");
    const steps = faultSteps([{ ...f, forMs: 60_000 }], s.epoch, s.timeline.length, s.apiserver.latency);
    expect(steps.map((st) => st.node)).toEqual(['node-b', 'node-b']);
    // with no node (a one-node scenario's draw), every link, in the range form as before
    const { node: _node, ...anyNode } = f;
    expect(faultRawSteps(anyNode, s.apiserver.latency)[0]).toEqual({ at: '5s', latency: '300ms..400ms' });
  });
  it('a containerd outage is drawn only when named, never with runtime: none, and runs on the node it names', () => {
    const s = load('scenarios/cluster/three-nodes-restart-and-partition-current.yaml');
    expect(faultSpace(s, undefined).kinds).not.toContain('restartRuntime');
    expect(faultSpace(s, { faults: ['restartRuntime'] }).kinds).toEqual(['restartRuntime']);
    expect(faultSpace({ ...s, kubelet: { ...s.kubelet, runtime: 'none' } }, { faults: ['restartRuntime', 'partition'] }).kinds).toEqual(['partition']);
    const f: Fault = { kind: 'restartRuntime', atMs: 5_000, downForMs: 60_000, node: 'node-b' };
    expect(faultRawSteps(f, s.apiserver.latency)).toEqual([{ at: '5s', restartRuntime: { downFor: '1m', node: 'node-b' } }]);
    expect(describeFault(f)).toBe('containerd down on node-b from 5s to 1m5s');
    const steps = faultSteps([f], s.epoch, s.timeline.length, s.apiserver.latency);
    const r = runScenario({ ...s, timeline: [...s.timeline, ...steps].sort((a, b) => a.atMs - b.atMs) }, { keepTrace: true });
    expect(r.trace.filter((e) => e.type === 'fault.begin' && e.fault === 'runtimeDown').map((e) => [e.t, e.node])).toEqual([[5_000, 'node-b']]);
    expect(r.stepErrors).toEqual([]);
    const cni: Fault = { kind: 'networkPluginDown', atMs: 5_000, downForMs: 30_000 };
    expect(faultRawSteps(cni, s.apiserver.latency)).toEqual([{ at: '5s', networkPluginDown: { downFor: '30s' } }]);
    expect(describeFault(cni)).toBe('the CNI plugin not ready from 5s to 35s');
  });
  it('a container runc cannot signal (stopFails) is drawn only when named, on a pod and one of its containers, and replays as written', () => {
    const s = load('scenarios/zoo/bz-25-force-deleted-pod-never-killed/fixed.yaml');
    expect(faultSpace(s, undefined).kinds).not.toContain('stopFails');
    const space = faultSpace(s, { faults: ['stopFails', 'delete'] });
    expect(space.kinds).toEqual(['stopFails', 'delete']);
    expect(space.containers).toEqual({ 'default/web': ['main'] });
    expect(faultSpace({ ...s, kubelet: { ...s.kubelet, runtime: 'none' } }, { faults: ['stopFails'] }).kinds).toEqual([]);
    const drawn = swarmFaults({ ...space, kinds: ['stopFails'] }, new Rng('stop'));
    expect(drawn.length).toBeGreaterThan(0);
    for (const f of drawn) expect(f).toMatchObject({ kind: 'stopFails', pod: 'default/web', container: 'main' });
    const f: Fault = { kind: 'stopFails', atMs: 25_000, pod: 'default/web', container: 'main', forMs: 40_000 };
    expect(faultRawSteps(f, s.apiserver.latency)).toEqual([{ at: '25s', stopFails: { pod: 'web', container: 'main', for: '40s' } }]);
    expect(describeFault(f)).toBe('runc unable to signal main of web from 25s to 1m5s');
    const steps = faultSteps([f], s.epoch, s.timeline.length, s.apiserver.latency);
    const r = runScenario({ ...s, timeline: [...s.timeline, ...steps].sort((a, b) => a.atMs - b.atMs) }, { keepTrace: true });
    expect(r.stepErrors).toEqual([]);
    // the scenario's own window (20 s to 80 s) and the drawn one overlap: runc signals again at 80 s
    expect(r.trace.filter((e) => e.type === 'fault.begin' && e.fault === 'stopFails').map((e) => e.t)).toEqual([20_000]);
    expect(r.trace.filter((e) => e.type === 'runtime.exit').map((e) => e.t)).toEqual([80_000]);
  });
});
