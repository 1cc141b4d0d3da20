// The pieces the multi-size bench cases share (scaling.ts, cluster.ts, node-hour.ts): one size
// run in a fresh process of the bench, the median of a size's measured runs, and rounding.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../scenario/index.js';
import { World } from '../world/world.js';
import type { BenchResult } from './types.js';

/** What a point case prints: its BenchResult line, with the fields the parent cases read. */
export interface Point { name: string; wallMs: number; cpuMs: number; loadMs?: number; events: number; peakRssMb: number; measuredRuns?: number[] }

/** Runs one point case in a fresh process of the bench (its peak memory is its own) and reads its JSON line. */
export function runPointInChild(name: string): Point {
  const bench = fileURLToPath(new URL('./index.js', import.meta.url));
  const out = execFileSync(process.execPath, [...process.execArgv, bench, name], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as Point;
}

/** The median run of a size (by wall time; its CPU time the median CPU time), after checking
 *  that every run handled the same events (a run that differs is not deterministic). */
export function medianRun(name: string, runs: readonly BenchResult[]): BenchResult {
  if (runs.some((r) => r.events !== runs[0].events)) throw new Error(`${name}: the runs differed (non-deterministic)`);
  const sorted = runs.slice().sort((a, b) => a.wallMs - b.wallMs);
  const cpus = runs.map((r) => r.cpuMs as number).sort((a, b) => a - b);
  return { ...sorted[sorted.length >> 1], cpuMs: Math.round(cpus[cpus.length >> 1]), measuredRuns: runs.map((r) => Math.round(r.wallMs)) };
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** One run of a scenario text in this process: load, then simulate without keeping the trace.
 *  Wall and CPU time include the load (it grows with the size too); loadMs is its part. */
export function runScenarioText(name: string, text: string): BenchResult {
  const c0 = process.cpuUsage();
  const t0 = performance.now(); // wall-clock-ok: a benchmark measures wall time
  const loaded = loadScenario(text, '<bench>');
  if (!loaded.ok) throw new Error(`${name}: ${JSON.stringify(loaded.issues.slice(0, 3))}`);
  const t1 = performance.now(); // wall-clock-ok: a benchmark measures wall time
  const w = new World(loaded.scenario, { keepTrace: false });
  w.setup();
  const end = w.run();
  const wallMs = performance.now() - t0; // wall-clock-ok: a benchmark measures wall time
  const c = process.cpuUsage(c0);
  if (end.end === 'runaway') throw new Error(end.message);
  return { name, events: w.engine.events, wallMs, loadMs: Math.round(t1 - t0), cpuMs: (c.user + c.system) / 1000, virtualMs: w.untilMs, pods: loaded.scenario.pods.length };
}
