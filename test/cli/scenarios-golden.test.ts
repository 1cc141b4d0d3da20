// Test layer 3 (design.md "Tests, in layers"): every scenario in scenarios/ runs, passes, and
// matches its golden beside it, exactly as CI's `kss test --ci` would judge it.
import { describe, expect, it } from 'vitest';
import { discoverScenarios } from '../../src/testing/discover.js';
import { runSuite } from '../../src/testing/suite.js';
import { REPO } from './helpers.js';

const found = discoverScenarios(['scenarios'], REPO);

describe('scenarios/', () => {
  it.skipIf(found.files.length === 0)(
    'every scenario passes and matches its golden (kss test --ci)',
    async () => {
      const suite = await runSuite(['scenarios'], { cwd: REPO, ci: true });
      const failed = suite.results.filter((r) => r.status !== 'pass').map((r) => `${r.file} (${r.caseName}):\n${r.failures.join('\n')}`);
      expect(
        failed,
        'a scenario failed or its golden differs or is missing; see the messages. If the new behaviour is intended: ' +
          'node dist/cli/bin.js test scenarios --update, review the golden diffs, and commit them',
      ).toEqual([]);
    },
    600_000,
  );
});

// Every shipped scenario holds under any seed, or pins its seed (spec.pinned: [seed], with a
// comment saying why): the verdicts are required, not only that traces differ.
describe('scenarios/ under other seeds and generations', () => {
  const notPassed = (suite: Awaited<ReturnType<typeof runSuite>>) =>
    suite.results.filter((r) => r.status === 'fail').map((r) => `${r.file} (${r.caseName}, seed ${r.seed}):\n${r.failures.join('\n')}`);

  it('kss test --seed 101 --seeds 2: every case passes (a pinned seed runs once, under its own seed)', async () => {
    const suite = await runSuite(['scenarios'], { cwd: REPO, seed: 101, seeds: 2, golden: 'off' });
    expect(notPassed(suite)).toEqual([]);
    const pinned = suite.results.filter((r) => r.notes.some((n) => n.includes('spec.pinned: [seed]')));
    expect(pinned.length).toBeGreaterThan(0);
    for (const r of pinned) expect(suite.results.filter((x) => x.file === r.file)).toHaveLength(1);
    expect(suite.passed).toBe(suite.results.length);
  }, 600_000);

  it.each(['classic', 'transitional', 'current'] as const)('kss test --status-manager %s: every case passes or is skipped with a note (pinned to another)', async (variant) => {
    const suite = await runSuite(['scenarios'], { cwd: REPO, variant, golden: 'off' });
    expect(notPassed(suite)).toEqual([]);
    const skipped = suite.results.filter((r) => r.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) expect(r.notes.join(' ')).toMatch(/status manager only \(spec\.pinned: \[statusManager\]\)/);
    expect(suite.passed).toBeGreaterThan(100);
  }, 600_000);
});
