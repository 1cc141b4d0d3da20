// One simulated node at the default max-pods (110) for one virtual hour, current generation: the
// node hot path (PLEG relists, pod workers, status generation, restart back-off, prober) feeding the
// status manager, the network and the apiserver.
//
// The mix: 30 crash-looping Always pods (each attempt runs 3..29 s and exits 1, so they spend the
// hour in CrashLoopBackOff), 40 Jobs (Never, exit 0 after 5..124 s, created one every 90 s over the
// hour through x-kss.createAt), and 40 long runners with a readiness probe whose result flips every
// 20..59 s (timeline `ready` steps generated in the YAML text).
import { loadScenario } from '../scenario/index.js';
import { World } from '../world/world.js';
import type { BenchResult } from './types.js';

export const NODE_110_MIX = { crashLoopers: 30, jobs: 40, runners: 40 } as const;

/** The scenario text: deterministic (no RNG: periods come from the pod index). */
export function node110ScenarioText(untilSeconds = 3600): string {
  const { crashLoopers, jobs, runners } = NODE_110_MIX;
  const lines = [
    'apiVersion: kss/v1alpha1',
    'kind: Scenario',
    'metadata: { name: bench-node-110 }',
    'spec:',
    `  until: ${untilSeconds}s`,
    '  invariants: none',
    '  kubelet: { statusManager: current, runtime: simulated }',
    '  pods:',
  ];
  for (let i = 0; i < crashLoopers; i++) {
    const run = 3 + ((i * 7) % 27);
    lines.push(
      `    - { metadata: { name: crash-${i} }, spec: { containers: [{ name: main, image: busybox }] }, x-kss: { containers: { main: [{ run: ${run}s, exit: 1 }] } } }`,
    );
  }
  for (let i = 0; i < jobs; i++) {
    const run = 5 + ((i * 13) % 120);
    const createAt = i * 90;
    lines.push(
      `    - { metadata: { name: job-${i} }, spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }, x-kss: { createAt: ${createAt}s, containers: { main: [{ run: ${run}s, exit: 0 }] } } }`,
    );
  }
  for (let i = 0; i < runners; i++) {
    lines.push(
      `    - { metadata: { name: web-${i} }, spec: { containers: [{ name: main, image: nginx, readinessProbe: { httpGet: { path: /healthz, port: 8080 } } }] } }`,
    );
  }
  lines.push('  timeline:');
  for (let i = 0; i < runners; i++) {
    const period = 20 + ((i * 11) % 40);
    let value = true;
    for (let t = 2 + (i % 10); t < untilSeconds; t += period) {
      lines.push(`    - { at: ${t}s, ready: { pod: web-${i}, container: main, value: ${value} } }`);
      value = !value;
    }
  }
  return lines.join('\n') + '\n';
}

/** One run of the hour in a fresh World: wall ms and the counts it reports. */
function runOnce(loaded: LoadedScenario) {
  const t0 = performance.now(); // wall-clock-ok: a benchmark measures wall time
  const w = new World(loaded.scenario, { keepTrace: false });
  w.setup();
  // Counted by the tracer, not by a listener: a listener would make every record be built, which
  // is a cost of reading the trace, not of simulating.
  const tracedBefore = w.tracer.count;
  const counts = w.tracer.countTypes(['runtime.start', 'api.patch', 'step']);
  const end = w.run();
  const wallMs = performance.now() - t0; // wall-clock-ok: a benchmark measures wall time
  if (end.end === 'runaway') throw new Error(end.message);
  return { w, wallMs, traced: w.tracer.count - tracedBefore, counts };
}

/** Runs after the first that warm the JIT up before the measured ones, and the measured ones. */
type LoadedScenario = Extract<ReturnType<typeof loadScenario>, { ok: true }>;

let loadedOnce: LoadedScenario | undefined;

/** One run of the hour (for profiling scripts; the scenario is parsed once per process, as in
 *  node110): wall ms and engine events. */
export function node110Once(): { wallMs: number; events: number } {
  if (loadedOnce === undefined) {
    const loaded = loadScenario(node110ScenarioText(), '<bench>');
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    loadedOnce = loaded;
  }
  const r = runOnce(loadedOnce);
  return { wallMs: r.wallMs, events: r.w.engine.events };
}

export const NODE_110_RUNS = { warmup: 2, measured: 5 } as const;

/**
 * The hour, run 1 + warmup + measured times in this (fresh) process. Two figures, both reported:
 * `cold` is the first run, what one `kss run` of this scenario costs (V8 compiles the hot path
 * while it runs: about a third of that run); `wallMs` (and so `virtualSecPerWallSec`) is the
 * median of the measured runs, the simulator's steady-state throughput — the figure for long or
 * repeated runs (`kss test` over many scenarios, `kss explore`). Every run simulates the same
 * deterministic hour (the counts are checked equal).
 */
export function node110(): BenchResult {
  const text = node110ScenarioText();
  const loaded = loadScenario(text, '<bench>');
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const cold = runOnce(loaded);
  for (let i = 0; i < NODE_110_RUNS.warmup; i++) runOnce(loaded);
  const measured: number[] = [];
  for (let i = 0; i < NODE_110_RUNS.measured; i++) {
    const r = runOnce(loaded);
    if (r.w.engine.events !== cold.w.engine.events) throw new Error('node-110: a run differed from the first (non-deterministic)');
    measured.push(r.wallMs);
  }
  measured.sort((a, b) => a - b);
  const wallMs = measured[Math.floor(measured.length / 2)];
  const { w, counts } = cold;
  return {
    name: 'node-110',
    events: w.engine.events,
    wallMs,
    virtualMs: w.untilMs,
    coldWallMs: Math.round(cold.wallMs),
    coldVirtualSecPerWallSec: Math.round(w.untilMs / cold.wallMs),
    measuredRuns: measured.map((m) => Math.round(m)),
    traceEvents: cold.traced,
    pods: loaded.scenario.pods.length,
    containerStarts: counts.get('runtime.start'),
    statusPatches: counts.get('api.patch'),
    timelineSteps: counts.get('step'),
  };
}
