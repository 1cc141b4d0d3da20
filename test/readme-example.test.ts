// The README's library example, kept honest: it must run as written.
import { loadScenarioFile, runScenario } from '../src/index.js';
import { expect, test } from 'vitest';

test('a Job reaches Succeeded and its status converges', () => {
  const loaded = loadScenarioFile('scenarios/node/job-succeeds.yaml');
  if (!loaded.ok) throw new Error(loaded.issues.map((i) => i.message).join('\n'));
  const r = runScenario(loaded.scenario, { seed: 3, variant: 'classic' });
  expect(r.verdict).toBe('pass');
  expect(r.trace.filter((e) => e.type === 'api.request' && e.verb === 'patch').length).toBeGreaterThan(0);
});
