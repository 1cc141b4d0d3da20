// The suite runner behind `kss test`, usable without the CLI.
export { runSuite, planSuite, defaultJobs, SuiteUsageError } from './suite.js';
export type { SuiteOptions, SuiteResult, SuitePlan } from './suite.js';
export { runCase, failureTexts, replayCommandFor } from './case.js';
export { discoverScenarios, parseShard, takeShard, isScenarioFileName, SKIPPED_DIRS } from './discover.js';
export type { Discovery, DiscoveredFile, Shard } from './discover.js';
export { resolveWorkerScript } from './pool.js';
export { suiteJUnit, suiteJson, junitCase, junitClassname } from './reports.js';
export type { CaseSpec, CaseResult, CaseStatus, GoldenMode, GoldenOutcome, GoldenState } from './types.js';
