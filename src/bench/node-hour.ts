// One node of the cluster workload (cluster-workload.ts: Jobs, crash loops, long runners with
// readiness flips) for one virtual hour: what each node of issue 11's cluster-100x100 costs. The
// figure is wall ms per pod-hour; cluster-100x100's target (≥ 200× real time, one hour of 10,000
// pods in ≤ 18 s) is 1.8 ms per pod-hour.
import { loadScenario } from '../scenario/index.js';
import { World } from '../world/world.js';
import { clusterScenario } from './cluster-workload.js';
import { round2 } from './points.js';
import type { BenchResult } from './types.js';

type LoadedScenario = Extract<ReturnType<typeof loadScenario>, { ok: true }>;

/** The target of cluster-100x100, per pod-hour. */
export const TARGET_MS_PER_POD_HOUR = 1.8;

/** Warm-up and measured runs per size (after the first, cold, run): fewer where a run is long. */
const RUNS: Record<number, { warmup: number; measured: number }> = { 100: { warmup: 3, measured: 5 }, 1000: { warmup: 1, measured: 3 } };

function runOnce(loaded: LoadedScenario) {
  const t0 = performance.now(); // wall-clock-ok: a benchmark measures wall time
  const w = new World(loaded.scenario, { keepTrace: false });
  w.setup();
  const counts = w.tracer.countTypes(['runtime.start', 'api.patch', 'probe.result']);
  const end = w.run();
  const wallMs = performance.now() - t0; // wall-clock-ok: a benchmark measures wall time
  if (end.end === 'runaway') throw new Error(end.message);
  return { w, wallMs, counts };
}

/** `pods` pods on the one default node for one virtual hour: a cold run, warm-ups, then the
 *  median of the measured runs (the steady state: what each of many nodes in one process costs). */
export function nodeHour(pods: number): BenchResult {
  const loaded = loadScenario(clusterScenario(1, pods, 1), '<bench>');
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues.slice(0, 3)));
  const runs = RUNS[pods] ?? { warmup: 1, measured: 1 };
  const c0 = process.cpuUsage();
  const cold = runOnce(loaded);
  for (let i = 0; i < runs.warmup; i++) runOnce(loaded);
  const measured: number[] = [];
  for (let i = 0; i < runs.measured; i++) {
    const r = runOnce(loaded);
    if (r.w.engine.events !== cold.w.engine.events) throw new Error(`node-hour-${pods}: a run differed from the first (non-deterministic)`);
    measured.push(r.wallMs);
  }
  const c = process.cpuUsage(c0);
  const sorted = measured.slice().sort((a, b) => a - b);
  const wallMs = sorted[sorted.length >> 1];
  const podHours = pods * (cold.w.untilMs / 3_600_000);
  return {
    name: `node-hour-${pods}`,
    events: cold.w.engine.events,
    wallMs,
    virtualMs: cold.w.untilMs,
    pods,
    wallMsPerPodHour: round2(wallMs / podHours),
    coldWallMsPerPodHour: round2(cold.wallMs / podHours),
    cpuMsPerPodHourAllRuns: round2((c.user + c.system) / 1000 / podHours / (1 + runs.warmup + runs.measured)),
    targetMsPerPodHour: TARGET_MS_PER_POD_HOUR,
    measuredRuns: measured.map((m) => Math.round(m)),
    traceEvents: cold.w.tracer.count,
    containerStarts: cold.counts.get('runtime.start'),
    statusPatches: cold.counts.get('api.patch'),
    probeResults: cold.counts.get('probe.result'),
  };
}
