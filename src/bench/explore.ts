// `kss explore` throughput: runs per second on one core (one thread) for a 3-pod, 2-minute
// `runtime: none` scenario (scenarios/explore/ready-pods-current.yaml) and a 3-pod simulated node
// (scenarios/explore/web-node-current.yaml), each with swarm faults as the search draws them. The
// scenario is parsed once; each run is planned, run and judged as `kss explore` does. Also per CPU
// second, which a shared machine disturbs less than wall time.
import { fileURLToPath } from 'node:url';
import { loadScenarioFile } from '../scenario/index.js';
import { faultSpace } from '../explore/faults.js';
import { newSearch, searchOne } from '../explore/search.js';
import type { BenchResult } from './types.js';

function measure(rel: string, runs: number): { runsPerSec: number; runsPerCpuSec: number; events: number; wallMs: number; virtualMs: number } {
  const path = fileURLToPath(new URL(`../../${rel}`, import.meta.url));
  const l = loadScenarioFile(path);
  if (!l.ok) throw new Error(`${rel} does not load`);
  const s = l.scenario;
  const ctx = { scenario: s, baseSeed: 1, space: faultSpace(s, s.explore) };
  const warm = newSearch(ctx, 'invariants');
  for (let k = 0; k < Math.min(300, runs); k++) searchOne(warm, k);
  const st = newSearch(ctx, 'invariants');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let k = 0; k < runs; k++) searchOne(st, 1_000_000 + k);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return { runsPerSec: Math.round(runs / (wallMs / 1000)), runsPerCpuSec: Math.round(runs / (cpuMs / 1000)), events: 0, wallMs, virtualMs: runs * s.untilMs };
}

export function exploreBench(): BenchResult {
  const none = measure('scenarios/explore/ready-pods-current.yaml', 3000);
  const node = measure('scenarios/explore/web-node-current.yaml', 600);
  return {
    name: 'explore',
    events: 0,
    wallMs: none.wallMs + node.wallMs,
    virtualMs: 0,
    runsPerSecNone3Pods2m: none.runsPerSec,
    runsPerCpuSecNone3Pods2m: none.runsPerCpuSec,
    runsPerSecNode3Pods2m: node.runsPerSec,
    runsPerCpuSecNode3Pods2m: node.runsPerCpuSec,
  };
}
