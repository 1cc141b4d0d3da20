// explore(scenario, options): the library entry of `kss explore`. Plans runs (the strategy),
// runs them in-process or on worker threads, for one shard or all, folds the partial results,
// then shrinks, writes and checks each find. Everything but wall time is a function of
// (scenario, options): the same finds and the same bytes for any -j and any sharding.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Scenario } from '../scenario/types.js';
import { yamlData } from '../scenario/yaml-text.js';
import { TOOL_VERSION } from '../world/run.js';
import { tieCensus } from './choices.js';
import { DEFAULT_RUNS } from './defaults.js';
import { exhaustiveSearch } from './exhaustive.js';
import { faultSpace } from './faults.js';
import { finishFind } from './finish.js';
import { resolveExploreWorker, runPool, shardIndex, type Shard } from './parallel.js';
import { mergePartials, newSearch, partialOf, searchOne, type Partial } from './search.js';
import { pctBound, type StrategyContext } from './strategy.js';
import type { ExploreOptions, ExploreReport, ExploreStats, Progress, ShrunkFind } from './types.js';

export { DEFAULT_RUNS };
export const DEFAULT_PCT_DEPTH = 3;
export const DEFAULT_MAX_DEVIATIONS = 2;
const BATCH = 64;

export interface ExploreResult {
  report: ExploreReport;
  finds: ShrunkFind[];
  /** Wall time of the search and of each shrink (not in the report: it is not deterministic). */
  timing: { searchMs: number; shrinkMs: number[] };
}

export interface ExploreInput extends ExploreOptions {
  /** The scenario file's text (default: read from scenario.file). Shrunk finds are written from
   *  it, and worker threads load the scenario from it. */
  source?: string;
}

interface Setup {
  ctx: StrategyContext;
  source: string;
  shard: Shard;
  runs?: number;
  elapsed: () => number;
  pct?: ExploreStats['pct'];
}

export async function explore(scenario: Scenario, opts: ExploreInput = {}): Promise<ExploreResult> {
  const t0 = performance.now(); // wall-clock-ok: the --time budget and progress only
  const strategy = opts.strategy ?? 'random';
  const ctx: StrategyContext = { scenario, baseSeed: opts.seed ?? scenario.seed, space: faultSpace(scenario, scenario.explore), strategy };
  let pct: ExploreStats['pct'];
  if (strategy === 'pct') {
    const depth = opts.depth ?? DEFAULT_PCT_DEPTH;
    const census = tieCensus(scenario);
    ctx.pct = { depth, ties: census.ties };
    pct = { depth, ties: census.ties, sources: census.sources, bound: pctBound(census.sources, census.ties, depth) };
  }
  const setup: Setup = {
    ctx,
    source: opts.source ?? readFileSync(scenario.file, 'utf8'),
    shard: opts.shard ?? { index: 1, total: 1 },
    runs: opts.timeMs === undefined ? (opts.runs ?? DEFAULT_RUNS) : undefined,
    elapsed: () => performance.now() - t0, // wall-clock-ok
    pct,
  };
  const { all, exhausted } = strategy === 'exhaustive' ? exhaustive(setup, opts) : await indexed(setup, opts);
  const searchMs = setup.elapsed();
  const oracle = opts.oracle ?? 'invariants';
  const data = yamlData(setup.source);
  const shrinkMs: number[] = [];
  const finds: ShrunkFind[] = [];
  for (const f of all.finds) {
    const s0 = performance.now(); // wall-clock-ok: shrink timing for the report line
    finds.push(finishFind(scenario, data, f, oracle, opts.shrink ?? true));
    shrinkMs.push(performance.now() - s0); // wall-clock-ok
  }
  return { report: reportOf(setup, opts, all, finds, exhausted), finds, timing: { searchMs, shrinkMs } };
}

function reportOf(s: Setup, opts: ExploreOptions, all: Partial, finds: ShrunkFind[], exhausted?: boolean): ExploreReport {
  const { scenario } = s.ctx;
  const coverage = { statusHistories: all.histories.length, faultSets: all.faultSets.length, choicePrefixes: all.choicePrefixes.length, ...(exhausted !== undefined ? { exhausted } : {}) };
  return {
    kss: TOOL_VERSION,
    scenario: { name: scenario.name, file: scenario.file, sha256: scenario.sha256 },
    strategy: s.ctx.strategy ?? 'random',
    seed: s.ctx.baseSeed,
    oracle: opts.oracle ?? 'invariants',
    runsRequested: s.runs,
    shard: s.shard,
    stats: { runs: all.runs, failingRuns: all.failingRuns, coverage, ...(s.pct ? { pct: s.pct } : {}) },
    coverage: { statusHistories: all.histories, faultSets: all.faultSets, choicePrefixes: all.choicePrefixes },
    finds: finds.map(({ yaml: _y, explanation: _e, issue: _i, trace: _t, choices: _c, ...rest }) => rest),
  };
}

function progressOf(s: Setup, opts: ExploreOptions): (p: Partial) => void {
  const total = s.runs === undefined ? undefined : Math.ceil(Math.max(0, s.runs - (s.shard.index - 1)) / s.shard.total);
  return (p) => opts.onProgress?.({ runs: p.runs, total, finds: p.finds.length, histories: p.histories.length, elapsedMs: s.elapsed() } satisfies Progress);
}

/** random and pct: run k's plan depends on (seed, k) alone; a shard takes k ≡ i−1 (mod n), in
 *  order, batch by batch (a time budget stops handing out batches: always a prefix). */
async function indexed(s: Setup, opts: ExploreOptions): Promise<{ all: Partial; exhausted?: boolean }> {
  let j = 0;
  const nextBatch = (): number[] | undefined => {
    if (opts.timeMs !== undefined && s.elapsed() >= opts.timeMs) return undefined;
    const out: number[] = [];
    while (out.length < BATCH) {
      const k = shardIndex(s.shard, j);
      if (s.runs !== undefined && k >= s.runs) break;
      out.push(k);
      j++;
    }
    return out.length > 0 ? out : undefined;
  };
  const oracle = opts.oracle ?? 'invariants';
  const progress = progressOf(s, opts);
  const script = (opts.jobs ?? 1) > 1 ? resolveExploreWorker() : undefined;
  if (script === undefined) {
    const st = newSearch(s.ctx, oracle);
    for (let b = nextBatch(); b !== undefined; b = nextBatch()) {
      for (const k of b) searchOne(st, k);
      if (opts.onProgress) progress(partialOf(st));
    }
    return { all: mergePartials([partialOf(st)]) };
  }
  const parts: Partial[] = [];
  let merged: Partial | undefined;
  await runPool({
    jobs: opts.jobs!,
    script,
    init: { text: s.source, file: s.ctx.scenario.file, baseSeed: s.ctx.baseSeed, oracle, strategy: s.ctx.strategy ?? 'random', pct: s.ctx.pct },
    nextBatch,
    onPartial: (_b, p) => {
      parts.push(p);
      merged = mergePartials(merged ? [merged, p] : [p]);
      progress(merged);
    },
  });
  return { all: mergePartials(parts) };
}

/** exhaustive: one depth-first search in this thread (a shard takes its subtrees). */
function exhaustive(s: Setup, opts: ExploreOptions): { all: Partial; exhausted: boolean } {
  const st = newSearch(s.ctx, opts.oracle ?? 'invariants');
  const { exhausted } = exhaustiveSearch(st, { maxDeviations: opts.maxDeviations ?? DEFAULT_MAX_DEVIATIONS, budget: s.runs ?? Number.POSITIVE_INFINITY, shard: s.shard, deadline: opts.timeMs, elapsed: s.elapsed });
  const all = mergePartials([partialOf(st)]);
  progressOf(s, opts)(all);
  return { all, exhausted };
}
