// kss test reads and loads each file once (the plan's Scenario goes with the case), and with no
// -j chooses in-process or worker threads by the CPUs and the number of cases, saying which.
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCase } from '../../src/testing/case.js';
import { autoJobs, MIN_CASES_PER_WORKER, planSuite, runSuite } from '../../src/testing/suite.js';
import { kss, scratchWith } from './helpers.js';

describe('one load per file', () => {
  it('the plan’s scenario goes with each case: running it reads the file no more', () => {
    const dir = scratchWith('suite');
    const plan = planSuite(['suite'], { cwd: dir, seeds: 2 });
    const specs = plan.entries.flatMap((e) => ('spec' in e ? [e.spec] : []));
    expect(specs.length).toBe(8);
    for (const s of specs) expect(s.scenario?.name).toBeTypeOf('string');
    // Both seeds of a file share one loaded Scenario.
    expect(specs[0].scenario).toBe(specs[1].scenario);
    const before = specs.map((s) => runCase(s));
    for (const s of specs) rmSync(s.abs, { force: true });
    const after = specs.map((s) => runCase(s));
    const comparable = (r: { durationMs: number }) => ({ ...r, durationMs: 0 });
    expect(after.map(comparable)).toEqual(before.map(comparable));
    expect(after.every((r) => r.status === 'pass')).toBe(true);
    // A spec without its scenario loads the file itself (and finds it gone).
    expect(runCase({ ...specs[0], scenario: undefined }).failures.join('\n')).toContain('FILE_NOT_FOUND');
  });
});

describe('in-process or worker threads', () => {
  it('chooses in-process on fewer than 3 CPUs or for a small suite, else up to 4 workers', () => {
    expect(autoJobs(325, 2)).toEqual({ jobs: 1, why: '2 CPUs' });
    expect(autoJobs(325, 1)).toEqual({ jobs: 1, why: '1 CPU' });
    expect(autoJobs(MIN_CASES_PER_WORKER * 2 - 1, 8)).toEqual({ jobs: 1, why: `${MIN_CASES_PER_WORKER * 2 - 1} cases` });
    expect(autoJobs(MIN_CASES_PER_WORKER * 3, 8)).toEqual({ jobs: 3, why: `8 CPUs, ${MIN_CASES_PER_WORKER * 3} cases` });
    expect(autoJobs(325, 8)).toEqual({ jobs: 4, why: '8 CPUs, 325 cases' });
  });

  it('says what it chose in the summary; an explicit -j is said as before', async () => {
    const dir = scratchWith('suite');
    const auto = await runSuite(['suite'], { cwd: dir });
    expect(auto).toMatchObject({ mode: 'in-process', chosen: '4 cases' });
    expect(auto.planMs).toBeGreaterThan(0);
    const out = (await kss(['test', 'suite'], dir)).out;
    expect(out).toMatch(/4 case\(s\) from 4 file\(s\) in [0-9.]+s \(in-process, chosen for 4 cases\)/);
    const two = (await kss(['test', 'suite', '-j', '2'], dir)).out;
    expect(two).toContain('(2 worker threads)');
  });
});
