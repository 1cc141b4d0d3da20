// One test case, start to end: the scenario (as the plan loaded it, else loaded by path), run it,
// judge the verdict and the golden.
// Runs the same way in a worker thread and in-process; everything it returns is a plain value.
import { performance } from 'node:perf_hooks';
import { loadScenarioFile } from '../scenario/index.js';
import { renderLoadIssues } from './load.js';
import { runScenario, type RunResult } from '../world/run.js';
import { diffLines, firstDifference, goldenLines, goldenPathFor, readGolden } from '../report/golden.js';
import { goldenSource } from './golden-source.js';
import { replayCommandFor } from './replay-line.js';
import { checkScenarioSource, sourceErrorText } from './source.js';
import type { Scenario } from '../scenario/types.js';
import type { CaseResult, CaseSpec, GoldenOutcome } from './types.js';

export { replayCommandFor } from './replay-line.js';

function msText(ms: number): string {
  return `${(ms / 1000).toFixed(3)}s`;
}

/** Why a run failed, in words: one entry per failing assertion, violation, step error. */
export function failureTexts(r: RunResult): string[] {
  const out: string[] = [];
  for (const a of r.assertions) if (!a.ok) out.push(`expect[${a.index}] ${a.kind} (line ${a.line}): ${a.message}`);
  for (const e of r.stepErrors) out.push(`timeline[${e.index}] (line ${e.line}): ${e.message}`);
  for (const v of r.unexpectedViolations) {
    const msg = v.message !== undefined ? `: ${String(v.message)}` : '';
    out.push(`invariant ${String(v.invariant)} violated${v.pod ? ' for ' + v.pod : ''} at ${msText(v.t)} (event ${String(v.event ?? v.seq)}, seed ${r.seed})${msg}`);
  }
  if (r.end === 'runaway') out.push(`runaway: ${r.endMessage ?? 'the run hit the event limit'}`);
  if (r.verdict === 'fail' && out.length === 0) out.push('the run failed without naming a cause (see kss run)');
  return out;
}

function judgeGolden(spec: CaseSpec, r: RunResult): GoldenOutcome {
  const path = goldenPathFor(spec.abs);
  const shown = goldenPathFor(spec.display);
  const actual = goldenLines(goldenSource(r));
  const expected = readGolden(path);
  if (spec.goldenMode === 'update') {
    if (expected !== undefined && expected.length === actual.length && expected.every((l, i) => l === actual[i])) return { state: 'unchanged', path: shown };
    // The suite's main thread writes it (see suite.ts writeGoldens): a signal never meets a
    // half-written golden in a worker, and links are checked in one place.
    return { state: expected === undefined ? 'created' : 'updated', path: shown, write: { abs: path, lines: actual } };
  }
  if (expected === undefined) return { state: 'missing', path: shown };
  const diff = diffLines(expected, actual, { labels: [`expected (${shown})`, 'actual (this run)'] });
  return diff.length === 0 ? { state: 'match', path: shown } : { state: 'mismatch', path: shown, diff, first: firstDifference(expected, actual) };
}

export function runCase(spec: CaseSpec): CaseResult {
  const t0 = performance.now(); // wall-clock-ok: report timing only
  const base = { id: spec.id, file: spec.display, notes: [] as string[], failures: [] as string[] };
  const elapsed = () => performance.now() - t0; // wall-clock-ok: report timing only
  const loaded = spec.scenario ?? loadCase(spec);
  if ('failure' in loaded) return { ...base, name: spec.display, caseName: spec.display, tags: [], status: 'fail', ...loaded.failure, durationMs: elapsed() };
  const scenario = { ...loaded, file: spec.display };
  const seed = spec.seed ?? scenario.seed;
  const variant = spec.variant ?? scenario.kubelet.statusManager;
  const caseName = spec.multiSeed ? `${scenario.name} [seed ${seed}]` : scenario.name;
  const replay = replayCommandFor(spec.display, { seed, variant, maxEvents: spec.maxEvents });
  const head = { ...base, name: scenario.name, caseName, seed, variant, tags: [...scenario.tags], replay };
  let r: RunResult;
  try {
    r = runScenario(scenario, { seed, variant, maxEvents: spec.maxEvents });
  } catch (err) {
    return { ...head, status: 'fail', crashed: true, failures: [`the run crashed: ${errText(err)}`], durationMs: elapsed() };
  }
  const failures = r.verdict === 'fail' ? failureTexts(r) : [];
  const notes: string[] = spec.note !== undefined ? [spec.note] : [];
  let golden: GoldenOutcome | undefined;
  if (spec.golden && spec.goldenMode !== 'off') {
    try {
      golden = judgeGolden(spec, r);
    } catch (err) {
      failures.push(`golden ${goldenPathFor(spec.display)}: ${errText(err)}`);
    }
    if (golden?.state === 'mismatch') {
      failures.push([`golden ${golden.path} differs from what this run decided and sent, first at ${golden.first ?? '?'}`, ...golden.diff!, `(if the change is intended: kss test ${spec.display} --update)`].join('\n'));
    } else if (golden?.state === 'missing') {
      if (spec.ci) failures.push(`golden ${golden.path} is missing (--ci requires one; write it with: kss test ${spec.display} --update)`);
      else notes.push(`no golden ${golden.path} (kss test ${spec.display} --update writes it)`);
    } else if (golden?.state === 'created') notes.push(`wrote golden ${golden.path}`);
    else if (golden?.state === 'updated') notes.push(`updated golden ${golden.path}`);
  }
  return {
    ...head,
    status: failures.length > 0 ? 'fail' : 'pass',
    failures,
    notes,
    golden,
    passedAssertions: r.assertions.filter((a) => a.ok).length,
    events: r.events,
    durationMs: elapsed(),
  };
}

/** A case the plan did not load (a spec built by hand): its source checked and its file loaded
 *  here, or why not. */
function loadCase(spec: CaseSpec): Scenario | { failure: Pick<CaseResult, 'invalid' | 'crashed' | 'failures'> } {
  const src = checkScenarioSource(spec.abs, spec.display, spec.tree);
  if (!src.ok) return { failure: { invalid: true, failures: [sourceErrorText(spec.display, src)] } };
  let loaded: ReturnType<typeof loadScenarioFile>;
  try {
    loaded = loadScenarioFile(spec.abs);
  } catch (err) {
    return { failure: { crashed: true, failures: [`the loader crashed: ${errText(err)}`] } };
  }
  if (!loaded.ok) return { failure: { invalid: true, failures: [renderLoadIssues(loaded, spec.abs, spec.display)] } };
  return loaded.scenario;
}

function errText(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
