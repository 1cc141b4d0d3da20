// `kss test` over every repo scenario: scenarios per second in-process and on worker threads.
import { cpus } from 'node:os';
import { runSuite } from '../testing/suite.js';
import type { BenchResult } from './types.js';

export async function kssTest(): Promise<BenchResult> {
  const one = await runSuite(['scenarios'], { jobs: 1 });
  const jobs = Math.min(cpus().length, 4);
  const many = await runSuite(['scenarios'], { jobs });
  const n = one.results.length;
  const virtualMs = 0;
  return {
    name: 'kss-test',
    events: 0,
    wallMs: one.wallMs + many.wallMs,
    virtualMs,
    scenarios: n,
    inProcessWallMs: Math.round(one.wallMs),
    inProcessScenariosPerSec: Math.round((n / one.wallMs) * 1000 * 10) / 10,
    workers: jobs,
    workerMode: many.mode,
    workersWallMs: Math.round(many.wallMs),
    workersScenariosPerSec: Math.round((n / many.wallMs) * 1000 * 10) / 10,
    failed: one.failed + many.failed,
  };
}
