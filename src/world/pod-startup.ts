// Pod startup latency as SIG scalability measures it (perf-tests' pod_startup_latency): for each
// pod, the time from its creation in the apiserver to the first write that made it Running (and,
// separately, Ready), as a watcher of the apiserver observes it — the store's history is what its
// watch delivers, in order. Percentiles are nearest-rank over the pods that got there; pods that
// never did are counted apart. Read from the apiserver alone: the kubelet's client QPS, latency
// and coalescing all show up here.
import type { StoreWrite } from '../apiserver/index.js';

export interface LatencySummary {
  /** Pods that reached the state within the run. */
  count: number;
  p50Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** The instant the last of them got there. */
  lastAtMs: number | null;
}

export interface PodStartupSummary {
  /** Pods created in the apiserver during the run (first incarnation of each name). */
  pods: number;
  running: LatencySummary;
  ready: LatencySummary;
}

/** Nearest-rank percentile of sorted values (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

function summarise(latencies: number[], lastAt: number[]): LatencySummary {
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    p50Ms: percentile(latencies, 50),
    p90Ms: percentile(latencies, 90),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.length ? latencies[latencies.length - 1]! : null,
    lastAtMs: lastAt.length ? lastAt.reduce((m, t) => Math.max(m, t), 0) : null,
  };
}

function isReady(w: StoreWrite): boolean {
  return (w.object?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The summary over the store's history (each pod's first UID: a recreated pod is not restarted). */
export function podStartup(history: readonly StoreWrite[]): PodStartupSummary {
  const created = new Map<string, { uid: string; atMs: number; running?: number; ready?: number }>();
  for (const w of history) {
    const uid = w.object?.metadata?.uid ?? '';
    let p = created.get(w.key);
    if (p === undefined) {
      if (w.type !== 'ADDED' || w.object === null) continue;
      created.set(w.key, (p = { uid, atMs: w.atMs }));
    }
    if (w.object === null || uid !== p.uid) continue;
    if (p.running === undefined && w.object.status?.phase === 'Running') p.running = w.atMs;
    if (p.ready === undefined && isReady(w)) p.ready = w.atMs;
  }
  const run: number[] = [];
  const runAt: number[] = [];
  const ready: number[] = [];
  const readyAt: number[] = [];
  for (const p of created.values()) {
    if (p.running !== undefined) (run.push(p.running - p.atMs), runAt.push(p.running));
    if (p.ready !== undefined) (ready.push(p.ready - p.atMs), readyAt.push(p.ready));
  }
  return { pods: created.size, running: summarise(run, runAt), ready: summarise(ready, readyAt) };
}
