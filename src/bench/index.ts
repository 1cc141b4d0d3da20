// `npm run bench [-- NAME...]`: one JSON object per line per case.
// Wall-clock use is the point of a benchmark; this file is not simulation code.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { coldRun } from './cold-run.js';
import { engineTimeouts } from './engine-timeouts.js';
import { node110 } from './node-110.js';
import { nodeHour } from './node-hour.js';
import { kssTest } from './kss-test.js';
import { exploreBench } from './explore.js';
import { loadBench } from './load.js';
import { statusManager1000 } from './status-manager-1000.js';
import { longCrashloop, nodeScaling, scalingPoints } from './scaling.js';
import { cluster100x100, clusterPoints, clusterScaling } from './cluster.js';
import type { BenchResult } from './types.js';

const cases: Record<string, () => BenchResult | Promise<BenchResult>> = {
  'engine-timeouts': engineTimeouts,
  'status-manager-1000': () => statusManager1000('current'),
  'status-manager-1000-classic': () => statusManager1000('classic'),
  'node-110': node110,
  'node-hour-100': () => nodeHour(100),
  'node-hour-1000': () => nodeHour(1000),
  'cold-run': coldRun,
  'kss-test': kssTest,
  'long-crashloop': longCrashloop,
  'node-scaling': nodeScaling,
  'cluster-scaling': clusterScaling,
  'cluster-100x100': cluster100x100,
  explore: exploreBench,
};
/** Cases a parent case runs in a child process of their own; not run by a plain `npm run bench`. */
const hidden: Record<string, () => BenchResult | Promise<BenchResult>> = {
  ...scalingPoints,
  ...clusterPoints,
  'load-10k': () => loadBench(10_000),
  'load-10k-replicas': () => loadBench(10_000, 'replicas'),
  'load-100k': () => loadBench(100_000),
  'load-100k-replicas': () => loadBench(100_000, 'replicas'),
};

/** Names that stand for several cases, each run in a fresh process (`npm run bench -- load`). */
const groups: Record<string, string[]> = { load: ['load-10k', 'load-10k-replicas', 'load-100k', 'load-100k-replicas'] };

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  if (wanted.length === 1 && wanted[0] in groups) {
    for (const name of groups[wanted[0]]) execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], { stdio: 'inherit' });
    return;
  }
  for (const w of wanted) {
    if (!(w in cases) && !(w in hidden)) {
      process.stderr.write(`unknown bench case ${JSON.stringify(w)}; known: ${[...Object.keys(cases), ...Object.keys(groups)].join(', ')}\n`);
      process.exit(2);
    }
  }
  if (wanted.length === 0) {
    // Each case in a fresh process, so that its memory figure is its own.
    for (const name of Object.keys(cases)) {
      execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], { stdio: 'inherit' });
    }
    return;
  }
  for (const name of wanted) {
    if (global.gc) global.gc();
    const r = await (cases[name] ?? hidden[name])();
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024); // peak so far in this process
    const out = {
      ...r,
      wallMs: Math.round(r.wallMs),
      eventsPerSec: r.events ? Math.round(r.events / (r.wallMs / 1000)) : undefined,
      virtualSecPerWallSec: r.virtualMs ? Math.round(r.virtualMs / r.wallMs) : undefined,
      peakRssMb,
    };
    process.stdout.write(JSON.stringify(out) + '\n');
  }
}
void main();
