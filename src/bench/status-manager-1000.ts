// 1000 pods under `runtime: none`, each receiving a new status every second for 10 virtual
// minutes, current generation: the status-manager hot path (setPodStatus → wake-up →
// syncBatch(false) → GET + PATCH) and the apiserver/network under it.
import { loadScenario } from '../scenario/index.js';
import { World } from '../world/world.js';
import type { BenchResult } from './types.js';

export function statusManagerScenarioText(pods: number, variant: 'current' | 'classic'): string {
  const lines = [
    'apiVersion: kss/v1alpha1',
    'kind: Scenario',
    'metadata: { name: bench-status-manager }',
    'spec:',
    '  until: 10m',
    '  invariants: none',
    `  kubelet: { runtime: none, statusManager: ${variant}, apiQPS: 100000, apiBurst: 100000 }`,
    '  pods:',
  ];
  for (let i = 0; i < pods; i++) lines.push(`    - { metadata: { name: p${i} }, spec: { containers: [{ name: c, image: app }] } }`);
  return lines.join('\n') + '\n';
}

export function statusManager1000(variant: 'current' | 'classic' = 'current'): BenchResult {
  const loaded = loadScenario(statusManagerScenarioText(1000, variant), '<bench>');
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const t0 = performance.now(); // wall-clock-ok: a benchmark measures wall time
  const w = new World(loaded.scenario, { keepTrace: false });
  w.setup();
  const pods = w.kubelet!.podManager.getPods();
  w.engine.spawn('driver', (function* () {
    for (let s = 1; ; s++) {
      const sm = w.kubelet!.statusManager;
      for (const pod of pods) {
        sm.setPodStatus(pod, {
          phase: 'Running',
          message: `second ${s}`,
          conditions: [{ type: 'Ready', status: s % 60 < 30 ? 'True' : 'False' }],
        });
      }
      yield 1000;
    }
  })());
  // Counted by the tracer, not by a listener (which would make every record be built).
  const tracedBefore = w.tracer.count;
  w.run();
  const wallMs = performance.now() - t0; // wall-clock-ok: a benchmark measures wall time
  return { name: `status-manager-1000-${variant}`, events: w.engine.events, wallMs, virtualMs: w.untilMs, traceEvents: w.tracer.count - tracedBefore, pods: 1000 };
}
