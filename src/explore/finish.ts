// From a raw find to what a user gets: shrink it, write the shrunk scenario, load that text the
// way `kss run` will, run it twice (it must fail the same way, byte for byte), and explain it.
import { loadScenario, renderIssues } from '../scenario/index.js';
import type { Scenario } from '../scenario/types.js';
import { traceHeader, traceSummary, TOOL_VERSION, type RunResult } from '../world/run.js';
import { replayOf, runPlanned } from './choices.js';
import { explainFind } from './explain.js';
import { describeFault } from './faults.js';
import { hash32, signatureKey, signaturesOf } from './oracle.js';
import { shrinkFind, type ShrinkResult } from './shrink.js';
import { exactPlan } from './shrink-choices.js';
import type { Oracle, RawFind, ShrunkFind } from './types.js';
import { findName, shrunkScenarioText } from './write-scenario.js';

export function findId(f: RawFind): string {
  const s = f.signature;
  return `${s.name}-${s.role}-${hash32(f.key).slice(0, 6)}`.replace(/[^a-z0-9-]+/gi, '-').toLowerCase();
}

export function traceText(r: RunResult): string {
  let out = JSON.stringify(traceHeader(r)) + '\n';
  for (const rec of r.trace) out += JSON.stringify(rec) + '\n';
  return out + JSON.stringify(traceSummary(r)) + '\n';
}

export class ShrinkError extends Error {}

/** The find as it was found, unshrunk (--no-shrink, or when a shrunk file would not replay). */
function unshrunk(base: Scenario, find: RawFind, oracle: Oracle): ShrinkResult {
  const expect = find.signature.oracle === 'expect' ? base.expect.filter((a) => a.kind !== 'violation') : [];
  const keep = oracle === 'invariants' ? base.expect.filter((a) => a.kind === 'violation') : base.expect;
  const p = exactPlan(base, find, keep);
  return { state: { faults: p.faults, red: { dropPods: [], dropSteps: [], dropContainers: [], stepAt: {} }, seed: p.seed, ties: p.ties, deviations: p.deviations }, expect, runs: 0 };
}

export function finishFind(base: Scenario, data: unknown, find: RawFind, oracle: Oracle, shrink = true): ShrunkFind {
  if (!shrink) return finishWith(base, data, find, oracle, unshrunk(base, find, oracle));
  try {
    return finishWith(base, data, find, oracle, shrinkFind(base, find, oracle));
  } catch (e) {
    if (!(e instanceof ShrinkError)) throw e;
    return finishWith(base, data, find, oracle, unshrunk(base, find, oracle));
  }
}

function finishWith(base: Scenario, data: unknown, find: RawFind, oracle: Oracle, shrunk: ShrinkResult): ShrunkFind {
  const id = findId(find);
  const fileName = `finds/${id}.yaml`;
  const sig = find.signature;
  const description =
    `kss explore found ${sig.oracle === 'invariant' ? `a violation of ${sig.name}` : `a failing ${sig.name} expectation`} for ${sig.pod || 'a pod'} ` +
    `in ${base.name} (first at run ${find.plan.run} of the search, seed ${find.plan.seed}); shrunk to ${shrunk.state.faults.length} injected fault(s). ` +
    (shrunk.state.faults.length ? `Faults: ${shrunk.state.faults.map(describeFault).join('; ')}.` : 'No fault is needed: the kubelet does this by itself.');
  const yaml = shrunkScenarioText({ base, data, shrunk, signature: sig, id, description });
  const loaded = loadScenario(yaml, fileName);
  if (!loaded.ok) throw new ShrinkError(`the shrunk scenario of ${id} does not load:\n${renderIssues(loaded.issues, yaml)}`);
  const sc = loaded.scenario;
  const st = shrunk.state;
  const driven = st.ties === true || (st.deviations?.length ?? 0) > 0;
  const drive = { seed: sc.seed, ties: st.ties, deviations: st.deviations };
  const r1 = runPlanned(sc, drive);
  const r2 = runPlanned(sc, drive);
  const t1 = traceText(r1);
  if (t1 !== traceText(r2)) throw new ShrinkError(`the shrunk scenario of ${id} does not replay byte for byte`);
  if (r1.verdict !== 'fail' || !signaturesOf(r1, sc, oracle).some((g) => signatureKey(g) === find.key)) {
    throw new ShrinkError(`the shrunk scenario of ${id} does not fail with ${find.key}`);
  }
  const explanation = explainFind(r1, sig);
  const choicesFile = `finds/${id}.choices.json`;
  const choices = driven ? JSON.stringify({ ties: st.ties === true, choices: replayOf(st.deviations ?? []) }) + '\n' : undefined;
  const replay = driven ? `kss run ${fileName} --choices ${choicesFile}` : `kss run ${fileName}`;
  const summary = {
    faults: shrunk.state.faults.length,
    steps: sc.timeline.length,
    pods: sc.pods.length + sc.staticPods.length,
    untilMs: sc.untilMs,
    choices: st.deviations?.length ?? 0,
  };
  const issue = issueText({ base, id, sig: find, yaml, explanation, replay, runs: shrunk.runs, name: findName(base, id) });
  return {
    id,
    key: find.key,
    signature: sig,
    count: find.count,
    firstRun: find.plan.run,
    seed: sc.seed,
    original: { faults: find.plan.faults.length, steps: base.timeline.length + find.plan.faults.length, pods: base.pods.length + base.staticPods.length },
    shrunk: summary,
    shrinkRuns: shrunk.runs,
    file: fileName,
    ...(choices !== undefined ? { choicesFile, choices } : {}),
    yaml,
    explanation,
    issue,
    trace: t1,
    replay,
  };
}

function issueText(a: { base: Scenario; id: string; sig: RawFind; yaml: string; explanation: string; replay: string; runs: number; name: string }): string {
  const s = a.sig.signature;
  const yaml = a.yaml.length > 40_000 ? a.yaml.slice(0, 40_000) + '\n# … cut to fit an issue body\n' : a.yaml;
  return [
    `# ${s.oracle === 'invariant' ? `Invariant ${s.name} violated` : `Expectation ${s.name} fails`} for pod role \`${s.role}\` (${a.base.kubelet.statusManager} status manager)`,
    '',
    `Found by \`kss explore\` (kss ${TOOL_VERSION}) from \`${a.base.file}\` (sha256 \`${a.base.sha256.slice(0, 12)}\`): first at run ${a.sig.plan.run} of the search (the count of failing runs is in report.json); shrunk in ${a.runs} runs.`,
    '',
    '## Reproduce',
    '',
    '```sh',
    a.replay,
    '```',
    '',
    '## What happens',
    '',
    '```',
    a.explanation.trimEnd(),
    '```',
    '',
    '## Scenario',
    '',
    '```yaml',
    yaml.trimEnd(),
    '```',
    '',
  ].join('\n');
}
