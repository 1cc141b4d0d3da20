// runSuite: discover scenario files, choose the cases (filters, shard, seeds), run them on worker
// threads or in-process, and return the results in a stable order. Usable without the CLI:
//
//   import { runSuite } from 'kss';
//   const { results, wallMs } = await runSuite(['scenarios'], { jobs: 4 });
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadScenarioFile } from '../scenario/index.js';
import { renderLoadIssues } from './load.js';
import type { Variant } from '../scenario/types.js';
import { runCase } from './case.js';
import { discoverScenarios, parseShard, takeShard, type DiscoveredFile, type Shard } from './discover.js';
import { resolveWorkerScript, runInWorkers } from './pool.js';
import type { CaseResult, CaseSpec, GoldenMode } from './types.js';

export interface SuiteOptions {
  /** Base of relative paths, and of the paths shown (default process.cwd()). */
  cwd?: string;
  /** Worker threads (default min(available CPUs, 4)); 1 runs in-process. */
  jobs?: number;
  /** Keep scenarios that have any of these tags. */
  tags?: readonly string[];
  /** Keep scenarios whose name or path matches. */
  grep?: RegExp | string;
  /** `i/n`: the i-th of n disjoint parts of the sorted, filtered list. */
  shard?: Shard | string;
  /** Run each scenario under this many consecutive seeds (default 1). */
  seeds?: number;
  /** First seed (default: each scenario's own spec.seed). */
  seed?: number;
  /** Status manager generation for every case (default: each scenario's own). */
  variant?: Variant;
  /** check (default) | update (rewrite goldens) | off. */
  golden?: GoldenMode;
  /** A missing golden fails its case. */
  ci?: boolean;
  /** Stop handing out cases after the first failure; the rest are reported as skipped. */
  bail?: boolean;
  /** Wall-clock limit per case, in worker mode (ms; 0: none). */
  timeoutMs?: number;
  maxEvents?: number;
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
  /** Things worth saying that are no case's: e.g. no worker script, so in-process. */
  notes: string[];
}

export class SuiteUsageError extends Error {}

export function defaultJobs(): number {
  return Math.max(1, Math.min(availableParallelism(), 4));
}

export interface SuitePlan {
  /** Specs to run and results already known (files that did not load), by id. */
  entries: Array<{ spec: CaseSpec } | { result: CaseResult }>;
  /** Scenario files found before filtering. */
  discovered: number;
  /** Files chosen (after filters and shard). */
  files: DiscoveredFile[];
  /** Golden files whose scenario is gone. */
  orphanGoldens: string[];
}

function toRegExp(grep: RegExp | string): RegExp {
  if (grep instanceof RegExp) return grep;
  try {
    return new RegExp(grep);
  } catch (err) {
    throw new SuiteUsageError(`--grep: not a regular expression: ${(err as Error).message}`);
  }
}

/** Discover, filter, shard and expand into cases. Throws SuiteUsageError for bad options. */
export function planSuite(paths: readonly string[], opts: SuiteOptions = {}): SuitePlan {
  const cwd = opts.cwd ?? process.cwd();
  const seeds = opts.seeds ?? 1;
  if (!Number.isSafeInteger(seeds) || seeds < 1) throw new SuiteUsageError(`--seeds: expected a whole number ≥ 1, got ${seeds}`);
  if (opts.seed !== undefined && !Number.isSafeInteger(opts.seed)) throw new SuiteUsageError(`--seed: expected a whole number, got ${opts.seed}`);
  let shard: Shard | undefined;
  if (opts.shard !== undefined) {
    shard = typeof opts.shard === 'string' ? parseShard(opts.shard) : opts.shard;
    if (shard === undefined || shard.index < 1 || shard.count < 1 || shard.index > shard.count) {
      throw new SuiteUsageError(`--shard: expected i/n with 1 ≤ i ≤ n (e.g. 2/4), got ${JSON.stringify(opts.shard)}`);
    }
  }
  const grep = opts.grep !== undefined ? toRegExp(opts.grep) : undefined;
  const found = discoverScenarios(paths, cwd);
  if (found.missing.length > 0) throw new SuiteUsageError(`no such file or folder: ${found.missing.join(', ')}`);
  if (found.files.length === 0) throw new SuiteUsageError(`no scenario files (*.yaml, *.yml) under ${paths.join(', ')}`);
  const tags = opts.tags ?? [];
  const goldenMode = opts.golden ?? 'check';

  type Loaded = { file: DiscoveredFile; load: ReturnType<typeof loadScenarioFile> };
  const chosen: Loaded[] = [];
  for (const file of found.files) {
    const load = loadScenarioFile(file.abs);
    if (load.ok) {
      const sc = load.scenario;
      if (tags.length > 0 && !sc.tags.some((t) => tags.includes(t))) continue;
      if (grep !== undefined && !(grep.test(sc.name) || grep.test(file.display))) continue;
    } else if (grep !== undefined && !grep.test(file.display)) {
      // A file that does not load has no name or tags to filter on; it stays unless --grep rules
      // its path out: a broken file in the suite is a failure, never silently skipped.
      continue;
    }
    chosen.push({ file, load });
  }
  const mine = takeShard(chosen, shard);

  const entries: SuitePlan['entries'] = [];
  for (const { file, load } of mine) {
    if (!load.ok) {
      entries.push({
        result: {
          id: entries.length,
          file: file.display,
          name: file.display,
          caseName: file.display,
          tags: [],
          status: 'fail',
          invalid: true,
          failures: [renderLoadIssues(load, file.abs, file.display)],
          notes: [],
          durationMs: 0,
        },
      });
      continue;
    }
    const sc = load.scenario;
    const first = opts.seed ?? sc.seed;
    const ownVariant = opts.variant === undefined || opts.variant === sc.kubelet.statusManager;
    for (let k = 0; k < seeds; k++) {
      const seed = first + k;
      entries.push({
        spec: {
          id: entries.length,
          abs: file.abs,
          display: file.display,
          seed,
          variant: opts.variant,
          // Goldens record the scenario's own seed and generation only.
          golden: seed === sc.seed && ownVariant,
          multiSeed: seeds > 1,
          goldenMode,
          ci: opts.ci ?? false,
          maxEvents: opts.maxEvents,
        },
      });
    }
  }
  return { entries, discovered: found.files.length, files: mine.map((m) => m.file), orphanGoldens: found.orphanGoldens };
}

function skippedCase(spec: CaseSpec, why: string): CaseResult {
  return { id: spec.id, file: spec.display, name: spec.display, caseName: spec.display, seed: spec.seed, variant: spec.variant, tags: [], status: 'skipped', failures: [], notes: [why], durationMs: 0 };
}

/** Run a suite. Throws SuiteUsageError for bad options or paths. */
export async function runSuite(paths: readonly string[], opts: SuiteOptions = {}): Promise<SuiteResult> {
  const t0 = performance.now(); // wall-clock-ok: report timing only
  const plan = planSuite(paths, opts);
  const total = plan.entries.length;
  const results: Array<CaseResult | undefined> = new Array(total);
  let nextOut = 0;
  let failedSoFar = false;
  const record = (r: CaseResult) => {
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
    else specs.push(e.spec);
  }
  const jobs = Math.max(1, Math.floor(opts.jobs ?? defaultJobs()));
  const notes: string[] = plan.orphanGoldens.map((g) => `golden ${g} has no scenario beside it (delete it, or restore its scenario)`);
  let mode: SuiteResult['mode'] = 'in-process';
  let script: URL | undefined;
  if (jobs > 1 && specs.length > 1 && opts.workerScript !== false) {
    script = opts.workerScript ?? resolveWorkerScript();
    if (script === undefined) notes.push('no built worker script (dist/testing/worker.js): running in-process; build with `npm run build` for parallel runs');
  }
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
    notes,
  };
}
