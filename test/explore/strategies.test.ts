// The strategies over the kubelet's choice log (pct, exhaustive) and finds that need a --choices
// file. They need the engine's choice log; a build without it refuses them (exit 2), tested too.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { choiceLogAvailable } from '../../src/explore/choices.js';
import { explore } from '../../src/explore/explore.js';
import { loadScenarioFile } from '../../src/scenario/index.js';

const REPO = join(import.meta.dirname, '..', '..');

async function kss(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), color: false, cwd: REPO });
  return { code, out, err };
}

function load(file: string) {
  const l = loadScenarioFile(join(REPO, file));
  if (!l.ok) throw new Error(l.issues.map((i) => i.message).join('\n'));
  return { ...l.scenario, file };
}

const available = choiceLogAvailable(load('scenarios/explore/ready-pods-current.yaml'));

describe.runIf(available)('strategies over the choice log', () => {
  it('pct finds BZ-15 in ready-pods-current and states its probability bound', async () => {
    const r = await explore(load('scenarios/explore/ready-pods-current.yaml'), { strategy: 'pct', runs: 120, seed: 1 });
    expect(r.finds.map((f) => f.key)).toContain('invariant:transition-time-honest:web:api.patch');
    const pct = r.report.stats.pct!;
    expect(pct.depth).toBe(3);
    expect(pct.bound).toBeCloseTo(1 / (Math.max(1, pct.sources) * Math.max(1, pct.ties) ** 2), 12);
    expect(r.report.stats.coverage.choicePrefixes).toBeGreaterThan(1);
  });
  it('exhaustive exhausts a small bounded space, and its shards merge into the same report', async () => {
    const s = load('scenarios/explore/channel-burst-classic.yaml');
    const one = await explore(s, { strategy: 'exhaustive', maxDeviations: 1, runs: 5000 });
    expect(one.report.stats.coverage.exhausted).toBe(true);
    expect(one.finds).toEqual([]);
    const parts = await Promise.all([1, 2].map((index) => explore(s, { strategy: 'exhaustive', maxDeviations: 1, runs: 5000, shard: { index, total: 2 } })));
    expect(parts[0].report.stats.runs + parts[1].report.stats.runs).toBe(one.report.stats.runs);
    const prefixes = new Set([...parts[0].report.coverage.choicePrefixes, ...parts[1].report.coverage.choicePrefixes]);
    expect([...prefixes].sort()).toEqual(one.report.coverage.choicePrefixes);
  });
  it('a find that needs its choices gets a --choices file; kss run with it fails, without it passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kss-explore-choices-'));
    const r = await kss(['explore', 'scenarios/side-by-side/channel-full-classic.yaml', '--strategy', 'exhaustive', '--max-deviations', '1', '--runs', '60', '--oracle', 'expect', '--out', dir]);
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const f = report.finds.find((x: { choicesFile?: string }) => x.choicesFile !== undefined);
    expect(f).toBeDefined();
    const yaml = join(dir, f.file);
    const choices = join(dir, f.choicesFile);
    const a = await kss(['run', yaml, '--choices', choices, '--trace', join(dir, 'a.jsonl')]);
    const b = await kss(['run', yaml, '--choices', choices, '--trace', join(dir, 'b.jsonl')]);
    expect(a.code).toBe(1);
    expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'b.jsonl'), 'utf8'));
    expect((await kss(['run', yaml])).code).toBe(0);
  });
});

describe.runIf(!available)('without the choice log', () => {
  it('pct and exhaustive are refused with exit 2', async () => {
    for (const s of ['pct', 'exhaustive']) expect((await kss(['explore', 'scenarios/explore/ready-pods-current.yaml', '--strategy', s])).code).toBe(2);
  });
});
