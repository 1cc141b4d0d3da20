// Cluster scale: pod startup latency, the peak request rate, x-kss.replicas, the TokenRequest and
// the event recorder (issue 11).
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../src/index.js';
import { percentile, podStartup } from '../../src/world/pod-startup.js';
import { peakInWindow } from '../../src/world/scale-assertions.js';

function scenario(body: string) {
  const r = loadScenario(`apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: s }
spec:
${body}`);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

describe('pod startup and request rate', () => {
  it('percentile is nearest-rank', () => {
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(v, 50)).toBe(5);
    expect(percentile(v, 99)).toBe(10);
    expect(percentile(v, 1)).toBe(1);
    expect(percentile([], 50)).toBeNull();
  });

  it('peakInWindow counts the busiest half-open window', () => {
    expect(peakInWindow([0, 100, 999, 1000, 1001, 1500], 1000)).toEqual({ count: 4, atMs: 100 });
    expect(peakInWindow([], 1000)).toEqual({ count: 0, atMs: 0 });
  });

  it('reads created → Running from the apiserver history, and the assertions judge it', () => {
    const s = scenario(`  until: 60s
  kubelet: { statusManager: classic, apiQPS: 1, apiBurst: 1 }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
      x-kss: { replicas: 5 }
  expect:
    - podStartup: { of: running, count: 5, p99: 20s }
    - podStartup: { of: ready, max: 1s }
    - requestRate: { verb: get, max: 1 }
    - requestRate: { verb: patch, max: 0 }`);
    const r = runScenario(s);
    const sum = podStartup(r.world.apiserver.history);
    expect(sum.pods).toBe(5);
    expect(sum.running.count).toBe(5);
    expect(sum.running.p50Ms!).toBeGreaterThan(1000);
    expect(r.assertions.map((a) => a.ok)).toEqual([true, false, true, false]);
  });
});

describe('x-kss.replicas', () => {
  it('generates name-0 … name-(N-1), usable in the timeline', () => {
    const s = scenario(`  kubelet: { runtime: none }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
      x-kss: { replicas: 3 }
  timeline:
    - { at: 1s, delete: { pod: web-2 } }`);
    expect(s.pods.map((p) => p.key)).toEqual(['default/web-0', 'default/web-1', 'default/web-2']);
  });

  it('reports a generated name taken twice, and replicas on a static pod', () => {
    const r = loadScenario(`apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: s }
spec:
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
      x-kss: { replicas: 2 }
    - metadata: { name: web-1 }
      spec: { containers: [{ name: main, image: nginx }] }
  staticPods:
    - metadata: { name: s }
      spec: { containers: [{ name: main, image: nginx }] }
      x-kss: { replicas: 2 }`);
    expect(r.ok).toBe(false);
    const codes = r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
    expect(codes).toContain('DUPLICATE_POD spec.pods[1].metadata.name');
    expect(codes).toContain('INVALID_VALUE spec.staticPods[0].x-kss.replicas');
  });
});

describe('the kubelet requests of a pod start', () => {
  it('a projected token costs one TokenRequest per pod; events go through the chosen client', () => {
    const s = scenario(`  until: 20s
  kubelet: { statusManager: current, events: { eventRecordQPS: 1, eventBurst: 1 } }
  pods:
    - metadata: { name: web }
      spec:
        containers: [{ name: main, image: nginx }]
        volumes: [{ name: kube-api-access, projected: { sources: [{ serviceAccountToken: { path: token } }] } }]
      x-kss: { replicas: 2 }`);
    const r = runScenario(s);
    const count = (type: string) => r.trace.filter((x) => x.type === type).length;
    expect(count('api.token')).toBe(2);
    expect(count('api.event')).toBe(6);
    // The event client's own bucket (1 QPS) spaces the six events a second apart.
    const events = r.trace.filter((x) => x.type === 'api.event').map((x) => x.t);
    expect(events[5]! - events[0]!).toBeGreaterThanOrEqual(4000);
  });
});
