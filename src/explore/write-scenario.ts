// A shrunk find as a plain kss/v1alpha1 scenario: the original file's own data (pods and steps as
// the user wrote them) less what shrinking dropped, the faults as explicit timeline steps, the
// seed, and an assertion of the find: for an invariant, an `events` assertion that no such
// violation happens (so `kss run` exits 1 and names it), for an expectation, the failing one.
import { formatDuration } from '../model/time.js';
import type { Scenario } from '../scenario/types.js';
import { yamlText } from '../scenario/yaml-text.js';
import { faultActions, faultRawSteps, shortPod } from './faults.js';
import { podsOfStep } from './apply.js';
import type { ShrinkResult } from './shrink.js';
import type { Signature } from './types.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** DNS label: lower case, digits and dashes, at most 63 characters. */
function label(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
}

export function findName(base: Scenario, id: string): string {
  return label(`${base.name.slice(0, 63 - id.length - 1)}-${id}`);
}

export interface WriteInput {
  base: Scenario;
  /** The original file's data (yamlData of its text). */
  data: unknown;
  shrunk: ShrinkResult;
  signature: Signature;
  id: string;
  description: string;
}

export function shrunkScenarioText(w: WriteInput): string {
  const { base, shrunk, signature } = w;
  const { state } = shrunk;
  const data = structuredClone(obj(w.data));
  const spec = obj(data.spec);
  const gone = new Set(state.red.dropPods.map((i) => base.pods[i].key));

  const rawPods = Array.isArray(spec.pods) ? (spec.pods as unknown[]) : [];
  const pods = rawPods
    .map((p, i) => ({ p: obj(p), i }))
    .filter(({ i }) => !state.red.dropPods.includes(i))
    .map(({ p, i }) => {
      const names = state.red.dropContainers.filter((d) => d.startsWith(`${i}/`)).map((d) => d.slice(String(i).length + 1));
      if (names.length === 0) return p;
      const podSpec = obj(p.spec);
      podSpec.containers = (podSpec.containers as Obj[]).filter((c) => !names.includes(String(c.name)));
      const x = obj(obj(p['x-kss']).containers);
      for (const n of names) delete x[n];
      return p;
    });

  const rawSteps = Array.isArray(spec.timeline) ? (spec.timeline as Obj[]) : [];
  const steps: Array<{ atMs: number; order: number; raw: Obj }> = [];
  base.timeline.forEach((st, n) => {
    if (state.red.dropSteps.includes(st.index) || podsOfStep(st as { pod?: unknown }).some((k) => gone.has(k))) return;
    const raw = { ...rawSteps[st.index] };
    const at = state.red.stepAt[st.index];
    if (at !== undefined) raw.at = formatDuration(at);
    steps.push({ atMs: at ?? st.atMs, order: n, raw });
  });
  let order = base.timeline.length;
  for (const f of state.faults) {
    if ('pod' in f && gone.has(f.pod)) continue;
    const actions = faultActions(f, base.epoch, base.apiserver.latency);
    faultRawSteps(f, base.apiserver.latency).forEach((raw, j) => steps.push({ atMs: actions[j].atMs, order: order++, raw }));
  }
  // Steps at one instant run in file order: sorting by instant (stably) keeps that order.
  steps.sort((a, b) => a.atMs - b.atMs || a.order - b.order);
  // A fault's end drawn past the run's end (a repair, the latency put back) never ran: the file
  // leaves it out, as the loader refuses a step after spec.until (AFTER_UNTIL).
  const untilMs = state.red.untilMs ?? base.untilMs;
  const kept = steps.filter((s) => s.atMs <= untilMs);

  const rawExpect = Array.isArray(spec.expect) ? (spec.expect as Obj[]) : [];
  const expect: Obj[] = base.expect.filter((a) => a.kind === 'violation').map((a) => rawExpect[a.index]);
  for (const a of shrunk.expect) expect.push(rawExpect[a.index]);
  if (signature.oracle === 'invariant') {
    expect.push({ events: { type: 'invariant.violation', ...(signature.pod ? { pod: shortPod(signature.pod) } : {}), where: { invariant: signature.name }, count: 0 } });
  }

  const { explore: _explore, seed: _seed, until, ...rest } = spec;
  const outSpec: Obj = { seed: state.seed };
  if (state.red.untilMs !== undefined) outSpec.until = formatDuration(state.red.untilMs);
  else if (until !== undefined) outSpec.until = until;
  Object.assign(outSpec, rest);
  if (rawPods.length > 0) outSpec.pods = pods;
  outSpec.timeline = kept.map((s) => s.raw);
  outSpec.expect = expect;
  const out: Obj = {
    apiVersion: data.apiVersion,
    kind: data.kind,
    metadata: { name: findName(base, w.id), description: w.description, tags: ['explore-find'] },
    spec: outSpec,
  };
  const head = [
    `# Found by kss explore in ${base.file} (${signature.oracle} ${signature.name}, pod role ${signature.role}) and shrunk.`,
    `# Replay: kss run <this file>   (exits 1 while the kubelet behaves this way)`,
    '',
  ].join('\n');
  return head + yamlText(out);
}
