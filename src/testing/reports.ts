// Machine-readable reports of a suite run: JUnit XML (report/junit.ts) and JSON.
import { junitXml, type JUnitCase } from '../report/junit.js';
import { TOOL_VERSION } from '../world/run.js';
import type { SuiteResult } from './suite.js';
import type { CaseResult } from './types.js';

/** `scenarios/basics/job.yaml` → `scenarios.basics.job`: Jenkins shows it as package and class. */
export function junitClassname(file: string): string {
  return file.replace(/\.ya?ml$/i, '').replace(/^\.?\/+/, '').replace(/[\\/]+/g, '.');
}

/** The first line of a failure: what a CI summary shows. */
export function failureHeadline(r: CaseResult): string {
  if (r.invalid) return 'the scenario does not load';
  if (r.crashed) return (r.failures[0] ?? 'crashed').split('\n')[0];
  const first = r.failures[0]?.split('\n')[0] ?? 'failed';
  return r.failures.length > 1 ? `${first} (and ${r.failures.length - 1} more)` : first;
}

export function failureBody(r: CaseResult): string {
  const parts = [...r.failures];
  if (r.replay !== undefined) parts.push(`replay: ${r.replay}`);
  return parts.join('\n\n');
}

export function junitCase(r: CaseResult): JUnitCase {
  const c: JUnitCase = { classname: junitClassname(r.file), name: r.caseName, timeMs: r.durationMs, file: r.file };
  if (r.status === 'fail') c.failure = { message: failureHeadline(r), type: r.invalid ? 'invalid' : r.crashed ? 'crash' : r.golden?.state === 'mismatch' && r.failures.length === 1 ? 'golden' : 'verdict', body: failureBody(r) };
  else if (r.status === 'skipped') c.skipped = r.notes[0] ?? 'skipped';
  if (r.notes.length > 0 && r.status !== 'skipped') c.systemOut = r.notes.join('\n');
  return c;
}

export function* suiteJUnit(s: SuiteResult, name = 'kss test'): Generator<string> {
  yield* junitXml([{ name, timeMs: s.wallMs, cases: s.results.map(junitCase) }], 'kss');
}

export function suiteJson(s: SuiteResult): string {
  return (
    JSON.stringify(
      {
        kss: TOOL_VERSION,
        passed: s.passed,
        failed: s.failed,
        skipped: s.skipped,
        wallMs: Math.round(s.wallMs),
        mode: s.mode,
        jobs: s.jobs,
        results: s.results.map((r) => ({
          file: r.file,
          name: r.name,
          case: r.caseName,
          seed: r.seed,
          variant: r.variant,
          tags: r.tags,
          status: r.status,
          invalid: r.invalid || undefined,
          crashed: r.crashed || undefined,
          failures: r.failures,
          notes: r.notes,
          golden: r.golden,
          replay: r.replay,
          events: r.events,
          durationMs: Math.round(r.durationMs),
        })),
      },
      null,
      2,
    ) + '\n'
  );
}
