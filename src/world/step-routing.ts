// Which node a timeline step acts on (spec.nodes): `node:` when the step names one; restartKubelet's
// `nodes: all` or list; else the node of the pod it names (its spec.nodeName); else the default
// node. Apiserver actions (create, delete, externalPatch, …) act on the one apiserver whichever
// site runs them. `latency` sets every node's link, or with `node:` that node's only. With one node every step runs on it. One lookup per step: no scan over nodes,
// except `nodes: all`, which names them all.
import type { Step } from '../scenario/types.js';
import type { NodeSite } from './node-site.js';

export interface RoutingWorld {
  readonly sites: readonly NodeSite[];
  readonly siteByName: ReadonlyMap<string, NodeSite>;
  siteOfPod(key: string): NodeSite;
}

export function sitesOfStep(w: RoutingWorld, step: Step): readonly NodeSite[] {
  if (w.sites.length === 1 && step.node === undefined && step.nodes === undefined) return w.sites;
  const named = (name: string): NodeSite => {
    const site = w.siteByName.get(name);
    // the loader refuses unknown nodes (UNKNOWN_NODE); a Scenario built by hand may still name one
    if (site === undefined) throw new Error(`step ${step.index}: no node ${name}`);
    return site;
  };
  if (step.nodes === 'all' || (step.action === 'latency' && step.node === undefined)) return w.sites;
  if (step.nodes !== undefined) return step.nodes.map(named);
  if (step.node !== undefined) return [named(step.node)];
  if ('pod' in step && typeof step.pod === 'string') return [w.siteOfPod(step.pod)];
  return [w.sites[0]];
}
