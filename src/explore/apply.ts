// A run's scenario: the loaded Scenario with the run's faults appended as timeline steps, and, while
// shrinking, some pods, containers and steps left out. A shallow copy: the parsed pods, statuses
// and steps are shared (they are immutable values), so a run never re-parses or rebuilds them.
import type { Scenario, ScenarioPod, Step } from '../scenario/types.js';
import { faultSteps } from './faults.js';
import type { Fault, Reduction } from './types.js';

export const NO_REDUCTION: Reduction = { dropPods: [], dropSteps: [], dropContainers: [], stepAt: {} };

/** Pod keys a step or fault names. */
export function podsOfStep(s: { pod?: unknown; keep?: unknown }): string[] {
  const out: string[] = [];
  if (typeof s.pod === 'string') out.push(s.pod);
  if (Array.isArray(s.keep)) for (const k of s.keep) if (typeof k === 'string') out.push(k);
  return out;
}

/** The scenario of one run. `expect` replaces the scenario's assertions when given. */
export function applyPlan(base: Scenario, faults: readonly Fault[], red: Reduction = NO_REDUCTION, expect?: Scenario['expect']): Scenario {
  const plain = red.dropPods.length === 0 && red.dropSteps.length === 0 && red.dropContainers.length === 0 && Object.keys(red.stepAt).length === 0;
  if (plain && faults.length === 0 && red.untilMs === undefined && expect === undefined) return base;
  let pods = base.pods;
  let timeline: Step[] = base.timeline as Step[];
  if (!plain) {
    const gone = new Set(red.dropPods.map((i) => base.pods[i].key));
    pods = base.pods.filter((_, i) => !red.dropPods.includes(i)).map((p) => dropContainers(p, base.pods.indexOf(p), red.dropContainers));
    const droppedSteps = new Set(red.dropSteps);
    timeline = base.timeline
      .filter((s) => !droppedSteps.has(s.index) && !podsOfStep(s as { pod?: unknown }).some((k) => gone.has(k)))
      .map((s) => (red.stepAt[s.index] !== undefined ? { ...s, atMs: red.stepAt[s.index] } : s));
    faults = faults.filter((f) => !('pod' in f) || !gone.has(f.pod));
  }
  if (faults.length > 0) timeline = timeline.concat(faultSteps(faults, base.epoch, base.timeline.length, base.apiserver.latency));
  return { ...base, pods, timeline, untilMs: red.untilMs ?? base.untilMs, expect: expect ?? base.expect };
}

function dropContainers(p: ScenarioPod, index: number, drops: readonly string[]): ScenarioPod {
  const names = drops.filter((d) => d.startsWith(`${index}/`)).map((d) => d.slice(String(index).length + 1));
  if (names.length === 0) return p;
  const containers = { ...p.containers };
  for (const n of names) delete containers[n];
  const spec = { ...p.pod.spec!, containers: p.pod.spec!.containers.filter((c) => !names.includes(c.name)) };
  return { ...p, containers, pod: { ...p.pod, spec } };
}
