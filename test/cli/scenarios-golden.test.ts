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
