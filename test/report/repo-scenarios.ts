// The repository's scenarios for the view tests: their paths, and one run of a scenario by path.
import { join } from 'node:path';
import { loadScenarioFile, runScenario } from '../../src/index.js';
import { discoverScenarios } from '../../src/testing/discover.js';

export const REPO = join(import.meta.dirname, '..', '..');
export const files = discoverScenarios(['scenarios'], REPO).files.map((f) => f.display);

/** One run of the scenario at `file` (relative to the repository), named by that path. */
export function run(file: string) {
  const loaded = loadScenarioFile(join(REPO, file));
  if (!loaded.ok) throw new Error(`${file} does not load`);
  return runScenario({ ...loaded.scenario, file });
}
