// The choice passes of shrinking (Hypothesis-style, over the choice log): a find driven by choices
// first tries to do without them (ties back in insertion order, the seed for everything), then
// ddmin over its deviations from the default run, then each deviation's value lowered toward 0
// (the simplest choice). A PCT find is first turned into deviations: the ties its run took out of
// insertion order.
import type { Scenario } from '../scenario/types.js';
import { applyPlan } from './apply.js';
import { choicesOf, runPlanned, tieDeviations } from './choices.js';
import type { RawFind, RunPlan } from './types.js';

export interface ChoiceState {
  seed: number;
  ties?: boolean;
  deviations?: Array<[number, number]>;
}

type Test<S> = (s: S) => boolean;

/** The plan a find's shrinking starts from: a PCT run as ties + deviations that replay it (the
 *  ties out of insertion order; every choice of the run when that is not enough). */
export function replayablePlan(base: Scenario, find: RawFind, expect: Scenario['expect'], same: (p: RunPlan) => boolean): RunPlan {
  const p = find.plan;
  if (!p.pct) return p;
  const rec = choicesOf(runPlanned(applyPlan(base, p.faults, undefined, expect), p, true)) ?? [];
  const ties: RunPlan = { run: p.run, seed: p.seed, faults: p.faults, ties: true, deviations: tieDeviations(rec) };
  if (same(ties)) return ties;
  return { ...ties, deviations: rec.map((c, i) => [i, c.value] as [number, number]) };
}

/** One round of the choice passes; undefined when none made progress. */
export function shrinkChoices<S extends ChoiceState>(s: S, test: Test<S>): S | undefined {
  if (!s.ties && !(s.deviations && s.deviations.length > 0)) return undefined;
  const plain = { ...s, ties: undefined, deviations: undefined };
  if (test(plain)) return plain;
  let cur = s;
  let changed = false;
  if (cur.deviations && cur.deviations.length > 0 && test({ ...cur, deviations: [] })) return { ...cur, deviations: [] };
  const devs = () => cur.deviations ?? [];
  for (let chunk = Math.max(1, devs().length >> 1); chunk >= 1; chunk >>= 1) {
    for (let i = devs().length - chunk; i >= 0; i -= chunk) {
      const next = devs().slice(0, i).concat(devs().slice(i + chunk));
      if (next.length < devs().length && test({ ...cur, deviations: next })) {
        cur = { ...cur, deviations: next };
        changed = true;
      }
    }
    if (chunk === 1) break;
  }
  for (let i = 0; i < devs().length; i++) {
    const [at, v] = devs()[i];
    for (let w = 1; w < v; w++) {
      const next = devs().slice();
      next[i] = [at, w];
      if (test({ ...cur, deviations: next })) {
        cur = { ...cur, deviations: next };
        changed = true;
        break;
      }
    }
  }
  return changed ? cur : undefined;
}

/** A find's run as it was, replayable from a file: a PCT run as every choice it made. */
export function exactPlan(base: Scenario, find: RawFind, expect: Scenario['expect']): RunPlan {
  const p = find.plan;
  if (!p.pct) return p;
  const rec = choicesOf(runPlanned(applyPlan(base, p.faults, undefined, expect), p, true)) ?? [];
  return { run: p.run, seed: p.seed, faults: p.faults, ties: true, deviations: rec.map((c, i) => [i, c.value] as [number, number]) };
}
