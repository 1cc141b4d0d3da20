// The World as the invariant checkers read it: the adapter from World to model/world-view.ts's
// InvariantWorld, so that invariants/ never imports world/ (the world imports the invariants).
import { createCheckers, kubeletStatusEqual, type InvariantChecker } from '../invariants/index.js';
import type { StatusFeatureGates } from '../kubelet/status/index.js';
import type { InvariantWorld } from '../model/world-view.js';
import type { InvariantName } from '../scenario/types.js';
import type { World } from './world.js';

/** The checkers of the named invariants over this world, in the order named (each name once). */
export function createInvariantCheckers(w: World, names: readonly InvariantName[]): InvariantChecker[] {
  return createCheckers(worldView(w), names);
}

/** The World, as the checkers read it. */
export function worldView(w: World): InvariantWorld {
  const s = w.scenario;
  const gen = w.variant;
  const gates = w.config.featureGates as StatusFeatureGates;
  let lastScheduledMs = 0;
  for (const step of s.timeline) lastScheduledMs = Math.max(lastScheduledMs, step.atMs);
  for (const p of s.pods) if (typeof p.createAtMs === 'number' && p.only !== 'kubelet') lastScheduledMs = Math.max(lastScheduledMs, p.createAtMs);
  return {
    engine: w.engine,
    epochMs: w.clock.epochMs,
    tracer: w.tracer,
    apiserver: w.apiserver,
    runtime: w.runtime,
    kubelet: () => w.kubelet,
    seed: w.seed,
    variant: gen,
    untilMs: w.untilMs,
    config: w.config,
    foreignKeys: new Set(s.pods.filter((p) => p.only === 'apiserver').map((p) => p.key)),
    lastScheduledMs,
    statusEqual: kubeletStatusEqual(gen, gates),
  };
}
