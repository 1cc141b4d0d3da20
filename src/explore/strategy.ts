// Search strategies: which run plans a search tries, as a pure function of (base seed, run index),
// so that any partition of the run indices (worker threads, shards on many machines) does exactly
// what one process would.
//   random      swarm faults and a fresh seed per run (the kubelet's own choices follow the seed).
// Run 0 is always the scenario as written: no faults, its own seed.
import { Rng } from '../engine/rng.js';
import type { Scenario } from '../scenario/types.js';
import { swarmFaults, type FaultSpace } from './faults.js';
import type { RunPlan } from './types.js';

export const STRATEGIES = ['random'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export interface StrategyContext {
  scenario: Scenario;
  baseSeed: number;
  space: FaultSpace;
}

/** Run k's plan: its seed, then its faults, from one stream named after the base seed and k alone. */
export function planOf(ctx: StrategyContext, k: number): RunPlan {
  if (k === 0) return { run: 0, seed: ctx.scenario.seed, faults: [] };
  const rng = new Rng(`explore/${ctx.baseSeed}/run/${k}`);
  const seed = rng.int(1, 2_147_483_646);
  return { run: k, seed, faults: swarmFaults(ctx.space, rng) };
}
