// kss explore on the repository's explore scenarios: each neutral scenario (no fault in its
// timeline) yields its find with a fixed seed and budget, shrunk to a small plain scenario that
// `kss run` replays (exit 1, the same violation) byte for byte; the search is the same under -j 1
// and -j 2 and split into shards; the negative control finds nothing.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { explore } from '../../src/explore/explore.js';
import { loadScenarioFile } from '../../src/scenario/index.js';

const REPO = join(import.meta.dirname, '..', '..');

async function kss(argv: string[], cwd = REPO) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), color: false, cwd });
  return { code, out, err };
}

function load(file: string) {
  const l = loadScenarioFile(join(REPO, file));
  if (!l.ok) throw new Error(l.issues.map((i) => i.message).join('\n'));
  return { ...l.scenario, file };
}

// What explore must find in each scenario (README in scenarios/explore), with the budget and the
// bounds on the shrunk reproducer.
const CASES: Array<{ file: string; runs: number; finds: string[]; maxSteps: number; maxPods: number }> = [
  { file: 'scenarios/explore/ready-pods-current.yaml', runs: 200, finds: ['invariant:transition-time-honest:web:api.patch'], maxSteps: 2, maxPods: 1 },
  { file: 'scenarios/explore/ready-pods-classic.yaml', runs: 200, finds: ['invariant:transition-time-honest:web:api.patch'], maxSteps: 2, maxPods: 1 },
  { file: 'scenarios/explore/web-node-current.yaml', runs: 60, finds: ['invariant:transition-time-honest:web:api.patch'], maxSteps: 2, maxPods: 1 },
  { file: 'scenarios/explore/volume-stuck-classic.yaml', runs: 100, finds: ['invariant:deletion-completes:db:liveness'], maxSteps: 2, maxPods: 1 },
  { file: 'scenarios/explore/unsignalable-web-transitional.yaml', runs: 300, finds: ['invariant:deleted-pod-stops:web:liveness'], maxSteps: 2, maxPods: 1 },
  { file: 'scenarios/explore/evicted-shipper-current.yaml', runs: 100, finds: ['invariant:container-exit-kept:web:api.patch'], maxSteps: 1, maxPods: 1 },
  { file: 'scenarios/explore/finishing-job-current.yaml', runs: 200, finds: ['invariant:transition-time-honest:job:api.patch'], maxSteps: 3, maxPods: 1 },
  {
    file: 'scenarios/explore/terminated-web-current.yaml',
    runs: 300,
    finds: ['invariant:status-converges:web:liveness', 'invariant:no-ready-when-terminal:web:api.patch'],
    maxSteps: 2,
    maxPods: 1,
  },
];

describe('kss explore finds the kubelet bugs of the explore scenarios', () => {
  const shrinkMs: number[] = [];
  it.each(CASES)('$file', async (c) => {
    const s = load(c.file);
    expect(s.timeline.some((t) => ['partition', 'repair', 'fail', 'latency', 'restartApiserver', 'restartKubelet', 'externalPatch', 'delete', 'recreate'].includes(t.action))).toBe(false);
    const r = await explore(s, { runs: c.runs, seed: 1 });
    const keys = r.finds.map((f) => f.key);
    for (const want of c.finds) expect(keys).toContain(want);
    shrinkMs.push(...r.timing.shrinkMs);
    const dir = mkdtempSync(join(tmpdir(), 'kss-explore-'));
    for (const f of r.finds.filter((x) => c.finds.includes(x.key))) {
      expect(f.shrunk.steps).toBeLessThanOrEqual(c.maxSteps);
      expect(f.shrunk.pods).toBeLessThanOrEqual(c.maxPods);
      // The shrunk file is a plain scenario: kss run replays it, exit 1, the same violation, twice
      // byte for byte.
      const file = join(dir, `${f.id}.yaml`);
      await import('node:fs').then((fs) => fs.writeFileSync(file, f.yaml));
      const a = await kss(['run', file, '--trace', join(dir, 'a.jsonl')]);
      const b = await kss(['run', file, '--trace', join(dir, 'b.jsonl')]);
      expect(a.code).toBe(1);
      if (f.signature.oracle === 'invariant') expect(a.out).toContain(`invariant ${f.signature.name} violated for ${f.signature.pod}`);
      expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'b.jsonl'), 'utf8'));
      expect(a.out).toBe(b.out);
      expect(f.explanation).toMatch(/^Let P be .*\nThen:\n[\s\S]*contradiction: /);
    }
  });
  it('shrinks fast: the median shrink time is at most 10 s', () => {
    const sorted = [...shrinkMs].sort((x, y) => x - y);
    expect(sorted.length).toBeGreaterThan(0);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThanOrEqual(10_000);
  });
});

describe('kss explore is deterministic', () => {
  const FILE = 'scenarios/explore/volume-stuck-classic.yaml';
  it('the same finds, byte for byte, with -j 1 and -j 2, and shards 1/3..3/3 merged equal one run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kss-explore-det-'));
    const one = await kss(['explore', FILE, '--runs', '150', '--out', join(dir, 'one'), '--reporter', 'json']);
    const two = await kss(['explore', FILE, '--runs', '150', '-j', '2', '--out', join(dir, 'two'), '--reporter', 'json']);
    expect(one.code).toBe(1);
    expect(two.out).toBe(one.out);
    const files = (d: string) => readdirSync(join(dir, d, 'finds')).sort().map((f) => [f, readFileSync(join(dir, d, 'finds', f), 'utf8')]);
    expect(files('two')).toEqual(files('one'));
    for (const i of [1, 2, 3]) expect((await kss(['explore', FILE, '--runs', '150', '--shard', `${i}/3`, '--out', join(dir, `s${i}`)])).code).toBeLessThanOrEqual(1);
    const merged = await kss(['explore', 'merge', join(dir, 's1'), join(dir, 's2'), join(dir, 's3'), '--out', join(dir, 'm'), '--reporter', 'json']);
    expect(merged.code).toBe(1);
    const strip = (s: string) => ({ ...JSON.parse(s), shard: undefined });
    expect(strip(merged.out)).toEqual(strip(one.out));
    expect(files('m')).toEqual(files('one'));
  });
  it('--shard-from-env reads JOB_COMPLETION_INDEX (0-based) and CI_NODE_INDEX (1-based)', async () => {
    const { shardFromEnv } = await import('../../src/explore/parallel.js');
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '2' }, 3)).toEqual({ index: 3, total: 3 });
    expect(shardFromEnv({ CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4' })).toEqual({ index: 1, total: 4 });
    expect(typeof shardFromEnv({ JOB_COMPLETION_INDEX: '3' }, 3)).toBe('string');
    expect(typeof shardFromEnv({})).toBe('string');
  });
});

describe('kss explore: the negative control and bad input', () => {
  it("a find whose fault ends past the run's end is written without the step that never ran, and loads", async () => {
    // (with this budget one find's fault ends at 1m35.24s, after the scenario's spec.until of 70s)
    const dir = mkdtempSync(join(tmpdir(), 'kss-explore-until-'));
    const r = await kss(['explore', 'scenarios/cluster/terminated-pods-collected-classic.yaml', '--runs', '100', '--out', dir]);
    expect(r.err).not.toContain('SHRINK');
    expect(r.code).toBe(1);
    const finds = readdirSync(join(dir, 'finds')).filter((f) => f.endsWith('.yaml'));
    expect(finds.length).toBeGreaterThan(0);
    for (const f of finds) {
      const l = loadScenarioFile(join(dir, 'finds', f));
      expect(l.ok, f).toBe(true);
      if (l.ok) expect(l.scenario.timeline.every((st) => st.atMs <= l.scenario.untilMs)).toBe(true);
      expect((await kss(['run', join(dir, 'finds', f)])).code, f).toBe(1);
    }
  });

  it('finds nothing where the kubelet recovers (exit 0)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kss-explore-neg-'));
    const r = await kss(['explore', 'scenarios/explore/channel-burst-classic.yaml', '--runs', '150', '--out', dir]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('nothing found in 150 runs');
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).finds).toEqual([]);
  });
  it('finds nothing with a force delete and a failed stop where the pod workers retry the orphan (current, #113145)', async () => {
    const r = await explore(load('scenarios/explore/unsignalable-web-current.yaml'), { runs: 300, seed: 1 });
    expect(r.finds.map((f) => f.key)).toEqual([]);
  });
  it('finds nothing with evictions where the proposed fix keeps an evicted pod\'s dead containers until its worker finishes (kubernetes#123782)', async () => {
    const r = await explore(load('scenarios/explore/evicted-shipper-current-fixed.yaml'), { runs: 300, seed: 1 });
    expect(r.finds.map((f) => f.key)).toEqual([]);
  });
  it('bad input exits 2 with a message, never a stack trace', async () => {
    for (const argv of [
      ['explore', 'scenarios/explore/nope.yaml'],
      ['explore', 'scenarios/explore/ready-pods-current.yaml', '--shard', '4/3'],
      ['explore', 'scenarios/explore/ready-pods-current.yaml', '--runs', '5', '--time', '1s'],
      ['explore', 'scenarios/explore/ready-pods-current.yaml', '--time', 'soon'],
      ['explore', 'merge'],
      ['explore', 'test/fixtures/bad/unknown-key.yaml'],
    ]) {
      const r = await kss(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).not.toMatch(/\n\s+at .*\.(js|ts):\d+/);
    }
  });
  it('--time runs a prefix of the search within the budget', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kss-explore-time-'));
    const r = await kss(['explore', 'scenarios/explore/channel-burst-classic.yaml', '--time', '1s', '--out', dir, '--reporter', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.stats.runs).toBeGreaterThan(0);
    expect(report.runsRequested).toBeUndefined();
  });
  it('spec.explore is checked like the rest of the file: a bad fault kind is a positioned error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kss-explore-bad-'));
    const file = join(dir, 'bad.yaml');
    const text = readFileSync(join(REPO, 'scenarios/explore/volume-stuck-classic.yaml'), 'utf8').replace('faults: [delete, partition, fail]', 'faults: [delete, partitoin]');
    (await import('node:fs')).writeFileSync(file, text);
    const r = await kss(['explore', file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/error \w+ at spec\.explore\.faults\[1\]/);
  });
  it('junit reporter: one failing case per find', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kss-explore-junit-'));
    const r = await kss(['explore', 'scenarios/explore/volume-stuck-classic.yaml', '--runs', '20', '--out', dir, '--reporter', 'junit']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/<testsuites[^>]*failures="1"/);
  });
});

describe('the distributed recipes parse (dry run)', () => {
  it('docs/explore-indexed-job.yaml is an Indexed Job whose pods take their shard from JOB_COMPLETION_INDEX', async () => {
    const { yamlData } = await import('../../src/scenario/yaml-text.js');
    const job = yamlData(readFileSync(join(REPO, 'docs/explore-indexed-job.yaml'), 'utf8')) as any;
    expect(job.apiVersion).toBe('batch/v1');
    expect(job.kind).toBe('Job');
    expect(job.spec.completionMode).toBe('Indexed');
    const c = job.spec.template.spec.containers[0];
    expect(c.env.find((e: any) => e.name === 'KSS_SHARD_TOTAL').value).toBe(String(job.spec.completions));
    expect(c.args.join(' ')).toMatch(/explore .* --shard-from-env .*--out \/results\/shard-\$JOB_COMPLETION_INDEX/);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    const mounts = c.volumeMounts.map((m: any) => m.name).sort();
    expect(mounts).toEqual(job.spec.template.spec.volumes.map((v: any) => v.name).sort());
  });
  it('docs/explore-github-actions.yaml runs one shard per matrix entry and merges them', async () => {
    const { yamlData } = await import('../../src/scenario/yaml-text.js');
    const wf = yamlData(readFileSync(join(REPO, 'docs/explore-github-actions.yaml'), 'utf8')) as any;
    const shards = wf.jobs.shard.strategy.matrix.shard as number[];
    const run = wf.jobs.shard.steps.map((s: any) => s.run ?? '').join('\n');
    expect(run).toContain(`--shard \${{ matrix.shard }}/${shards.length}`);
    expect(wf.jobs.merge.needs).toBe('shard');
    expect(wf.jobs.merge.steps.map((s: any) => s.run ?? '').join('\n')).toMatch(/explore merge out\/explore-shard-\*/);
  });
});
