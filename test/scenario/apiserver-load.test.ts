import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.js';

const HEADER = 'apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\nspec:\n';

describe('spec.apiserver.serviceTime and apf', () => {
  it('are absent unless given: every existing scenario keeps an apiserver without load', () => {
    const r = loadScenario(HEADER + '  apiserver: { latency: 1ms..2ms }\n');
    expect(r.ok && r.scenario.apiserver).toEqual({ latency: expect.anything() });
  });

  it('apf: {} is kube-apiserver\'s defaults; overrides are kept per level', () => {
    const r = loadScenario(HEADER + '  apiserver:\n    serviceTime: { base: 5ms }\n    apf:\n      maxRequestsInflight: 100\n      retryAfter: 1\n      priorityLevels:\n        system: { seats: 2, queueLengthLimit: 5 }\n');
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.scenario.apiserver.serviceTime).toEqual({ baseMs: 5, perInflightMs: 0 });
    expect(r.scenario.apiserver.apf).toEqual({ serverConcurrency: 300, requestWaitLimitMs: 15_000, retryAfter: 1, nodeHigh: true, levels: { system: { seats: 2, queueLengthLimit: 5 } } });
    const d = loadScenario(HEADER + '  apiserver: { apf: {} }\n');
    expect(d.ok && d.scenario.apiserver.apf).toEqual({ serverConcurrency: 600, requestWaitLimitMs: 15_000, retryAfter: 'dynamic', nodeHigh: true, levels: {} });
  });

  it("follows the generation's apiserver: v1.20 without node-high and Retry-After 1, v1.23 with node-high", () => {
    const gen = (g: string) => loadScenario(HEADER + `  kubelet: { statusManager: ${g} }\n  apiserver: { apf: {} }\n`);
    const c = gen('classic');
    const t = gen('transitional');
    expect(c.ok && c.scenario.apiserver.apf).toMatchObject({ retryAfter: 1, nodeHigh: false });
    expect(t.ok && t.scenario.apiserver.apf).toMatchObject({ retryAfter: 1, nodeHigh: true });
    const bad = loadScenario(HEADER + '  kubelet: { statusManager: classic }\n  apiserver:\n    apf:\n      priorityLevels:\n        node-high: { seats: 3 }\n');
    expect(!bad.ok && bad.issues.map((i) => i.path)).toEqual(['spec.apiserver.apf.priorityLevels.node-high']);
  });

  it('refuses a hand larger than the queues, too many hash bits, and unknown levels, each placed', () => {
    const r = loadScenario(HEADER + '  apiserver:\n    apf:\n      priorityLevels:\n        system: { queues: 4 }\n        node-high: { queues: 1024, handSize: 15 }\n        sytem: { seats: 1 }\n', 'bad.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const got = r.issues.map((i) => [i.path, i.code]);
    expect(got).toEqual(expect.arrayContaining([
      ['spec.apiserver.apf.priorityLevels.system.queues', 'INVALID_VALUE'],
      ['spec.apiserver.apf.priorityLevels.node-high.handSize', 'INVALID_VALUE'],
      ['spec.apiserver.apf.priorityLevels.sytem', 'UNKNOWN_KEY'],
    ]));
    expect(r.issues.every((i) => i.line > 0)).toBe(true);
  });
});
