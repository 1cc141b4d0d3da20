// ProbeWorkers.get finds a pod's worker by container and kind without building its key (a per-pod
// list beside the keyed map): the worker in force, none once it ended or its pod was removed, and
// the new one after AddPod adds that probe again.
import { describe, expect, it } from 'vitest';
import { Engine, Rng, type Process, type Proc } from '../../../src/engine/index.js';
import type { Pod, PodStatus } from '../../../src/model/pod.js';
import { ProbeManager } from '../../../src/kubelet/node/prober.js';
import { ProbeWorkers, type ProbeWorkerHost } from '../../../src/kubelet/node/prober-worker.js';

function pod(uid: string): Pod {
  const probe = { httpGet: { path: '/', port: 80 } };
  return { metadata: { name: `p-${uid}`, namespace: 'default', uid }, spec: { containers: [{ name: 'a', image: 'x', readinessProbe: probe, livenessProbe: probe }, { name: 'b', image: 'x', readinessProbe: probe }] } } as Pod;
}

function host(engine: Engine, statuses: Map<string, PodStatus>): ProbeWorkerHost {
  return {
    gen: 'current',
    results: new ProbeManager('current'),
    rng: new Rng('probe-workers'),
    nowMs: () => engine.nowMs,
    startMs: 0,
    spawn: (name: string, body: Proc<unknown>): Process => engine.spawn(name, body),
    wake: (p, v) => engine.wake(p, v),
    kill: (p) => engine.kill(p),
    getPodStatus: (uid) => statuses.get(uid),
    answer: () => true,
    toVirtual: () => 0,
    onUpdate: () => {},
  };
}

describe('ProbeWorkers.get', () => {
  it('finds the worker in force by pod, container and kind', () => {
    const engine = new Engine(new Rng('e'));
    const statuses = new Map<string, PodStatus>();
    const ws = new ProbeWorkers(host(engine, statuses));
    ws.addPod(pod('u1'));
    ws.addPod(pod('u2'));
    const a = ws.get('u1', 'a', 'readiness');
    expect(a?.kind).toBe('readiness');
    expect(a?.container.name).toBe('a');
    expect(a?.uid).toBe('u1');
    expect(ws.get('u1', 'a', 'liveness')?.kind).toBe('liveness');
    expect(ws.get('u1', 'b', 'readiness')?.container.name).toBe('b');
    expect(ws.get('u1', 'b', 'liveness')).toBeUndefined();
    expect(ws.get('u1', 'a', 'startup')).toBeUndefined();
    expect(ws.get('u3', 'a', 'readiness')).toBeUndefined();
    expect(ws.get('u2', 'a', 'readiness')).not.toBe(a);
    ws.removePod('u1');
    expect(ws.get('u1', 'a', 'readiness')).toBeUndefined();
    expect(ws.get('u2', 'a', 'readiness')?.uid).toBe('u2');
  });

  it('forgets a worker that ended, and finds the next one AddPod starts for that probe', () => {
    const engine = new Engine(new Rng('e'));
    const statuses = new Map<string, PodStatus>([['u1', { phase: 'Failed' }]]);
    const ws = new ProbeWorkers(host(engine, statuses));
    ws.addPod(pod('u1'));
    const first = ws.get('u1', 'a', 'readiness');
    expect(first).toBeDefined();
    engine.run({ untilMs: 60_000 }); // a Failed pod: every worker stops at its first probe
    expect(ws.get('u1', 'a', 'readiness')).toBeUndefined();
    expect(ws.get('u1', 'b', 'readiness')).toBeUndefined();
    statuses.delete('u1');
    ws.addPod(pod('u1'));
    const second = ws.get('u1', 'a', 'readiness');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    ws.removePod('u1');
    expect(ws.get('u1', 'a', 'readiness')).toBeUndefined();
  });
});
