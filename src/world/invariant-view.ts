// The World as the invariant checkers read it: the adapter from World to model/world-view.ts's
// InvariantWorld, so that invariants/ never imports world/ (the world imports the invariants).
// One NodeView per site (node-site.ts), the default node first; a pod's node is the world's own
// routing of it (World.siteOfPod: one lookup).
import { createCheckers, kubeletStatusEqual, type InvariantChecker } from '../invariants/index.js';
import type { StatusFeatureGates } from '../kubelet/status/index.js';
import type { InvariantWorld, NodeView } from '../model/world-view.js';
import type { InvariantName } from '../scenario/types.js';
import type { NodeSite } from './node-site.js';
import type { World } from './world.js';

/** The checkers of the named invariants over this world, in the order named (each name once). */
export function createInvariantCheckers(w: World, names: readonly InvariantName[]): InvariantChecker[] {
  return createCheckers(worldView(w), names);
}

/** One node, as the checkers read it (its configuration as of this run: node-site.ts config). */
function nodeView(site: NodeSite, gen: World['variant']): NodeView {
  const config = site.config;
  return {
    name: site.name,
    runtime: site.runtime,
    kubelet: () => site.kubelet,
    config,
    statusEqual: kubeletStatusEqual(gen, config.featureGates as StatusFeatureGates),
  };
}

/** The World, as the checkers read it. */
export function worldView(w: World): InvariantWorld {
  const s = w.scenario;
  const gen = w.variant;
  let lastScheduledMs = 0;
  for (const step of s.timeline) lastScheduledMs = Math.max(lastScheduledMs, step.atMs);
  for (const p of s.pods) if (typeof p.createAtMs === 'number' && p.only !== 'kubelet') lastScheduledMs = Math.max(lastScheduledMs, p.createAtMs);
  const nodes = w.sites.map((site) => nodeView(site, gen));
  const byName = new Map(nodes.map((n) => [n.name, n]));
  return {
    engine: w.engine,
    epochMs: w.clock.epochMs,
    tracer: w.tracer,
    apiserver: w.apiserver,
    nodes,
    namesNodes: s.nodes !== undefined,
    nodeOfPod: nodes.length === 1 ? () => nodes[0] : (key) => byName.get(w.siteOfPod(key).name) ?? nodes[0],
    seed: w.seed,
    variant: gen,
    untilMs: w.untilMs,
    foreignKeys: new Set(s.pods.filter((p) => p.only === 'apiserver').map((p) => p.key)),
    lastScheduledMs,
  };
}
