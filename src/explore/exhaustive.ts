// `--strategy exhaustive`: a bounded depth-first search over the choice points of the scenario as
// written (same-instant ties, select picks, map orders), with at most `maxDeviations` choices that
// differ from the default run (CHESS/Loom-style bounding: most bugs need one to three). A child
// run whose deviation changed no pod's apiserver history and not the verdict is not expanded
// further: the reordering touched nothing that matters (a tie between events of different pods
// that share no state is the common case). A heuristic, not a full DPOR: `exhausted` means the
// pruned, bounded space was searched to the end.
//
// Sharding: the subtrees under the root's children are dealt round-robin to shards (the root run
// goes to shard 1); run numbers depend on the subtree and the order inside it only, so shards
// that exhaust their part merge into the same finds as one process.
import { VARIED_KINDS, type Choice } from './choices.js';
import { newSearch, searchPlan, type SearchState } from './search.js';
import type { RunPlan } from './types.js';
import type { Shard } from './parallel.js';

export interface ExhaustiveOptions {
  maxDeviations: number;
  budget: number;
  shard: Shard;
  /** A wall-clock budget (ms) and the clock (display and budget only). */
  deadline?: number;
  elapsed?: () => number;
}

interface Node {
  deviations: Array<[number, number]>;
  choices: Choice[];
  outcome: string;
}

const SUBTREE = 1_000_000;

function plan(st: SearchState, deviations: Array<[number, number]>, run: number): RunPlan {
  return { run, seed: st.ctx.scenario.seed, faults: [], ties: true, deviations };
}

/** Run a node: fold it into the search and record what it chose. */
function visit(st: SearchState, deviations: Array<[number, number]>, run: number): Node {
  const p = plan(st, deviations, run);
  const { histories, failed, choices } = searchPlan(st, p);
  return { deviations, choices: choices ?? [], outcome: `${failed}|${histories.join(',')}` };
}

function children(n: Node): Array<Array<[number, number]>> {
  const last = n.deviations.length ? n.deviations[n.deviations.length - 1][0] : -1;
  const out: Array<Array<[number, number]>> = [];
  for (let j = last + 1; j < n.choices.length; j++) {
    const c = n.choices[j];
    if (!VARIED_KINDS.has(c.kind) || c.arity < 2) continue;
    for (let v = 0; v < c.arity; v++) if (v !== c.value) out.push([...n.deviations, [j, v]]);
  }
  return out;
}

export function exhaustiveSearch(st: SearchState, o: ExhaustiveOptions): { exhausted: boolean } {
  // The root run belongs to shard 1; the others run it aside, for its choice points only.
  const root = visit(o.shard.index === 1 ? st : newSearch(st.ctx, st.oracle), [], 0);
  const top = o.maxDeviations > 0 ? children(root) : [];
  for (let t = 0; t < top.length; t++) {
    if (t % o.shard.total !== o.shard.index - 1) continue;
    let local = 0;
    const stack: Array<{ devs: Array<[number, number]>; parent: Node }> = [{ devs: top[t], parent: root }];
    while (stack.length > 0) {
      if (st.runs >= o.budget || (o.deadline !== undefined && o.elapsed!() >= o.deadline)) return { exhausted: false };
      const { devs, parent } = stack.pop()!;
      const node = visit(st, devs, 1 + t * SUBTREE + local++);
      if (node.outcome === parent.outcome || devs.length >= o.maxDeviations) continue;
      const kids = children(node);
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ devs: kids[i], parent: node });
    }
  }
  return { exhausted: true };
}
