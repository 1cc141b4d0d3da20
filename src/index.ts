// The kss library: `import { loadScenarioFile, runScenario } from 'kubelet-status-sim'`.
//
//   const loaded = loadScenarioFile('scenarios/basics/job.yaml');
//   if (!loaded.ok) throw new Error(renderIssues(loaded.issues));
//   const result = runScenario(loaded.scenario, { seed: 7 });
//   result.verdict; // 'pass' | 'fail'

// Scenarios: load, validate, describe.
export { loadScenario, loadScenarioFile, renderIssues, scenarioJsonSchema } from './scenario/index.js';
export type { Scenario, Assertion, Step, Variant, RuntimeKind, KubeletConfig, ScenarioPod, InvariantName, SourcePos } from './scenario/types.js';
export { INVARIANT_NAMES } from './scenario/types.js';

// Running one scenario.
export { runScenario, traceHeader, traceSummary, TOOL_VERSION } from './world/run.js';
export type { RunResult, RunOptions, TraceSink } from './world/run.js';
export type { TraceRecord } from './world/tracer.js';
export type { AssertionResult } from './world/assertions.js';
// The choice log (docs/choices.md): runScenario(s, { choices: { record, replay, ties, driver } }).
export type { ChoiceEntry, ChoiceKind, ChoiceOptions, ChoiceStep, ChoicePoint, ChoiceDriver, DrivenInfo, TieMode } from './engine/index.js';

// Running a suite (what `kss test` does), goldens and reports.
export { runSuite, planSuite, runCase, discoverScenarios, parseShard, takeShard, SuiteUsageError, suiteJUnit, suiteJson } from './testing/index.js';
export type { SuiteOptions, SuiteResult, CaseResult, CaseSpec, GoldenOutcome, Shard } from './testing/index.js';
export { goldenLines, goldenPathFor, diffLines } from './report/golden.js';
export { junitXml, xmlEscape } from './report/junit.js';
export type { JUnitCase, JUnitSuite } from './report/junit.js';

// The views of a trace (README "Seeing a race").
export { mermaidLines } from './report/mermaid.js';
export { htmlPage } from './report/html.js';
export { chromeTraceText } from './report/chrome-trace.js';
export { shivizText, shivizMulti } from './report/shiviz.js';
export { diffReport } from './report/diff-view.js';
export { explainViolation, explainAssertion } from './report/explain.js';

// Exploring: search a scenario's faults for violations and shrink each find (what `kss explore` does).
export { explore, DEFAULT_RUNS } from './explore/explore.js';
export type { ExploreResult, ExploreInput } from './explore/explore.js';
export type { ExploreOptions, ExploreReport, ShrunkFind, Signature, Fault, FaultKind, Oracle } from './explore/types.js';
export { mergeReports } from './explore/report.js';
