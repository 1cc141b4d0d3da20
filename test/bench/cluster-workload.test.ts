// The cluster benches' workload (cluster-workload.ts) as node-hour runs it: one default node.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.js';
import { World } from '../../src/world/world.js';
import { clusterScenario } from '../../src/bench/cluster-workload.js';

describe('clusterScenario for one node (node-hour)', () => {
  it('is a scenario of the single default kubelet: 100 pods, 20 Jobs, 20 crash loops, readiness steps', () => {
    const loaded = loadScenario(clusterScenario(1, 100, 1), '<test>');
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues.slice(0, 3)));
    const pods = loaded.scenario.pods;
    expect(pods.length).toBe(100);
    expect(new Set(pods.map((p) => p.pod.spec?.nodeName)).size).toBe(1);
    expect(pods.filter((p) => p.pod.spec?.restartPolicy !== 'Always').length).toBe(20);
    expect(loaded.scenario.timeline.length).toBeGreaterThan(60);
    expect(loaded.scenario.timeline.every((s) => s.action === 'ready')).toBe(true);
  });

  it('runs the hour deterministically, with restarts and probe results', () => {
    const loaded = loadScenario(clusterScenario(1, 20, 1), '<test>');
    if (!loaded.ok) throw new Error('load');
    const run = () => {
      const w = new World(loaded.scenario, { keepTrace: false });
      w.setup();
      const counts = w.tracer.countTypes(['runtime.start', 'probe.result']);
      w.run();
      return { events: w.engine.events, starts: counts.get('runtime.start'), probes: counts.get('probe.result') };
    };
    const a = run();
    expect(run()).toEqual(a);
    expect(a.starts!).toBeGreaterThan(20 + 4 * 10); // each crash loop restarts 10+ times in the hour
    expect(a.probes!).toBeGreaterThan(12 * 5);
  });
});
