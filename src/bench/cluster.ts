// Bench cases of many nodes on one apiserver (issue 11), on the mixed workload of
// cluster-workload.ts (per 100 pods: 20 Jobs, 20 crash loops, 60 long runners whose readiness
// flips every 3..6 minutes), for one virtual hour:
// - cluster-scaling: 1, 10, 50 and 100 nodes of 100 pods — wall ms per pod-hour for each (load
//   included), the ratio 100 nodes / 1 node (target <= 1.5: the cost of a node must not grow with
//   the number of nodes), and peak memory for each;
// - cluster-100x100: 100 nodes × 100 pods, wall seconds and × real time (target >= 200×).
// Each size runs in a fresh process of its own (so its peak memory is its own), after the same
// warm-up of the JIT (a quarter hour of one node, SCALING_WARMUPS times), as scaling.ts does.
import { clusterScenario } from './cluster-workload.js';
import { SCALING_WARMUPS } from './scaling.js';
import { medianRun, round2, runPointInChild as child, runScenarioText } from './points.js';
import type { BenchResult } from './types.js';

export const CLUSTER_SCALING_NODES = [1, 10, 50, 100] as const;
const PODS_PER_NODE = 100;
const HOURS = 1;
/** Measured runs per size (the median is the point's figure): several where a run is short. */
const MEASURED_RUNS: Record<number, number> = { 1: 3, 10: 1, 50: 1, 100: 1 };

/** One run of the cluster in this process: load, then simulate without keeping the trace. */
function runCluster(name: string, nodes: number, hours: number): BenchResult {
  return { ...runScenarioText(name, clusterScenario(nodes, PODS_PER_NODE, hours)), nodes };
}

function warmThenRun(name: string, nodes: number, measured: number): BenchResult {
  for (let i = 0; i < SCALING_WARMUPS; i++) runCluster(`${name}-warmup`, 1, 0.25);
  const runs: BenchResult[] = [];
  for (let i = 0; i < measured; i++) runs.push(runCluster(name, nodes, HOURS));
  return medianRun(name, runs);
}

/** The single-size cases, each run in a child process by the parent cases below. */
export const clusterPoints: Record<string, () => BenchResult> = {};
for (const n of CLUSTER_SCALING_NODES) clusterPoints[`cluster-scaling-${n}`] = () => warmThenRun(`cluster-scaling-${n}`, n, MEASURED_RUNS[n] ?? 1);


export function clusterScaling(): BenchResult {
  const points = CLUSTER_SCALING_NODES.map((n) => ({ n, p: child(`cluster-scaling-${n}`) }));
  const perPodHour = points.map(({ n, p }) => p.wallMs / (n * PODS_PER_NODE * HOURS));
  return {
    name: 'cluster-scaling',
    events: points.reduce((s, { p }) => s + p.events, 0),
    wallMs: points.reduce((s, { p }) => s + p.wallMs, 0),
    virtualMs: CLUSTER_SCALING_NODES.length * HOURS * 3_600_000,
    points: points.map(({ n, p }, i) => ({
      nodes: n,
      pods: n * PODS_PER_NODE,
      wallMs: Math.round(p.wallMs),
      loadMs: p.loadMs,
      events: p.events,
      wallMsPerPodHour: round2(perPodHour[i]),
      cpuMsPerPodHour: round2(p.cpuMs / (n * PODS_PER_NODE * HOURS)),
      peakRssMb: p.peakRssMb,
      measuredRuns: p.measuredRuns,
    })),
    ratio100To1: round2(perPodHour[perPodHour.length - 1] / perPodHour[0]),
    target: 'wall per pod-hour within 1.5x from 1 to 100 nodes',
  };
}

/** 100 nodes × 100 pods for one virtual hour, in a fresh process (the scaling case's largest point). */
export function cluster100x100(): BenchResult {
  const p = child(`cluster-scaling-100`);
  return {
    name: 'cluster-100x100',
    events: p.events,
    wallMs: p.wallMs,
    virtualMs: HOURS * 3_600_000,
    wallSeconds: round2(p.wallMs / 1000),
    loadMs: p.loadMs,
    timesRealTime: round2((HOURS * 3_600_000) / p.wallMs),
    wallMsPerPodHour: round2(p.wallMs / (100 * PODS_PER_NODE * HOURS)),
    cpuSeconds: round2(p.cpuMs / 1000),
    timesRealTimeCpu: round2((HOURS * 3_600_000) / p.cpuMs),
    /** The run's process (the bench's own peakRssMb is this parent's). */
    childPeakRssMb: p.peakRssMb,
    target: '>= 200x real time (one virtual hour in <= 18 s)',
  };
}
