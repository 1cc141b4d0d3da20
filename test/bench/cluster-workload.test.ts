// The cluster bench's workload: a valid scenario of today's format for one node, with the mix.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.js';
import { World } from '../../src/world/world.js';
import { clusterScenario } from '../../src/bench/cluster-workload.js';

describe('clusterScenario', () => {
  it('one node of 100 pods: 20 Jobs, 20 crash loops, 60 long runners with readiness flips', () => {
    const loaded = loadScenario(clusterScenario(1, 100, 1), '<test>');
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues.slice(0, 3)));
    const pods = loaded.scenario.pods;
    expect(pods.length).toBe(100);
    expect(pods.filter((p) => p.pod.metadata?.name?.startsWith('job-')).length).toBe(20);
    expect(pods.filter((p) => p.pod.metadata?.name?.startsWith('crash-')).length).toBe(20);
    expect(pods.filter((p) => p.pod.metadata?.name?.startsWith('web-')).length).toBe(60);
    expect(pods.every((p) => p.pod.spec?.nodeName === pods[0].pod.spec?.nodeName)).toBe(true);
    expect(loaded.scenario.timeline.every((s) => s.action === 'ready')).toBe(true);
    expect(loaded.scenario.timeline.length).toBeGreaterThan(60 * 10);
  });

  it('runs the hour deterministically: Jobs end, crash loops restart, readiness flips land', () => {
    const loaded = loadScenario(clusterScenario(1, 20, 1), '<test>');
    if (!loaded.ok) throw new Error('load');
    const run = () => {
      const w = new World(loaded.scenario, { keepTrace: false });
      w.setup();
      const counts = w.tracer.countTypes(['runtime.start', 'worker.terminated', 'probe.result']);
      w.run();
      return { events: w.engine.events, starts: counts.get('runtime.start'), done: counts.get('worker.terminated'), probes: counts.get('probe.result') };
    };
    const a = run();
    expect(run()).toEqual(a);
    expect(a.done).toBe(4);
    expect(a.starts!).toBeGreaterThan(20 + 4 * 10); // each crash loop restarts 10+ times in the hour
    expect(a.probes!).toBeGreaterThan(12 * 10);
  });

  it('several nodes: spec.nodes and each pod bound by spec.nodeName', () => {
    const text = clusterScenario(3, 10, 1);
    expect(text).toContain('  nodes:\n    - { name: node-0 }\n    - { name: node-1 }\n    - { name: node-2 }');
    expect(text).toContain('n2-web-0');
    expect(text).toContain('nodeName: node-1, ');
  });
});
