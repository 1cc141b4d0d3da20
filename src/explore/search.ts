// The search loop over a set of run indices: plan, run, judge, fold into a partial result. What
// every worker and every shard runs; partial results merge (finds by their first run, counts
// summed, coverage sets united) into what one process would have found.
import { runScenario } from '../world/run.js';
import type { Scenario } from '../scenario/types.js';
import { applyPlan } from './apply.js';
import { signatureKey, signaturesOf, statusHistories } from './oracle.js';
import { planOf, type StrategyContext } from './strategy.js';
import type { Oracle, RawFind } from './types.js';

export interface Partial {
  runs: number;
  failingRuns: number;
  finds: RawFind[];
  histories: string[];
  faultSets: string[];
  choicePrefixes: string[];
}

export function emptyPartial(): Partial {
  return { runs: 0, failingRuns: 0, finds: [], histories: [], faultSets: [], choicePrefixes: [] };
}

export interface SearchState {
  ctx: StrategyContext;
  oracle: Oracle;
  /** The assertions each run evaluates (none when only invariants judge). */
  expect: Scenario['expect'];
  finds: Map<string, RawFind>;
  histories: Set<string>;
  faultSets: Set<string>;
  choicePrefixes: Set<string>;
  runs: number;
  failingRuns: number;
}

export function newSearch(ctx: StrategyContext, oracle: Oracle): SearchState {
  return {
    ctx,
    oracle,
    expect: oracle === 'invariants' ? ctx.scenario.expect.filter((a) => a.kind === 'violation') : ctx.scenario.expect,
    finds: new Map(),
    histories: new Set(),
    faultSets: new Set(),
    choicePrefixes: new Set(),
    runs: 0,
    failingRuns: 0,
  };
}

/** Run one index of the search and fold it in. */
export function searchOne(st: SearchState, k: number): void {
  const plan = planOf(st.ctx, k);
  const scenario = applyPlan(st.ctx.scenario, plan.faults, undefined, st.expect);
  const r = runScenario(scenario, { seed: plan.seed });
  st.runs++;
  for (const h of statusHistories(r)) st.histories.add(h);
  st.faultSets.add([...new Set(plan.faults.map((f) => f.kind))].sort().join('+') || 'none');
  if (r.verdict === 'pass') return;
  const sigs = signaturesOf(r, scenario, st.oracle);
  if (sigs.length > 0) st.failingRuns++;
  for (const sig of sigs) {
    const key = signatureKey(sig);
    const f = st.finds.get(key);
    if (f === undefined) st.finds.set(key, { key, signature: sig, count: 1, plan });
    else {
      f.count++;
      if (plan.run < f.plan.run) f.plan = plan;
    }
  }
}

export function partialOf(st: SearchState): Partial {
  return {
    runs: st.runs,
    failingRuns: st.failingRuns,
    finds: [...st.finds.values()],
    histories: [...st.histories],
    faultSets: [...st.faultSets],
    choicePrefixes: [...st.choicePrefixes],
  };
}

/** Fold partial results together: the same whatever their order. */
export function mergePartials(parts: readonly Partial[]): Partial {
  const finds = new Map<string, RawFind>();
  const sets = { histories: new Set<string>(), faultSets: new Set<string>(), choicePrefixes: new Set<string>() };
  let runs = 0;
  let failingRuns = 0;
  for (const p of parts) {
    runs += p.runs;
    failingRuns += p.failingRuns;
    for (const h of p.histories) sets.histories.add(h);
    for (const h of p.faultSets) sets.faultSets.add(h);
    for (const h of p.choicePrefixes) sets.choicePrefixes.add(h);
    for (const f of p.finds) {
      const g = finds.get(f.key);
      if (g === undefined) finds.set(f.key, { ...f });
      else {
        g.count += f.count;
        if (f.plan.run < g.plan.run) g.plan = f.plan;
      }
    }
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return {
    runs,
    failingRuns,
    finds: [...finds.values()].sort((a, b) => a.plan.run - b.plan.run || (a.key < b.key ? -1 : 1)),
    histories: sorted(sets.histories),
    faultSets: sorted(sets.faultSets),
    choicePrefixes: sorted(sets.choicePrefixes),
  };
}
