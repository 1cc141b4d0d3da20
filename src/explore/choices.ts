// Runs driven by the kubelet's choice log (docs/choices.md): a run plan may make same-instant ties
// choice points, override some choices (deviations from the default run), or hand the ties to a
// PCT scheduler. The one place explore runs a plan, so the search, the shrinker and the written
// find all drive a run the same way.
import { Rng } from '../engine/rng.js';
import type { ChoiceEntry, ChoiceOptions, ChoicePoint } from '../engine/index.js';
import type { Scenario } from '../scenario/types.js';
import { runScenario, type RunResult } from '../world/run.js';
import type { RunPlan } from './types.js';

/** A recorded choice (engine/choices.ts). */
export type Choice = ChoiceEntry;
type Point = ChoicePoint;
type Step = number | null;
type ChoiceOpts = ChoiceOptions;

/** Kinds worth varying: ties, select picks, map orders. UIDs, skipped shuffles and jitter change
 *  nothing a search cares about; latencies vary with the seed. */
export const VARIED_KINDS = new Set(['tie', 'pick', 'shuffle']);

/** The replay sequence of a list of deviations: null (the seed decides) but at each deviation. */
export function replayOf(deviations: ReadonlyArray<readonly [number, number]>): Step[] {
  const n = deviations.reduce((m, [i]) => Math.max(m, i + 1), 0);
  const out: Step[] = new Array(n).fill(null);
  for (const [i, v] of deviations) out[i] = v;
  return out;
}

/** PCT (Burckhardt et al., ASPLOS'10): each event source gets a random priority; the highest
 *  runs first at every tie; at d−1 random tie points the running source drops to the lowest
 *  priority. Deterministic from the plan. */
function pctDriver(pct: NonNullable<RunPlan['pct']>, sink?: number[]): (p: Point) => number | undefined {
  const rng = new Rng(`explore/pct/${pct.seed}`);
  const prio = new Map<string, number>();
  let low = 0;
  let ties = 0;
  const change = new Set(pct.changePoints);
  const of = (name: string) => {
    let v = prio.get(name);
    if (v === undefined) prio.set(name, (v = 1 + rng.float()));
    return v;
  };
  return (p) => {
    if (p.kind !== 'tie' || !p.candidates) return undefined;
    let best = 0;
    for (let i = 1; i < p.candidates.length; i++) if (of(p.candidates[i]) > of(p.candidates[best])) best = i;
    if (change.has(ties++)) prio.set(p.candidates[best], (low -= 1));
    sink?.push(best);
    return best;
  };
}

/** Run a plan. `record` keeps the run's choices (for a find: its choice log); `sink` receives a
 *  PCT run's tie decisions. */
export function runPlanned(scenario: Scenario, plan: Pick<RunPlan, 'seed' | 'ties' | 'deviations' | 'pct'>, record = false, sink?: number[]): RunResult {
  const c: ChoiceOpts = {};
  if (record) c.record = true;
  if (plan.ties) c.ties = true;
  if (plan.deviations && plan.deviations.length > 0) c.replay = replayOf(plan.deviations);
  if (plan.pct) c.driver = pctDriver(plan.pct, sink);
  return runScenario(scenario, Object.keys(c).length > 0 ? { seed: plan.seed, choices: c } : { seed: plan.seed });
}

/** The choices a recorded run made. */
export function choicesOf(r: RunResult): Choice[] | undefined {
  return r.choices;
}

/** Whether runs can be driven by choices in this build. */
export function choiceLogAvailable(scenario: Scenario): boolean {
  return choicesOf(runPlanned(scenario, { seed: scenario.seed, ties: true }, true)) !== undefined;
}

/** The deviations of a recorded driven run from the default one: ties not in insertion order. */
export function tieDeviations(choices: readonly Choice[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  choices.forEach((c, i) => {
    if (c.kind === 'tie' && c.value !== 0) out.push([i, c.value]);
  });
  return out;
}

/** The tie points of the scenario as written (k) and the distinct event sources at them (n). */
export function tieCensus(scenario: Scenario): { ties: number; sources: number } {
  const names = new Set<string>();
  let ties = 0;
  const c: ChoiceOpts = {
    ties: true,
    driver: (p) => {
      if (p.kind === 'tie') {
        ties++;
        for (const n of p.candidates ?? []) names.add(n);
      }
      return undefined;
    },
  };
  runScenario(scenario, { seed: scenario.seed, choices: c });
  return { ties, sources: names.size };
}
