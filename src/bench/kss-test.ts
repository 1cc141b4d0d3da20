// `kss test` over every repo scenario: scenarios per second in-process (first, from cold, as
// before) and on worker threads; which of the two the suite chooses when no -j is given (by the
// CPUs and the cases: autoJobs); and the loading share: the plan's time (finding, reading and
// loading each file, once) over the in-process suite's.
import { cpus } from 'node:os';
import { autoJobs, runSuite } from '../testing/suite.js';
import type { BenchResult } from './types.js';

const perSec = (n: number, ms: number) => Math.round((n / ms) * 1000 * 10) / 10;

export async function kssTest(): Promise<BenchResult> {
  const one = await runSuite(['scenarios'], { jobs: 1 });
  const jobs = Math.min(cpus().length, 4);
  const many = await runSuite(['scenarios'], { jobs });
  const n = one.results.length;
  const auto = autoJobs(n);
  const chosen = auto.jobs === 1 ? one : many;
  return {
    name: 'kss-test',
    events: 0,
    wallMs: one.wallMs + many.wallMs,
    virtualMs: 0,
    scenarios: n,
    autoMode: auto.jobs === 1 ? 'in-process' : `${auto.jobs} worker threads`,
    autoChosenFor: auto.why,
    autoScenariosPerSec: perSec(n, chosen.wallMs),
    inProcessWallMs: Math.round(one.wallMs),
    inProcessScenariosPerSec: perSec(n, one.wallMs),
    inProcessLoadingMs: Math.round(one.planMs),
    inProcessLoadingShare: Math.round((one.planMs / one.wallMs) * 1000) / 1000,
    workers: jobs,
    workerMode: many.mode,
    workersWallMs: Math.round(many.wallMs),
    workersScenariosPerSec: perSec(n, many.wallMs),
    failed: one.failed + many.failed,
  };
}
