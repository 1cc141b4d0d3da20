// Bench cases that check cost grows linearly with what a run does (issue 15):
// - long-crashloop: one crash-looping pod for 10, 100 and 1,000 virtual hours — wall time per
//   virtual hour must stay within 1.3× from 10 h to 1,000 h;
// - node-scaling: one node with 100, 1,000 and 10,000 pods for 10 virtual minutes — wall time per
//   pod must stay within 1.5× across them.
// Each size runs in a fresh process of its own (so its peak memory is its own); the parent case
// collects them into one result with the ratios.
import { medianRun, round2, runPointInChild as child, runScenarioText } from './points.js';
import type { BenchResult } from './types.js';

export const LONG_CRASHLOOP_HOURS = [10, 100, 1000] as const;
export const NODE_SCALING_PODS = [100, 1000, 10000] as const;

/** One Always pod whose container runs 10 s and exits 1, for `hours` virtual hours. */
export function longCrashloopText(hours: number): string {
  return [
    'apiVersion: kss/v1alpha1',
    'kind: Scenario',
    'metadata: { name: bench-long-crashloop }',
    'spec:',
    `  until: ${hours}h`,
    '  invariants: none',
    '  kubelet: { statusManager: current, runtime: simulated }',
    '  pods:',
    '    - { metadata: { name: crash }, spec: { containers: [{ name: main, image: busybox }] }, x-kss: { containers: { main: [{ run: 10s, exit: 1 }] } } }',
    '',
  ].join('\n');
}

/** `pods` pods on one node for 10 virtual minutes: a third crash-looping, a third Jobs, a third long
 *  runners (the mix of node-110, without the readiness steps, so the timeline does not grow with N). */
export function nodeScalingText(pods: number): string {
  const lines = [
    'apiVersion: kss/v1alpha1',
    'kind: Scenario',
    'metadata: { name: bench-node-scaling }',
    'spec:',
    '  until: 10m',
    '  invariants: none',
    "  kubelet: { statusManager: current, runtime: simulated }",
    '  pods:',
  ];
  for (let i = 0; i < pods; i++) {
    const kind = i % 3;
    if (kind === 0) {
      lines.push(`    - { metadata: { name: crash-${i} }, spec: { containers: [{ name: main, image: busybox }] }, x-kss: { containers: { main: [{ run: ${3 + ((i * 7) % 27)}s, exit: 1 }] } } }`);
    } else if (kind === 1) {
      lines.push(`    - { metadata: { name: job-${i} }, spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }, x-kss: { containers: { main: [{ run: ${5 + ((i * 13) % 120)}s, exit: 0 }] } } }`);
    } else {
      lines.push(`    - { metadata: { name: web-${i} }, spec: { containers: [{ name: main, image: nginx }] } }`);
    }
  }
  return lines.join('\n') + '\n';
}

/** Warm-up runs of the smallest size before any measured run, in every point's process. One was
 *  not enough: V8 was still compiling the hot path in the second run of a 100-pod node (2.1 ms per
 *  pod measured, against 0.6–0.9 ms once settled), so the smallest point measured the compiler and
 *  the per-pod ratio said more about warm-up than about the simulation. */
export const SCALING_WARMUPS = 4;

/** Measured runs per size (the median is the point's figure): several where a run is short and
 *  noisy, one where a run takes seconds. Every size gets the same warm-up first. */
const MEASURED_RUNS = { crashloopHours: { 10: 5, 100: 3, 1000: 1 } as Record<number, number>, pods: { 100: 5, 1000: 3, 10000: 1 } as Record<number, number> };

/** The steady-state figure of one size: SCALING_WARMUPS runs of the smallest size (the same for
 *  every size, so no size is favoured), then the median of its measured runs. Load is included in
 *  every run (it grows with N too). */
function warmThenRun(name: string, warmUp: string, text: string, measured: number): BenchResult {
  for (let i = 0; i < SCALING_WARMUPS; i++) runScenarioText(`${name}-warmup`, warmUp);
  const runs: BenchResult[] = [];
  for (let i = 0; i < measured; i++) runs.push(runScenarioText(name, text));
  return medianRun(name, runs);
}

/** The single-size cases, run in a child process each by the parent cases below. */
export const scalingPoints: Record<string, () => BenchResult> = {};
for (const h of LONG_CRASHLOOP_HOURS) scalingPoints[`long-crashloop-${h}h`] = () => warmThenRun(`long-crashloop-${h}h`, longCrashloopText(LONG_CRASHLOOP_HOURS[0]), longCrashloopText(h), MEASURED_RUNS.crashloopHours[h] ?? 1);
for (const n of NODE_SCALING_PODS) scalingPoints[`node-scaling-${n}`] = () => warmThenRun(`node-scaling-${n}`, nodeScalingText(NODE_SCALING_PODS[0]), nodeScalingText(n), MEASURED_RUNS.pods[n] ?? 1);

export function longCrashloop(): BenchResult {
  const points = LONG_CRASHLOOP_HOURS.map((h) => ({ h, p: child(`long-crashloop-${h}h`) }));
  const perHour = points.map(({ h, p }) => p.wallMs / h);
  return {
    name: 'long-crashloop',
    events: points.reduce((s, { p }) => s + p.events, 0),
    wallMs: points.reduce((s, { p }) => s + p.wallMs, 0),
    virtualMs: LONG_CRASHLOOP_HOURS.reduce((s, h) => s + h * 3_600_000, 0),
    points: points.map(({ h, p }, i) => ({ hours: h, wallMs: Math.round(p.wallMs), events: p.events, wallMsPerVirtualHour: round2(perHour[i]), cpuMsPerVirtualHour: round2(p.cpuMs / h), peakRssMb: p.peakRssMb, measuredRuns: p.measuredRuns })),
    ratioLongestToShortest: round2(perHour[perHour.length - 1] / perHour[0]),
    cpuRatioLongestToShortest: round2(points[points.length - 1].p.cpuMs / LONG_CRASHLOOP_HOURS[LONG_CRASHLOOP_HOURS.length - 1] / (points[0].p.cpuMs / LONG_CRASHLOOP_HOURS[0])),
    target: 'wall per virtual hour within 1.3x from 10 h to 1,000 h',
  };
}

export function nodeScaling(): BenchResult {
  const points = NODE_SCALING_PODS.map((n) => ({ n, p: child(`node-scaling-${n}`) }));
  const perPod = points.map(({ n, p }) => p.wallMs / n);
  return {
    name: 'node-scaling',
    events: points.reduce((s, { p }) => s + p.events, 0),
    wallMs: points.reduce((s, { p }) => s + p.wallMs, 0),
    virtualMs: NODE_SCALING_PODS.length * 600_000,
    points: points.map(({ n, p }, i) => ({ pods: n, wallMs: Math.round(p.wallMs), events: p.events, wallMsPerPod: round2(perPod[i]), cpuMsPerPod: round2(p.cpuMs / n), peakRssMb: p.peakRssMb, measuredRuns: p.measuredRuns })),
    ratioMaxToMin: round2(Math.max(...perPod) / Math.min(...perPod)),
    cpuRatioMaxToMin: round2(Math.max(...points.map(({ n, p }) => p.cpuMs / n)) / Math.min(...points.map(({ n, p }) => p.cpuMs / n))),
    target: 'wall per pod within 1.5x from 100 to 10,000 pods',
  };
}
