// `kss test`, in-process: discovery, goldens, shards, seeds, reporters, exit codes.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { descendants, kss, lastLine, parseXml, scratchWith } from './helpers.js';

const SUITE_NAMES = ['cli-classic', 'cli-latency', 'cli-running', 'cli-two-updates'];

interface JsonReport {
  passed: number;
  failed: number;
  skipped: number;
  mode: string;
  results: Array<{ file: string; name: string; case: string; seed: number; status: string; failures: string[]; notes: string[]; golden?: { state: string; path: string } }>;
}

describe('kss test', () => {
  it('passes on the fixture suite, skips fixtures/ and bad/, notes missing goldens', async () => {
    const dir = scratchWith('suite');
    const r = await kss(['test', 'suite', '--jobs', '1'], dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(lastLine(r.out)).toBe('4 passed, 0 failed');
    expect(r.out).toContain('✓ suite/a-running.yaml › cli-running (seed 3, current)');
    expect(r.out).toContain('✓ suite/nested/c-classic.yaml › cli-classic (seed 5, classic)');
    expect(r.out).not.toContain('not-a-test');
    expect(r.out).not.toContain('broken');
    expect(r.out).toContain('note: no golden suite/a-running.golden.jsonl');
    // Sorted by path.
    const order = r.out.split('\n').filter((l) => l.startsWith('✓')).map((l) => l.split(' ')[1]);
    expect(order).toEqual(['suite/a-running.yaml', 'suite/b-two-updates.yaml', 'suite/nested/c-classic.yaml', 'suite/nested/d-latency.yaml']);
  });

  it('uses scenarios/ by default and says so when it is missing (usage error)', async () => {
    const dir = scratchWith();
    const r = await kss(['test'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no such file or folder: scenarios');
  });

  it('--ci fails a missing golden; --update writes goldens for the own seed only; then --ci passes', async () => {
    const dir = scratchWith('suite');
    const ci = await kss(['test', 'suite', '--ci', '--jobs', '1'], dir);
    expect(ci.code).toBe(1);
    expect(lastLine(ci.out)).toBe('0 passed, 4 failed');
    expect(ci.out).toContain('golden suite/a-running.golden.jsonl is missing (--ci requires one');

    const up = await kss(['test', 'suite', '--update', '--seeds', '2', '--jobs', '1'], dir);
    expect(up.code).toBe(0);
    expect(lastLine(up.out)).toBe('8 passed, 0 failed');
    expect(up.out.match(/wrote golden/g)).toHaveLength(4);
    expect(readdirSync(join(dir, 'suite')).filter((f) => f.includes('.golden.')).sort()).toEqual(['a-running.golden.jsonl', 'b-two-updates.golden.jsonl']);
    const golden = readFileSync(join(dir, 'suite/a-running.golden.jsonl'), 'utf8').split('\n');
    expect(JSON.parse(golden[0])).toEqual({ golden: 'kss/v1', scenario: 'cli-running', seed: 3, variant: 'current' });
    // Decisions and requests, never log lines or step records; final state at the end.
    const types = golden.filter((l) => l !== '').slice(1).map((l) => JSON.parse(l) as { type?: string; final?: string });
    expect(types.some((t) => t.type === 'status.set')).toBe(true);
    expect(types.some((t) => t.type === 'api.patch')).toBe(true);
    expect(types.some((t) => t.type === 'log' || t.type === 'step')).toBe(false);
    expect(types.filter((t) => t.final !== undefined).length).toBeGreaterThan(0);

    const again = await kss(['test', 'suite', '--ci', '--jobs', '1'], dir);
    expect(again.code).toBe(0);
    expect(lastLine(again.out)).toBe('4 passed, 0 failed');
    const same = await kss(['test', 'suite', '--update', '--jobs', '1'], dir);
    expect(same.out).not.toContain('golden');
  });

  it('notes a golden whose scenario is gone', async () => {
    const dir = scratchWith('suite');
    writeFileSync(join(dir, 'suite/nested/gone.golden.jsonl'), '{}\n');
    const r = await kss(['test', 'suite', '--jobs', '1'], dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('note: golden suite/nested/gone.golden.jsonl has no scenario beside it');
  });

  it('a deliberately changed golden fails with a readable diff', async () => {
    const dir = scratchWith('suite');
    await kss(['test', 'suite', '--update', '--jobs', '1'], dir);
    const path = join(dir, 'suite/a-running.golden.jsonl');
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    const k = lines.findIndex((l) => l.includes('"type":"api.patch"') && l.includes('"phase":"Running"'));
    expect(k).toBeGreaterThan(0);
    lines[k] = lines[k].replace('"phase":"Running"', '"phase":"Pending"');
    writeFileSync(path, lines.join('\n'));
    const r = await kss(['test', 'suite', '--jobs', '1'], dir);
    expect(r.code).toBe(1);
    expect(lastLine(r.out)).toBe('3 passed, 1 failed');
    expect(r.out).toContain('✗ suite/a-running.yaml › cli-running (seed 3, current)');
    expect(r.out).toContain(`first at line ${k + 1}: stored.status.phase: expected "Pending", got "Running"`);
    expect(r.out).toContain('--- expected (suite/a-running.golden.jsonl)');
    expect(r.out).toContain('+++ actual (this run)');
    expect(r.out).toMatch(/\n {4}- \{.*"phase":"Pending"/);
    expect(r.out).toMatch(/\n {4}\+ \{.*"phase":"Running"/);
    expect(r.out).toContain('replay: npx kss run suite/a-running.yaml --seed 3 --status-manager current');
    expect(r.out).toContain('kss test suite/a-running.yaml --update');
  });

  it('--shard 1/3, 2/3, 3/3 together cover every case exactly once', async () => {
    const dir = scratchWith('suite', 'failing');
    const all: string[] = [];
    for (const i of [1, 2, 3]) {
      const r = await kss(['test', 'suite', 'failing', '--shard', `${i}/3`, '--seeds', '2', '--reporter', 'json', '--jobs', '1'], dir);
      const rep = JSON.parse(r.out) as JsonReport;
      all.push(...rep.results.map((x) => x.case));
    }
    const every = JSON.parse((await kss(['test', 'suite', 'failing', '--seeds', '2', '--reporter', 'json', '--jobs', '1'], dir)).out) as JsonReport;
    expect(every.results).toHaveLength(10);
    expect([...all].sort()).toEqual(every.results.map((x) => x.case).sort());
    expect(new Set(all).size).toBe(all.length);
  });

  it('filters by --tag (any) and --grep (name or path)', async () => {
    const dir = scratchWith('suite');
    const tagged = JSON.parse((await kss(['test', 'suite', '--tag', 'smoke', '--reporter', 'json', '--jobs', '1'], dir)).out) as JsonReport;
    expect(tagged.results.map((x) => x.name)).toEqual(['cli-running', 'cli-latency']);
    const two = JSON.parse((await kss(['test', 'suite', '--tag', 'classic', '--tag', 'latency', '--reporter', 'json', '--jobs', '1'], dir)).out) as JsonReport;
    expect(two.results.map((x) => x.name)).toEqual(['cli-classic', 'cli-latency']);
    const byName = JSON.parse((await kss(['test', 'suite', '--grep', 'two-up', '--reporter', 'json', '--jobs', '1'], dir)).out) as JsonReport;
    expect(byName.results.map((x) => x.name)).toEqual(['cli-two-updates']);
    const byPath = JSON.parse((await kss(['test', 'suite', '--grep', '^suite/nested/', '--reporter', 'json', '--jobs', '1'], dir)).out) as JsonReport;
    expect(byPath.results.map((x) => x.name)).toEqual(['cli-classic', 'cli-latency']);
    const none = await kss(['test', 'suite', '--tag', 'nothing-has-this'], dir);
    expect(none.code).toBe(0);
    expect(lastLine(none.out)).toBe('0 passed, 0 failed');
  });

  it('--seeds N runs seed, seed+1, … as separate cases', async () => {
    const dir = scratchWith('suite');
    const r = await kss(['test', 'suite/a-running.yaml', '--seeds', '3', '--jobs', '1'], dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('cli-running [seed 3] (seed 3, current)');
    expect(r.out).toContain('cli-running [seed 4] (seed 4, current)');
    expect(r.out).toContain('cli-running [seed 5] (seed 5, current)');
    expect(lastLine(r.out)).toBe('3 passed, 0 failed');
    const from = await kss(['test', 'suite/a-running.yaml', '--seeds', '2', '--seed', '100', '--jobs', '1'], dir);
    expect(from.out).toContain('[seed 100]');
    expect(from.out).toContain('[seed 101]');
    // Neither is the scenario's own seed: no golden is checked, so no note either.
    expect(from.out).not.toContain('golden');
  });

  it('a failing scenario says what was expected, what happened, and how to replay it', async () => {
    const dir = scratchWith('failing', 'suite');
    const r = await kss(['test', 'failing', 'suite/a-running.yaml', '--jobs', '1'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('✗ failing/wrong-phase.yaml › cli-wrong-phase (seed 9, current)');
    expect(r.out).toContain('expect[0] apiserver (line 19): apiserver object default/web at status.phase: expected "Succeeded", got "Running"');
    expect(r.out).toContain('replay: npx kss run failing/wrong-phase.yaml --seed 9 --status-manager current');
    expect(lastLine(r.out)).toBe('1 passed, 1 failed');
  });

  it('an invalid scenario is a failed case with its rendered issues (exit 1, not 2)', async () => {
    const dir = scratchWith('invalid', 'suite');
    const r = await kss(['test', 'invalid', 'suite/a-running.yaml', '--jobs', '1'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('✗ invalid/bad-policy.yaml does not load');
    expect(r.out).toContain('invalid/bad-policy.yaml:11:24: error INVALID_VALUE at spec.pods[0].spec.restartPolicy');
    expect(r.out).toContain('|                        ^^^^^^');
    expect(lastLine(r.out)).toBe('1 passed, 1 failed');
  });

  it('--bail stops after the first failure; the rest are skipped', async () => {
    const dir = scratchWith('failing', 'suite');
    const r = await kss(['test', 'failing', 'suite', '--bail', '--jobs', '1'], dir);
    expect(r.code).toBe(1);
    expect(lastLine(r.out)).toBe('0 passed, 1 failed, 4 skipped');
  });

  it('usage errors exit 2', async () => {
    const dir = scratchWith('suite');
    mkdirSync(join(dir, 'empty'));
    for (const argv of [
      ['test', 'suite', '--shard', '0/3'],
      ['test', 'suite', '--shard', '4/3'],
      ['test', 'suite', '--shard', 'two'],
      ['test', 'suite', '--grep', '('],
      ['test', 'suite', '--seeds', '0'],
      ['test', 'suite', '--jobs', '0'],
      ['test', 'suite', '--update', '--ci'],
      ['test', 'suite', '--output', 'x.xml'],
      ['test', 'suite', '--reporter', 'tap'],
      ['test', 'suite', '--no-such-flag'],
      ['test', 'nowhere'],
      ['test', 'empty'],
    ]) {
      const r = await kss(argv, dir);
      expect({ argv, code: r.code }).toEqual({ argv, code: 2 });
      expect(r.err).not.toBe('');
    }
  });

  it('--reporter junit --output writes well-formed JUnit XML naming each scenario', async () => {
    const dir = scratchWith('suite', 'failing', 'invalid');
    // A folder cannot be replaced by the report: the write fails whole, exit 2.
    const r = await kss(['test', 'suite', '--reporter', 'junit', '--output', 'suite', '--jobs', '1'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('WRITE_FAILED');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // Missing folders on the way are created.
    const ok = await kss(['test', 'suite', 'failing', 'invalid', '--reporter', 'junit', '--output', 'reports/junit.xml', '--jobs', '1'], dir);
    expect(ok.code).toBe(1);
    expect(lastLine(ok.out)).toBe('4 passed, 2 failed');
    const xml = readFileSync(join(dir, 'reports/junit.xml'), 'utf8');
    const root = parseXml(xml);
    expect(root.name).toBe('testsuites');
    expect(root.attrs.tests).toBe('6');
    expect(root.attrs.failures).toBe('2');
    const suites = descendants(root, 'testsuite');
    expect(suites).toHaveLength(1);
    expect(suites[0].attrs).toMatchObject({ tests: '6', failures: '2' });
    const cases = descendants(root, 'testcase');
    expect(cases.map((c) => c.attrs.name).sort()).toEqual([...SUITE_NAMES, 'cli-wrong-phase', 'invalid/bad-policy.yaml'].sort());
    for (const c of cases) {
      expect(Number(c.attrs.time)).toBeGreaterThanOrEqual(0);
      expect(c.attrs.classname).not.toBe('');
    }
    const wrong = cases.find((c) => c.attrs.name === 'cli-wrong-phase')!;
    expect(wrong.attrs.classname).toBe('failing.wrong-phase');
    expect(wrong.attrs.file).toBe('failing/wrong-phase.yaml');
    const failure = descendants(wrong, 'failure')[0];
    expect(failure.attrs.message).toContain('expected "Succeeded", got "Running"');
    expect(failure.text).toContain('replay: npx kss run failing/wrong-phase.yaml --seed 9 --status-manager current');
    const invalid = cases.find((c) => c.attrs.name === 'invalid/bad-policy.yaml')!;
    expect(descendants(invalid, 'failure')[0].attrs.type).toBe('invalid');
  });

  it('--reporter json without --output: the report owns stdout, people read stderr', async () => {
    const dir = scratchWith('suite');
    const r = await kss(['test', 'suite', '--reporter', 'json', '--jobs', '1'], dir);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.out) as JsonReport;
    expect(rep).toMatchObject({ passed: 4, failed: 0, skipped: 0, mode: 'in-process' });
    expect(rep.results.map((x) => x.name)).toEqual(['cli-running', 'cli-two-updates', 'cli-classic', 'cli-latency']);
    expect(lastLine(r.err)).toBe('4 passed, 0 failed');
  });

  it('--reporter junit without --output prints XML alone on stdout', async () => {
    const dir = scratchWith('suite');
    const r = await kss(['test', 'suite', '--reporter', 'junit', '--jobs', '1'], dir);
    expect(r.code).toBe(0);
    const root = parseXml(r.out);
    expect(descendants(root, 'testcase').map((c) => c.attrs.name).sort()).toEqual(SUITE_NAMES);
    expect(lastLine(r.err)).toBe('4 passed, 0 failed');
  });
});
