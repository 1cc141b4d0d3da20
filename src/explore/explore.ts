// explore(scenario, options): the library entry of `kss explore`. Plans runs (the strategy),
// runs them in-process or on worker threads, for one shard or all, folds the partial results,
// then shrinks, writes and checks each find. Everything but wall time is a function of
// (scenario, options): the same finds and the same bytes for any -j and any sharding.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Scenario } from '../scenario/types.js';
import { yamlData } from '../scenario/yaml-text.js';
import { TOOL_VERSION } from '../world/run.js';
import { faultSpace } from './faults.js';
import { finishFind } from './finish.js';
import { resolveExploreWorker, runPool, shardIndex, type Shard } from './parallel.js';
import { mergePartials, newSearch, partialOf, searchOne, type Partial } from './search.js';
import type { StrategyContext } from './strategy.js';
import type { ExploreOptions, ExploreReport, ShrunkFind } from './types.js';

export const DEFAULT_RUNS = 1000;
const BATCH = 64;

export interface ExploreResult {
  report: ExploreReport;
  finds: ShrunkFind[];
  /** Wall time of the search and of the shrinking (not part of the report: it is not deterministic). */
  timing: { searchMs: number; shrinkMs: number[] };
}

export interface ExploreInput extends ExploreOptions {
  /** The scenario file's text (default: read from scenario.file). Shrunk finds are written from
   *  it, and worker threads load the scenario from it. */
  source?: string;
}

export async function explore(scenario: Scenario, opts: ExploreInput = {}): Promise<ExploreResult> {
  const source = opts.source ?? readFileSync(scenario.file, 'utf8');
  const baseSeed = opts.seed ?? scenario.seed;
  const oracle = opts.oracle ?? 'invariants';
  const shard: Shard = opts.shard ?? { index: 1, total: 1 };
  const ctx: StrategyContext = { scenario, baseSeed, space: faultSpace(scenario, scenario.explore) };
  const runs = opts.timeMs === undefined ? (opts.runs ?? DEFAULT_RUNS) : undefined;
  const t0 = performance.now(); // wall-clock-ok: the --time budget and progress only
  const elapsed = () => performance.now() - t0; // wall-clock-ok
  // The shard's j-th index, in order; a time budget stops handing out batches, so the runs done
  // are always a prefix of the shard's indices.
  let j = 0;
  const nextBatch = (): number[] | undefined => {
    if (opts.timeMs !== undefined && elapsed() >= opts.timeMs) return undefined;
    const out: number[] = [];
    while (out.length < BATCH) {
      const k = shardIndex(shard, j);
      if (runs !== undefined && k >= runs) break;
      out.push(k);
      j++;
    }
    return out.length > 0 ? out : undefined;
  };
  const parts: Partial[] = [];
  const total = runs === undefined ? undefined : Math.ceil(Math.max(0, runs - (shard.index - 1)) / shard.total);
  const progress = (p: Partial) => opts.onProgress?.({ runs: p.runs, total, finds: p.finds.length, histories: p.histories.length, elapsedMs: elapsed() });
  const script = (opts.jobs ?? 1) > 1 ? resolveExploreWorker() : undefined;
  if (script === undefined) {
    const st = newSearch(ctx, oracle);
    for (let b = nextBatch(); b !== undefined; b = nextBatch()) {
      for (const k of b) searchOne(st, k);
      if (opts.onProgress) progress(partialOf(st));
    }
    parts.push(partialOf(st));
  } else {
    let merged: Partial | undefined;
    await runPool({
      jobs: opts.jobs!,
      script,
      init: { text: source, file: scenario.file, baseSeed, oracle },
      nextBatch,
      onPartial: (_b, p) => {
        parts.push(p);
        merged = mergePartials(merged ? [merged, p] : [p]);
        progress(merged);
      },
    });
  }
  const searchMs = elapsed();
  const all = mergePartials(parts);
  const data = yamlData(source);
  const shrinkMs: number[] = [];
  const shrunk: ShrunkFind[] = [];
  for (const f of all.finds) {
    const s0 = performance.now(); // wall-clock-ok: shrink timing for the report line
    shrunk.push(finishFind(scenario, data, f, oracle, opts.shrink ?? true));
    shrinkMs.push(performance.now() - s0); // wall-clock-ok
  }
  const report: ExploreReport = {
    kss: TOOL_VERSION,
    scenario: { name: scenario.name, file: scenario.file, sha256: scenario.sha256 },
    strategy: opts.strategy ?? 'random',
    seed: baseSeed,
    oracle,
    runsRequested: runs,
    shard,
    stats: {
      runs: all.runs,
      failingRuns: all.failingRuns,
      coverage: { statusHistories: all.histories.length, faultSets: all.faultSets.length, choicePrefixes: all.choicePrefixes.length },
    },
    coverage: { statusHistories: all.histories, faultSets: all.faultSets, choicePrefixes: all.choicePrefixes },
    finds: shrunk.map(({ yaml: _y, explanation: _e, issue: _i, trace: _t, ...rest }) => rest),
  };
  return { report, finds: shrunk, timing: { searchMs, shrinkMs } };
}
