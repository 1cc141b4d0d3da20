// Folding for the Mermaid diagram: a run of identical exchanges — the same lines, told apart only
// by their numbers — is drawn once inside `loop N× from … to …`. Two passes: lines first, then runs
// of the first pass's units (a line or a whole loop), so that a crash loop's cycles, each with its
// own run of back-off notes, fold into one loop with the back-off loop inside (its count then reads
// "N× to M×" when the cycles differ in it). A shaded region (rect) is never folded.
import type { Lane } from './view-model.js';

export type Item =
  | { kind: 'line'; t: number; text: string; key: string; lanes: Lane[] }
  | { kind: 'open'; text: string; lanes: Lane[]; loop?: { reps: number; t0: number; t1: number } }
  | { kind: 'close' };

interface Unit {
  /** null: never folded (rect boundaries). */
  key: string | null;
  items: Item[];
  t0: number;
  t1: number;
}

function sec(t: number): string {
  return `${(t / 1000).toFixed(3)}s`;
}

/** Items as units: a loop block (open … its close) is one unit, a line one, rect bounds barriers. */
function toUnits(items: readonly Item[]): Unit[] {
  const out: Unit[] = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.kind === 'line') out.push({ key: it.key, items: [it], t0: it.t, t1: it.t });
    else if (it.kind === 'open' && it.loop !== undefined) {
      let depth = 0;
      let j = i;
      for (; j < items.length; j++) {
        const x = items[j];
        depth += x.kind === 'open' ? 1 : x.kind === 'close' ? -1 : 0;
        if (depth === 0) break;
      }
      const block = items.slice(i, j + 1);
      const inner = block.filter((x): x is Item & { kind: 'line' } => x.kind === 'line').map((x) => x.key);
      out.push({ key: `loop{${inner.join('|')}}`, items: block, t0: it.loop.t0, t1: it.loop.t1 });
      i = j;
    } else out.push({ key: null, items: [it], t0: NaN, t1: NaN });
  }
  return out;
}

/** The first instance's items, its inner loops' counts widened to the range over every instance. */
function firstInstance(instances: Unit[][]): Item[] {
  const first = instances[0].flatMap((u) => u.items);
  const loopsOf = (units: Unit[]) => units.flatMap((u) => u.items).filter((x): x is Item & { kind: 'open' } => x.kind === 'open' && x.loop !== undefined);
  const all = instances.map(loopsOf);
  let n = 0;
  return first.map((it) => {
    if (it.kind !== 'open' || it.loop === undefined) return it;
    const reps = all.map((ls) => ls[n]?.loop?.reps ?? it.loop!.reps);
    n++;
    const lo = Math.min(...reps);
    const hi = Math.max(...reps);
    return lo === hi ? it : { ...it, text: `loop ${lo}× to ${hi}× each time (the same exchange, later times and versions)` };
  });
}

function foldUnits(units: readonly Unit[]): Item[] {
  const out: Item[] = [];
  const same = (a: number, b: number, len: number) => {
    for (let k = 0; k < len; k++) {
      const x = units[a + k];
      const y = units[b + k];
      if (x === undefined || y === undefined || x.key === null || x.key !== y.key) return false;
    }
    return true;
  };
  let i = 0;
  while (i < units.length) {
    let best = { len: 0, reps: 1, gain: 0 };
    for (let len = 1; len <= 40 && i + 2 * len <= units.length; len++) {
      let reps = 1;
      while (same(i, i + reps * len, len)) reps++;
      const size = units.slice(i, i + len).reduce((s, u) => s + u.items.length, 0);
      const gain = (reps - 1) * size - 2;
      if (reps >= 2 && gain > best.gain) best = { len, reps, gain };
    }
    if (best.len === 0) {
      out.push(...units[i++].items);
      continue;
    }
    const t0 = units[i].t0;
    const t1 = units[i + best.reps * best.len - 1].t1;
    const instances = Array.from({ length: best.reps }, (_, r) => units.slice(i + r * best.len, i + (r + 1) * best.len));
    out.push({ kind: 'open', text: `loop ${best.reps}× from ${sec(t0)} to ${sec(t1)} (the same exchange, later times and versions)`, lanes: [], loop: { reps: best.reps, t0, t1 } });
    out.push(...firstInstance(instances));
    out.push({ kind: 'close' });
    i += best.reps * best.len;
  }
  return out;
}

/** Runs of identical exchanges drawn once inside a loop (two passes, see above). */
export function fold(items: readonly Item[]): Item[] {
  return foldUnits(toUnits(foldUnits(toUnits(items))));
}
