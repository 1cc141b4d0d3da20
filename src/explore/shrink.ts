// Shrinking a find, deterministically: passes that each try smaller candidates — fewer injected
// faults, fewer timeline steps, fewer pods and containers, a shorter `until`, instants and
// durations moved to round values, the scenario's own seed — and keep a candidate only when it
// still fails with the same signature. The passes run to a fixed point (Hypothesis' rule: whether
// a pass makes progress depends only on its input, so the same find shrinks to the same bytes).
import type { RunResult } from '../world/run.js';
import type { Assertion, Scenario } from '../scenario/types.js';
import { applyPlan, podsOfStep } from './apply.js';
import { runPlanned } from './choices.js';
import { signatureKey, signaturesOf } from './oracle.js';
import { replayablePlan, shrinkChoices } from './shrink-choices.js';
import type { Fault, Oracle, RawFind, Reduction } from './types.js';

export interface ShrinkState {
  faults: Fault[];
  red: Reduction;
  seed: number;
  /** A find driven by choices: ties as choice points, and the choices that differ from the default. */
  ties?: boolean;
  deviations?: Array<[number, number]>;
}

export interface ShrinkResult {
  state: ShrinkState;
  /** The assertions the shrunk scenario keeps (the failing one for an expect find, else none;
   *  all of them for an expect find driven by choices, whose positions they help fix). */
  expect: Assertion[];
  runs: number;
}

const ROUND_STEPS = [60_000, 10_000, 5_000, 1_000, 100];
const NO_RED: Reduction = { dropPods: [], dropSteps: [], dropContainers: [], stepAt: {} };
const MAX_RUNS = 4_000;

export function shrinkFind(base: Scenario, find: RawFind, oracle: Oracle): ShrinkResult {
  const target = find.key;
  const driven = find.plan.ties === true || find.plan.pct !== undefined;
  const all = driven && oracle !== 'invariants';
  const expect = find.signature.oracle === 'expect' ? base.expect.filter((a) => a.kind !== 'violation' && (all || kindRole(a) === `${find.signature.name}:${find.signature.role}`)) : [];
  const keep: Assertion[] = [...base.expect.filter((a) => a.kind === 'violation'), ...expect];
  let runs = 0;
  const test = (s: ShrinkState): boolean => {
    if (runs >= MAX_RUNS) return false;
    runs++;
    const sc = applyPlan(base, s.faults, s.red, keep);
    const r: RunResult = runPlanned(sc, s);
    if (r.verdict === 'pass') return false;
    return signaturesOf(r, sc, oracle).some((g) => signatureKey(g) === target);
  };
  const start = replayablePlan(base, find, keep, (p) => test({ faults: p.faults, red: NO_RED, seed: p.seed, ties: p.ties, deviations: p.deviations }));
  let cur: ShrinkState = { faults: start.faults.slice(), red: NO_RED, seed: start.seed, ties: start.ties, deviations: start.deviations };
  const targetPod = find.signature.pod;
  // An expectation can be made to fail by taking away what it is about (its steps, its pods, the
  // time it needs): an expect find keeps the scenario's own steps, pods and `until`.
  const scenarioPasses = find.signature.oracle === 'invariant';
  const passes: Array<(s: ShrinkState) => ShrinkState | undefined> = [
    (s) => shrinkChoices(s, test),
    (s) => dropFaults(s, test),
    ...(scenarioPasses
      ? [
          (s: ShrinkState) => dropSteps(s, base, test),
          (s: ShrinkState) => dropPods(s, base, targetPod, keep, test),
          (s: ShrinkState) => dropContainers(s, base, test),
          (s: ShrinkState) => shortenUntil(s, base, test),
        ]
      : []),
    (s) => roundFaults(s, test),
    ...(scenarioPasses ? [(s: ShrinkState) => roundSteps(s, base, test)] : []),
    (s) => tryFirst(s, [base.seed, 1].filter((x) => x !== s.seed).map((seed) => ({ ...s, seed })), test),
  ];
  for (let round = 0; round < 4; round++) {
    let progress = false;
    for (const p of passes) {
      const next = p(cur);
      if (next !== undefined) {
        cur = next;
        progress = true;
      }
    }
    if (!progress) break;
  }
  return { state: cur, expect, runs };
}

function kindRole(a: Assertion): string {
  const pod = 'pod' in a && typeof a.pod === 'string' ? a.pod : undefined;
  const name = pod === undefined ? '-' : pod.slice(pod.indexOf('/') + 1).replace(/-\d+$/, '');
  return `${a.kind}:${name}`;
}

type Test = (s: ShrinkState) => boolean;

function tryFirst(_s: ShrinkState, candidates: ShrinkState[], test: Test): ShrinkState | undefined {
  for (const c of candidates) if (test(c)) return c;
  return undefined;
}

/** ddmin over the faults: drop halves, then quarters, … then single faults. */
function dropFaults(s: ShrinkState, test: Test): ShrinkState | undefined {
  let cur = s;
  let changed = false;
  if (cur.faults.length > 0 && test({ ...cur, faults: [] })) return { ...cur, faults: [] };
  for (let chunk = Math.max(1, cur.faults.length >> 1); chunk >= 1; chunk >>= 1) {
    for (let i = cur.faults.length - chunk; i >= 0; i -= chunk) {
      const faults = cur.faults.slice(0, i).concat(cur.faults.slice(i + chunk));
      if (faults.length < cur.faults.length && test({ ...cur, faults })) {
        cur = { ...cur, faults };
        changed = true;
      }
    }
    if (chunk === 1) break;
  }
  return changed ? cur : undefined;
}

function dropSteps(s: ShrinkState, base: Scenario, test: Test): ShrinkState | undefined {
  let cur = s;
  let changed = false;
  for (let i = base.timeline.length - 1; i >= 0; i--) {
    const idx = base.timeline[i].index;
    if (cur.red.dropSteps.includes(idx)) continue;
    const c = { ...cur, red: { ...cur.red, dropSteps: [...cur.red.dropSteps, idx].sort((a, b) => a - b) } };
    if (test(c)) {
      cur = c;
      changed = true;
    }
  }
  return changed ? cur : undefined;
}

function dropPods(s: ShrinkState, base: Scenario, targetPod: string, keep: readonly Assertion[], test: Test): ShrinkState | undefined {
  let cur = s;
  let changed = false;
  for (let i = base.pods.length - 1; i >= 0; i--) {
    if (cur.red.dropPods.includes(i) || base.pods[i].key === targetPod) continue;
    const key = base.pods[i].key;
    // An assertion or a kept step that names the pod would stop meaning anything: keep the pod.
    if (keep.some((a) => 'pod' in a && a.pod === key)) continue;
    const c = { ...cur, red: { ...cur.red, dropPods: [...cur.red.dropPods, i].sort((a, b) => a - b) } };
    if (test(c)) {
      cur = c;
      changed = true;
    }
  }
  return changed ? cur : undefined;
}

function dropContainers(s: ShrinkState, base: Scenario, test: Test): ShrinkState | undefined {
  let cur = s;
  let changed = false;
  base.pods.forEach((p, i) => {
    const names = p.pod.spec?.containers.map((c) => c.name) ?? [];
    for (const n of names.slice(1).reverse()) {
      const id = `${i}/${n}`;
      if (cur.red.dropPods.includes(i) || cur.red.dropContainers.includes(id)) continue;
      if (base.timeline.some((st) => 'container' in st && st.container === n && podsOfStep(st as { pod?: unknown }).includes(p.key))) continue;
      const c = { ...cur, red: { ...cur.red, dropContainers: [...cur.red.dropContainers, id].sort() } };
      if (test(c)) {
        cur = c;
        changed = true;
      }
    }
  });
  return changed ? cur : undefined;
}

/** The latest instant any kept step or fault happens at. */
function lastInstant(s: ShrinkState, base: Scenario): number {
  let m = 0;
  for (const st of base.timeline) if (!s.red.dropSteps.includes(st.index)) m = Math.max(m, s.red.stepAt[st.index] ?? st.atMs);
  for (const f of s.faults) m = Math.max(m, f.atMs + ('forMs' in f ? f.forMs : 0));
  return m;
}

/** Binary search, in whole seconds, for the shortest `until` that still fails the same way. */
function shortenUntil(s: ShrinkState, base: Scenario, test: Test): ShrinkState | undefined {
  const cur = s.red.untilMs ?? base.untilMs;
  let lo = Math.ceil((lastInstant(s, base) + 1) / 1000);
  let hi = Math.ceil(cur / 1000);
  if (hi * 1000 !== cur && test(withUntil(s, hi * 1000))) s = withUntil(s, hi * 1000);
  else if (hi * 1000 !== cur) hi = Math.floor(cur / 1000) + 1;
  let best: ShrinkState | undefined;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = withUntil(s, mid * 1000);
    if (test(c)) {
      best = c;
      hi = mid;
    } else lo = mid + 1;
  }
  if (best === undefined) return (s.red.untilMs ?? base.untilMs) !== cur ? s : undefined;
  // Prefer a round number of seconds when it is within reach.
  const u = best.red.untilMs!;
  for (const r of [60_000, 10_000, 5_000]) {
    const round = Math.ceil(u / r) * r;
    if (round !== u && round < cur && test(withUntil(best, round))) return withUntil(best, round);
  }
  return best;
}

function withUntil(s: ShrinkState, untilMs: number): ShrinkState {
  return { ...s, red: { ...s.red, untilMs } };
}

/** Round value `v` to the coarsest step that still fails the same way. */
function roundValue(v: number, min: number, tryIt: (x: number) => boolean, upward = true): number | undefined {
  for (const r of ROUND_STEPS) {
    for (const x of [Math.round(v / r) * r, Math.floor(v / r) * r, Math.ceil(v / r) * r]) {
      if (x === v || x < min || (!upward && x > v)) continue;
      if (tryIt(x)) return x;
    }
    if (v % r === 0) return undefined;
  }
  return undefined;
}

function roundFaults(s: ShrinkState, test: Test): ShrinkState | undefined {
  let cur = s;
  let changed = false;
  const fields = ['atMs', 'forMs', 'downForMs', 'minMs', 'maxMs', 'count'] as const;
  for (let i = 0; i < cur.faults.length; i++) {
    for (const field of fields) {
      const f = cur.faults[i] as Record<string, unknown>;
      if (typeof f[field] !== 'number') continue;
      const set = (x: number) => {
        const faults = cur.faults.slice();
        faults[i] = { ...cur.faults[i], [field]: x } as Fault;
        if (field === 'minMs' && (faults[i] as { maxMs: number }).maxMs < x) return undefined;
        if (field === 'maxMs' && (faults[i] as { minMs: number }).minMs > x) return undefined;
        return { ...cur, faults };
      };
      const probe = (x: number) => {
        const c = set(x);
        return c !== undefined && test(c);
      };
      const v = f[field] as number;
      const x = field === 'count' ? (v > 1 && probe(1) ? 1 : undefined) : roundValue(v, field === 'forMs' || field === 'minMs' || field === 'maxMs' ? 1 : 0, probe, field === 'atMs');
      if (x !== undefined) {
        cur = set(x)!;
        changed = true;
      }
    }
  }
  return changed ? cur : undefined;
}

function roundSteps(s: ShrinkState, base: Scenario, test: Test): ShrinkState | undefined {
  let cur = s;
  let changed = false;
  for (const st of base.timeline) {
    if (cur.red.dropSteps.includes(st.index)) continue;
    const v = cur.red.stepAt[st.index] ?? st.atMs;
    const set = (x: number) => ({ ...cur, red: { ...cur.red, stepAt: { ...cur.red.stepAt, [st.index]: x } } });
    const x = roundValue(v, 0, (y) => test(set(y)));
    if (x !== undefined) {
      cur = set(x);
      changed = true;
    }
  }
  return changed ? cur : undefined;
}
