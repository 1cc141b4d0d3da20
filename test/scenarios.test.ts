// Determinism (design.md rule 4): every scenario in scenarios/ runs twice with byte-identical trace
// bytes, and another seed changes the runs that draw randomness.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadScenarioFile, runScenario } from '../src/index.js';
import { traceLines } from '../src/cli/run-command.js';
import { discoverScenarios } from '../src/testing/discover.js';

const REPO = join(import.meta.dirname, '..');
const files = discoverScenarios(['scenarios'], REPO).files.map((f) => f.display);

function traceBytes(file: string, seed?: number): string {
  const loaded = loadScenarioFile(join(REPO, file));
  if (!loaded.ok) throw new Error(`${file} does not load: ${loaded.issues[0].message}`);
  const r = runScenario({ ...loaded.scenario, file }, { seed });
  return [...traceLines(r)].join('');
}

describe('every scenario is deterministic', () => {
  it('finds the scenarios', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s: same seed, same trace bytes', (file) => {
    const a = traceBytes(file);
    const b = traceBytes(file);
    expect(a.length).toBeGreaterThan(0);
    expect(a === b, `${file}: two runs with the same seed gave different traces`).toBe(true);
  });

  it('another seed changes the runs that draw randomness (latency, UIDs, container IDs)', () => {
    let changed = 0;
    for (const file of files) if (traceBytes(file, 1) !== traceBytes(file, 2)) changed++;
    // Every scenario talks to the apiserver through seeded latency, so every one must change.
    expect(changed).toBe(files.length);
    // (every scenario twice: the zoo made it a minute's work on a loaded machine)
  }, 300_000);
});
