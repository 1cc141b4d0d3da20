// kss inspect: the world at an instant as YAML, checked against what the run did by then.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kss, REPO } from './helpers.js';

describe('kss inspect', () => {
  it('during a partition: the fault, the request in flight, the cache ahead of the apiserver, the pod worker and runtime', async () => {
    const r = await kss(['inspect', 'scenarios/node/partition-heals.yaml', '--at', '25s', '--pod', 'job'], REPO);
    expect(r.code).toBe(0);
    const y = parse(r.out);
    expect(y.at).toBe('25.000s');
    expect(y.faultsInForce).toEqual([{ fault: 'partition', since: '10.000s' }]);
    expect(y.kubelet).toMatchObject({ up: true, incarnation: 1, statusChannel: { capacity: 1 } });
    expect(y.pods).toHaveLength(1);
    const job = y.pods[0];
    expect(job.pod).toBe('default/job');
    expect(job.cacheVsApiserver).toContain('phase Running→Succeeded');
    expect(job.apiserver.status.phase).toBe('Running');
    expect(job.kubelet.cached.status.phase).toBe('Succeeded');
    expect(job.kubelet.cached.version).toBeGreaterThan(job.kubelet.apiStatusVersion);
    expect(job.podWorker.workType).toBe('terminated');
    expect(job.runtime[0]).toMatchObject({ name: 'main', state: 'exited', exitCode: 0 });
    expect(job.requestsInFlight.map((q: { verb: string }) => q.verb)).toEqual(['get']);
  });

  it('the same instant, seed and generation give the same bytes; another instant another world', async () => {
    const a = await kss(['inspect', 'scenarios/getting-started.yaml', '--at', '3.005s', '--seed', '7'], REPO);
    const b = await kss(['inspect', 'scenarios/getting-started.yaml', '--at', '3.005s', '--seed', '7'], REPO);
    expect(a.out).toBe(b.out);
    const y = parse(a.out);
    expect(y.pods.map((p: { pod: string }) => p.pod)).toEqual(['default/job', 'default/web']);
    const web = y.pods[1];
    expect(web.requestsInFlight[0].verb).toBe('patch');
    expect(web.requestsInFlight[0].sent.status.conditions.some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True')).toBe(true);
    const later = parse((await kss(['inspect', 'scenarios/getting-started.yaml', '--at', '30s'], REPO)).out);
    expect(later.pods.find((p: { pod: string }) => p.pod === 'default/web')).toBeUndefined();
  });

  it('containerd down: the runtime, the kubelet\'s runtime errors and its sleeping sync loop; all gone once it is back', async () => {
    const at = async (t: string) => parse((await kss(['inspect', 'scenarios/cluster/runtime-down-node-not-ready-current.yaml', '--at', t], REPO)).out);
    const early = await at('70s');
    expect(early.kubelet).toMatchObject({ containerRuntime: { down: true } });
    expect(early.kubelet.runtimeErrors).toBeUndefined(); // (30 s after the last status check, 60 s)
    const down = await at('250s');
    expect(down.kubelet).toMatchObject({ containerRuntime: { down: true }, syncLoop: 'sleeping' });
    expect(down.kubelet.runtimeErrors).toEqual(['container runtime is down', 'PLEG is not healthy: pleg was last seen active 3m9s ago; threshold is 3m0s']);
    expect(down.faultsInForce).toEqual([{ fault: 'runtimeDown', since: '62.000s', downForMs: 300000 }]);
    const back = await at('400s');
    expect(back.kubelet.containerRuntime).toBeUndefined();
    expect(back.kubelet.runtimeErrors).toBeUndefined();
    expect(back.kubelet.syncLoop).toBeUndefined();
  });

  it('a pod gone from the apiserver and the status manager whose container still runs (BZ-25): listed with its worker and runtime', async () => {
    const at = async (file: string, t: string) => parse((await kss(['inspect', `scenarios/zoo/bz-25-force-deleted-pod-never-killed/${file}`, '--at', t], REPO)).out);
    const broken = await at('broken.yaml', '100s');
    expect(broken.pods).toHaveLength(1);
    expect(broken.pods[0]).toMatchObject({ pod: 'default/web', apiserver: null, podWorker: { workType: 'terminating', deleted: true }, runtime: [{ name: 'main', state: 'running' }] });
    const stuck = await at('broken.yaml', '50s');
    expect(stuck.faultsInForce).toEqual([{ fault: 'runc cannot signal web/main', since: '20.000s', pod: 'default/web', container: 'main', downForMs: 60000 }]);
    expect((await at('fixed.yaml', '100s')).pods).toEqual([]);
  });

  it('many nodes: every kubelet, each pod read from its own node, the partition on its node', async () => {
    const r = await kss(['inspect', 'scenarios/cluster/three-nodes-restart-and-partition-current.yaml', '--at', '60s'], REPO);
    expect(r.code).toBe(0);
    const y = parse(r.out);
    expect(y.nodes.map((n: { name: string }) => n.name)).toEqual(['node-a', 'node-b', 'node-c']);
    // node-c's kubelet restarted (its second incarnation); the others run their first
    expect(y.nodes.map((n: { kubelet: { incarnation: number } }) => n.kubelet.incarnation)).toEqual([1, 1, 2]);
    expect(y.kubelet).toEqual(y.nodes[0].kubelet);
    expect(y.faultsInForce).toEqual([{ fault: 'partition', since: '10.000s', node: 'node-b' }]);
    const byPod = new Map(y.pods.map((p: { pod: string }) => [p.pod, p]));
    const bWeb = byPod.get('default/b-web') as { node: string; apiserver: { status: { conditions: Array<{ type: string; status: string }> } }; kubelet: { cached: { status: { conditions: Array<{ type: string; status: string }> } } } };
    expect(bWeb.node).toBe('node-b');
    // the node lifecycle controller's Ready=False in the apiserver; node-b's partitioned kubelet still caches True
    const ready = (cs: Array<{ type: string; status: string }>) => cs.find((c) => c.type === 'Ready')?.status;
    expect(ready(bWeb.apiserver.status.conditions)).toBe('False');
    expect(ready(bWeb.kubelet.cached.status.conditions)).toBe('True');
    expect((byPod.get('default/c-web') as { node: string }).node).toBe('node-c');
    // a single-node scenario has neither field
    const one = parse((await kss(['inspect', 'scenarios/getting-started.yaml', '--at', '3s'], REPO)).out);
    expect(one.nodes).toBeUndefined();
    expect(one.pods.every((p: { node?: string }) => p.node === undefined)).toBe(true);
  });

  it('with the node lifecycle: each Node object, its Ready condition, taints, labels and Lease; a deleted one as null', async () => {
    const r = await kss(['inspect', 'scenarios/cluster/partitioned-node-evicted-current.yaml', '--at', '60s'], REPO);
    expect(r.code).toBe(0);
    const y = parse(r.out);
    const byName = new Map(y.nodeObjects.map((n: { name: string }) => [n.name, n]));
    expect([...byName.keys()]).toEqual(['healthy-node-0', 'healthy-node-1', 'node-a']);
    const a = byName.get('node-a') as { object: { ready: { status: string; lastTransitionTime: string }; taints: Array<{ key: string; effect: string }>; leaseRenewTime: string } };
    expect(a.object.ready).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', lastTransitionTime: '2026-01-01T00:00:50Z' });
    expect(a.object.taints).toEqual([{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:55.100Z' }]);
    expect(Date.parse(a.object.leaseRenewTime)).toBeLessThan(Date.parse('2026-01-01T00:00:10Z'));
    const labelled = parse((await kss(['inspect', 'scenarios/cluster/excluded-node-master-disruption-current.yaml', '--at', '5s'], REPO)).out);
    expect(labelled.nodeObjects[0]).toMatchObject({ name: 'node-a', object: { ready: { status: 'True' }, labels: { 'node.kubernetes.io/exclude-disruption': '' } } });
    const deleted = parse((await kss(['inspect', 'scenarios/cluster/node-deleted-pods-collected-current.yaml', '--at', '100s'], REPO)).out);
    expect(deleted.nodeObjects.find((n: { name: string }) => n.name === 'node-b')).toEqual({ name: 'node-b', object: null });
    // without spec.nodeLifecycle there are no Node objects to show
    expect(parse((await kss(['inspect', 'scenarios/getting-started.yaml', '--at', '3s'], REPO)).out).nodeObjects).toBeUndefined();
  });

  it('bad --at or --pod: exit 2, positioned', async () => {
    const a = await kss(['inspect', 'scenarios/getting-started.yaml', '--at', 'noon'], REPO);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/BAD_DURATION at --at/);
    const p = await kss(['inspect', 'scenarios/getting-started.yaml', '--at', '1s', '--pod', 'nope'], REPO);
    expect(p.code).toBe(2);
    expect(p.err).toMatch(/UNKNOWN_POD at --pod: no pod default\/nope at 1\.000s; known: default\/job, default\/web/);
  });
});
