// runSuite: discover scenario files, choose the cases (filters, shard, seeds), run them on worker
// threads or in-process, and return the results in a stable order. Usable without the CLI:
//
//   import { runSuite } from 'kubelet-status-sim';
//   const { results, wallMs } = await runSuite(['scenarios'], { jobs: 4 });
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { lstatSync } from 'node:fs';
import { writeGolden } from '../report/golden.js';
import { runCase } from './case.js';
import { planSuite, type PlanOptions } from './plan.js';
import { resolveWorkerScript, runInWorkers } from './pool.js';

export { planSuite, SuiteUsageError, type SuitePlan } from './plan.js';
import type { CaseResult, CaseSpec } from './types.js';

/** planSuite's options (which cases: paths' base, tags, grep, shard, seeds, generation, goldens,
 *  event limit) and how to run them. */
export interface SuiteOptions extends PlanOptions {
  /** Worker threads; 1 runs in-process. Default: chosen by autoJobs from the CPUs and the number
   *  of cases. */
  jobs?: number;
  /** Stop handing out cases after the first failure; the rest are reported as skipped. */
  bail?: boolean;
  /** Wall-clock limit per case, in worker mode (ms; 0: none). */
  timeoutMs?: number;
  /** Worker script override; false forces in-process. Default: resolveWorkerScript(). */
  workerScript?: URL | false;
  /** Called once per case, in the suite's order, as soon as it and every case before it are done. */
  onResult?: (r: CaseResult) => void;
}

export interface SuiteResult {
  /** Every case, sorted by file path, then seed. */
  results: CaseResult[];
  wallMs: number;
  passed: number;
  failed: number;
  skipped: number;
  /** How the cases ran. */
  mode: 'workers' | 'in-process';
  jobs: number;
  /** Why, when the suite chose (no `jobs` given): e.g. "2 CPUs". */
  chosen?: string;
  /** Wall time of the plan: finding, reading and loading every file (each once). */
  planMs: number;
  /** Things worth saying that are no case's: e.g. no worker script, so in-process. */
  notes: string[];
}

export function defaultJobs(): number {
  return Math.max(1, Math.min(availableParallelism(), 4));
}

/** Cases per worker below which a worker's start (its own module loading and JIT warm-up, about
 *  0.5 s of CPU) costs more than it saves. */
export const MIN_CASES_PER_WORKER = 16;

/** The suite's own choice when no `jobs` is given: worker threads only with at least 3 CPUs
 *  (with 2, the workers' start-up outweighs the second core: `kss test` of the repo's scenarios
 *  measured slower on 2 workers than in-process) and enough cases to share; else in-process. */
export function autoJobs(cases: number, cpus: number = availableParallelism()): { jobs: number; why: string } {
  const jobs = Math.max(1, Math.min(cpus, 4));
  if (cases < MIN_CASES_PER_WORKER * 2) return { jobs: 1, why: `${cases} case${cases === 1 ? '' : 's'}` };
  if (cpus < 3) return { jobs: 1, why: `${cpus} CPU${cpus === 1 ? '' : 's'}` };
  const n = Math.min(jobs, Math.floor(cases / MIN_CASES_PER_WORKER));
  return { jobs: n, why: `${cpus} CPUs, ${cases} cases` };
}

/** --update: write a case's golden here, in the main thread; refused when the scenario was
 *  reached through a symbolic link or the golden is one (it would land outside the tree). */
function writeCaseGolden(r: CaseResult, spec: CaseSpec | undefined): CaseResult {
  const g = r.golden!;
  const { abs, lines } = g.write!;
  const golden = { ...g, write: undefined };
  delete golden.write;
  let linked = spec?.viaLink === true;
  try {
    linked ||= lstatSync(abs).isSymbolicLink();
  } catch {
    /* no golden yet */
  }
  const fail = (why: string): CaseResult => ({ ...r, golden, status: 'fail', failures: [...r.failures, why], notes: r.notes.filter((n) => !/golden/.test(n)) });
  if (linked) return fail(`golden ${g.path}: not written: the scenario or its golden is reached through a symbolic link, and --update writes only beside real files in the tree`);
  try {
    writeGolden(abs, lines);
  } catch (err) {
    return fail(`golden ${g.path}: could not write it: ${(err as Error).message}`);
  }
  return { ...r, golden };
}

function skippedCase(spec: CaseSpec, why: string): CaseResult {
  return { id: spec.id, file: spec.display, name: spec.display, caseName: spec.display, seed: spec.seed, variant: spec.variant, tags: [], status: 'skipped', failures: [], notes: [why], durationMs: 0 };
}

/** Run a suite. Throws SuiteUsageError for bad options or paths. */
export async function runSuite(paths: readonly string[], opts: SuiteOptions = {}): Promise<SuiteResult> {
  const t0 = performance.now(); // wall-clock-ok: report timing only
  const plan = planSuite(paths, opts);
  const planMs = performance.now() - t0; // wall-clock-ok: report timing only
  const total = plan.entries.length;
  const results: Array<CaseResult | undefined> = new Array(total);
  let nextOut = 0;
  let failedSoFar = false;
  const specOf = new Map<number, CaseSpec>();
  const record = (r: CaseResult) => {
    if (r.golden?.write !== undefined) r = writeCaseGolden(r, specOf.get(r.id));
    results[r.id] = r;
    if (r.status === 'fail') failedSoFar = true;
    while (nextOut < total && results[nextOut] !== undefined) {
      const ready = results[nextOut++]!;
      opts.onResult?.(ready);
    }
  };
  const shouldContinue = () => !(opts.bail && failedSoFar);

  const specs: CaseSpec[] = [];
  for (const e of plan.entries) {
    if ('result' in e) record(e.result);
    else {
      specs.push(e.spec);
      specOf.set(e.spec.id, e.spec);
    }
  }
  const auto = opts.jobs === undefined ? autoJobs(specs.length) : undefined;
  const jobs = Math.max(1, Math.floor(opts.jobs ?? auto!.jobs));
  const notes: string[] = plan.orphanGoldens.map((g) => `golden ${g} has no scenario beside it (delete it, or restore its scenario)`);
  let mode: SuiteResult['mode'] = 'in-process';
  let script: URL | undefined;
  // A time limit needs a worker even for one case: a case running in this thread cannot be
  // stopped, so --timeout runs cases on worker threads whatever -j says.
  const timed = (opts.timeoutMs ?? 0) > 0;
  if (((jobs > 1 && specs.length > 1) || (timed && specs.length > 0)) && opts.workerScript !== false) {
    script = opts.workerScript ?? resolveWorkerScript();
    if (script === undefined) notes.push(`no built worker script (dist/testing/worker.js): running in-process${timed ? ', where --timeout cannot stop a case' : ''}; build with \`npm run build\``);
  } else if (timed && opts.workerScript === false) notes.push('in-process: --timeout cannot stop a case here');
  if (script !== undefined) {
    mode = 'workers';
    const notRun = await runInWorkers(specs, { jobs, script, timeoutMs: opts.timeoutMs, shouldContinue, onResult: record });
    for (const s of notRun) record(skippedCase(s, 'not run: --bail stopped the suite after a failure'));
  } else {
    for (const s of specs) {
      record(shouldContinue() ? runCase(s) : skippedCase(s, 'not run: --bail stopped the suite after a failure'));
    }
  }
  const done = results as CaseResult[];
  return {
    results: done,
    wallMs: performance.now() - t0, // wall-clock-ok: report timing only
    passed: done.filter((r) => r.status === 'pass').length,
    failed: done.filter((r) => r.status === 'fail').length,
    skipped: done.filter((r) => r.status === 'skipped').length,
    mode,
    jobs: mode === 'workers' ? Math.min(jobs, specs.length) : 1,
    ...(auto ? { chosen: auto.why } : {}),
    planMs,
    notes,
  };
}
