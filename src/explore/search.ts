// The search loop over a set of run indices: plan, run, judge, fold into a partial result. What
// every worker and every shard runs; partial results merge (finds by their first run, counts
// summed, coverage sets united) into what one process would have found.
import type { Scenario } from '../scenario/types.js';
import { applyPlan } from './apply.js';
import { choicesOf, runPlanned, type Choice } from './choices.js';
import { hash32 } from './oracle.js';
import { signatureKey, signaturesOf, statusHistories } from './oracle.js';
import type { RunPlan } from './types.js';
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
  searchPlan(st, planOf(st.ctx, k));
}

/** Run one plan and fold it in. A driven run (pct, exhaustive) records its choices: the coverage
 *  counts its distinct tie decisions. */
export function searchPlan(st: SearchState, plan: RunPlan): { histories: string[]; failed: boolean; choices?: Choice[] } {
  const scenario = applyPlan(st.ctx.scenario, plan.faults, undefined, st.expect);
  // exhaustive needs each run's choice points; pct only its tie decisions.
  const record = plan.ties === true && plan.pct === undefined;
  const decisions: number[] = [];
  const r = runPlanned(scenario, plan, record, decisions);
  st.runs++;
  const ch = record ? choicesOf(r) : undefined;
  if (ch) st.choicePrefixes.add(hash32((plan.deviations ?? []).map(([i, v]) => `${i}=${v}`).join(',')));
  if (plan.pct) st.choicePrefixes.add(hash32(decisions.join(',')));
  const histories = statusHistories(r);
  for (const h of histories) st.histories.add(h);
  st.faultSets.add([...new Set(plan.faults.map((f) => f.kind))].sort().join('+') || 'none');
  if (r.verdict === 'pass') return { histories, failed: false, choices: ch };
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
  return { histories, failed: sigs.length > 0, choices: ch };
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
