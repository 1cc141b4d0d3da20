// The bug zoo (scenarios/zoo/) and its fix switches (spec.kubelet.revertFixes, model/fixes.ts):
//  - every entry has broken.yaml, fixed.yaml and a README;
//  - fixed.yaml is broken.yaml with the fix in place: running broken.yaml without its revertFixes
//    (or under the fixed generation) gives exactly fixed.yaml's golden trace, and that trace differs
//    from broken.yaml's own: each switch changes what the kubelet does in its entry;
//  - every switch of the registry is taken out by at least one entry, and every proposed fix (a
//    change upstream never merged, spec.kubelet.proposedFixes) put in by one entry's fixed.yaml;
//  - off by default: no scenario outside the zoo names a fix (reverted or proposed), and every one of them, run with
//    `revertFixes: []` written out, matches its golden byte for byte.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile, runScenario, type Scenario } from '../src/index.js';
import { FIXES, PROPOSED_FIXES } from '../src/model/fixes.js';
import { goldenLines, goldenPathFor, readGolden } from '../src/report/golden.js';
import { discoverScenarios } from '../src/testing/discover.js';
import { goldenSource } from '../src/testing/golden-source.js';

const REPO = join(import.meta.dirname, '..');
const ZOO = join(REPO, 'scenarios', 'zoo');
const entries = readdirSync(ZOO, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

function load(file: string): Scenario {
  const loaded = loadScenarioFile(file);
  if (!loaded.ok) throw new Error(`${file} does not load: ${loaded.issues[0].message}`);
  return { ...loaded.scenario, file: file.slice(REPO.length + 1) };
}

/** The golden lines of a run, without the header (which names the scenario). */
function body(s: Scenario, variant = s.kubelet.statusManager): string[] {
  return goldenLines(goldenSource(runScenario(s, { variant, keepTrace: true }))).slice(1);
}

describe('the bug zoo', () => {
  it('has at least 14 entries', () => {
    expect(entries.length).toBeGreaterThanOrEqual(14);
  });

  it.each(entries)('%s: broken and fixed share the timeline; only the fix differs', (dir) => {
    for (const f of ['broken.yaml', 'fixed.yaml', 'README.md']) expect(existsSync(join(ZOO, dir, f)), `${dir}/${f}`).toBe(true);
    const broken = load(join(ZOO, dir, 'broken.yaml'));
    const fixed = load(join(ZOO, dir, 'fixed.yaml'));
    expect(fixed.kubelet.revertFixes).toEqual([]);
    expect(broken.kubelet.proposedFixes, 'a proposed fix goes in fixed.yaml').toEqual([]);
    expect(broken.timeline.length, 'the two files run the same number of steps').toBe(fixed.timeline.length);
    const fixedGolden = readGolden(join(REPO, goldenPathFor(fixed.file)));
    expect(fixedGolden, `${dir}: fixed.golden.jsonl`).toBeDefined();
    const brokenBody = body(broken);
    // The same run with the fix put back: without the reverts, or in the generation that has it
    // (or, for a bug upstream never fixed, BZ-23, with the kubelet setting that closes the window).
    const withFix = { ...broken, kubelet: { ...fixed.kubelet, revertFixes: [] } };
    const sameSteps = JSON.stringify(broken.timeline.map(({ pos: _p, ...s }) => s)) === JSON.stringify(fixed.timeline.map(({ pos: _p, ...s }) => s));
    if (sameSteps) expect(body(withFix, fixed.kubelet.statusManager)).toEqual(fixedGolden!.slice(1));
    expect(brokenBody, `${dir}: the broken run must differ from the fixed one`).not.toEqual(fixedGolden!.slice(1));
  });

  it('takes every fix of the registry out in at least one entry', () => {
    const used = new Set(entries.flatMap((d) => load(join(ZOO, d, 'broken.yaml')).kubelet.revertFixes));
    expect(FIXES.map((f) => f.name).filter((n) => !used.has(n))).toEqual([]);
  });

  it('puts every proposed fix in, in at least one entry\'s fixed.yaml', () => {
    const used = new Set(entries.flatMap((d) => load(join(ZOO, d, 'fixed.yaml')).kubelet.proposedFixes));
    expect(PROPOSED_FIXES.map((f) => f.name).filter((n) => !used.has(n))).toEqual([]);
  });
});

describe('fix switches are off by default', () => {
  const others = discoverScenarios(['scenarios'], REPO)
    .files.map((f) => f.display)
    .filter((f) => !f.startsWith('scenarios/zoo/'));

  it('no scenario outside the zoo reverts a fix or applies a proposed one', () => {
    expect(others.filter((f) => load(join(REPO, f)).kubelet.revertFixes.length > 0)).toEqual([]);
    // (an explore scenario may: the negative control of a search, with the proposal in)
    const controls = (f: string) => f.startsWith('scenarios/explore/') && f.endsWith('-fixed.yaml');
    expect(others.filter((f) => !controls(f) && load(join(REPO, f)).kubelet.proposedFixes.length > 0)).toEqual([]);
  });

  it.each(FIXES.map((f) => f.name))('%s off: its share of the scenarios outside the zoo, run with revertFixes: [], match their goldens', (name) => {
    // One fix per case, each over a share of the scenarios (all of them across the cases), so that
    // every scenario is run with the switches written out as off without running the suite 11 times.
    const i = FIXES.findIndex((f) => f.name === name);
    const mine = others.filter((_, k) => k % FIXES.length === i);
    for (const f of mine) {
      const s = load(join(REPO, f));
      const golden = readGolden(join(REPO, goldenPathFor(f)));
      expect(golden, f).toBeDefined();
      expect(body({ ...s, kubelet: { ...s.kubelet, revertFixes: [] } }), f).toEqual(golden!.slice(1));
    }
  }, 120_000);
});
