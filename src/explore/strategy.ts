// Search strategies: which run plans a search tries, as a pure function of (base seed, run index),
// so that any partition of the run indices (worker threads, shards on many machines) does exactly
// what one process would.
//   random      swarm faults and a fresh seed per run (the kubelet's own choices follow the seed).
//   pct         the same faults and seeds, and same-instant ties ordered by PCT priorities with
//               depth−1 priority-change points among the ties of the run.
//   exhaustive  (exhaustive.ts) a bounded depth-first search over the choices of the scenario as
//               written.
// Run 0 is always the scenario as written: no faults, its own seed.
import { Rng } from '../engine/rng.js';
import type { Scenario } from '../scenario/types.js';
import { swarmFaults, type FaultSpace } from './faults.js';
import type { RunPlan } from './types.js';

export const STRATEGIES = ['random', 'pct', 'exhaustive'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export interface StrategyContext {
  scenario: Scenario;
  baseSeed: number;
  space: FaultSpace;
  strategy?: StrategyName;
  /** pct: the depth d, and k, the number of tie points of the scenario as written. */
  pct?: { depth: number; ties: number };
}

/** Run k's plan: its seed, then its faults, from one stream named after the base seed and k alone. */
export function planOf(ctx: StrategyContext, k: number): RunPlan {
  if (k === 0) return { run: 0, seed: ctx.scenario.seed, faults: [] };
  const rng = new Rng(`explore/${ctx.baseSeed}/run/${k}`);
  const seed = rng.int(1, 2_147_483_646);
  const plan: RunPlan = { run: k, seed, faults: swarmFaults(ctx.space, rng) };
  if (ctx.strategy === 'pct' && ctx.pct) {
    const { depth, ties } = ctx.pct;
    const changePoints: number[] = [];
    for (let i = 0; i < depth - 1; i++) changePoints.push(rng.int(0, Math.max(0, ties - 1)));
    plan.ties = true;
    plan.pct = { seed: rng.int(1, 2_147_483_646), depth, changePoints: changePoints.sort((a, b) => a - b) };
  }
  return plan;
}

/** PCT's guarantee: one run finds a bug of depth d with probability at least 1/(n·k^(d−1)), n
 *  event sources and k tie points. */
export function pctBound(n: number, k: number, d: number): number {
  return 1 / (Math.max(1, n) * Math.pow(Math.max(1, k), d - 1));
}
